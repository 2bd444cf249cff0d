"""Type stubs for fusioncut's C++ max-flow / min-cut core (csrc/bindings.cpp)."""

import numpy as np
import numpy.typing as npt

__version__: str
INF: int

class UnboundedCutError(ValueError):
    path: list[int]

def min_cut(
    num_nodes: int,
    src: npt.NDArray[np.int64],
    dst: npt.NDArray[np.int64],
    capacity: npt.NDArray[np.int64],
    source: int,
    sink: int,
    algorithm: str = "auto",
    check: bool = False,
) -> tuple[int, npt.NDArray[np.bool_], npt.NDArray[np.int64], str]:
    """Minimum s-t cut; returns (value, source_side, cut_edges, algorithm_used)."""

class NodeCutGraph:
    def __init__(
        self,
        num_nodes: int,
        src: npt.NDArray[np.int64],
        dst: npt.NDArray[np.int64],
        source_in: npt.NDArray[np.int64],
        source_out: npt.NDArray[np.int64],
        sink_in: npt.NDArray[np.int64],
        sink_out: npt.NDArray[np.int64],
    ) -> None: ...
    @property
    def num_nodes(self) -> int: ...
    def solve(
        self,
        weights: npt.NDArray[np.int64],
        algorithm: str = "auto",
        check: bool = False,
        function: str = "NodeCutGraph.solve",
    ) -> tuple[int, npt.NDArray[np.int64], npt.NDArray[np.bool_], npt.NDArray[np.bool_], str]:
        """Re-solves for new node weights; returns (value, cut_nodes, source_side_in,
        source_side_out, algorithm_used)."""
