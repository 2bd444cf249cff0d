"""Type stubs for fusioncut's C++ max-flow / min-cut core (csrc/bindings.cpp).

Every function takes one-dimensional C-contiguous int64 arrays only (anything else is a
TypeError, nothing is converted), copies and validates them while it holds the GIL, then
releases the GIL to solve its copy.
"""

from typing import Any

import numpy as np
import numpy.typing as npt

__version__: str
INF: int

class UnboundedCutError(ValueError):
    path: list[int]

class MinCutResult:
    """What min_cut returns; read-only."""

    @property
    def value(self) -> int:
        """Total capacity of the cut edges (exact; may exceed int64)."""
    @property
    def source_side(self) -> npt.NDArray[np.bool_]:
        """True for the vertices on the source side."""
    @property
    def cut_edges(self) -> npt.NDArray[np.int64]:
        """Ascending indices of the edges from the source side to the sink side."""
    @property
    def algorithm(self) -> str:
        """The algorithm that ran: 'push_relabel' or 'boykov_kolmogorov'."""

class NodeCutResult:
    """What NodeCutGraph.solve returns; read-only."""

    @property
    def value(self) -> int:
        """Total weight of the cut nodes (exact)."""
    @property
    def cut_nodes(self) -> npt.NDArray[np.int64]:
        """Ascending nodes whose input side is on the source side and output side is not."""
    @property
    def source_side_in(self) -> npt.NDArray[np.bool_]: ...
    @property
    def source_side_out(self) -> npt.NDArray[np.bool_]: ...
    @property
    def algorithm(self) -> str: ...

class NodeCutComponents:
    """Every minimum cut of one solve; read-only (see fusioncut._solver.MinCuts)."""

    @property
    def component_in(self) -> npt.NDArray[np.int32]: ...
    @property
    def component_out(self) -> npt.NDArray[np.int32]: ...
    @property
    def saturated(self) -> npt.NDArray[np.bool_]: ...
    @property
    def count(self) -> int: ...
    @property
    def dag_tail(self) -> npt.NDArray[np.int32]: ...
    @property
    def dag_head(self) -> npt.NDArray[np.int32]: ...

def min_cut(
    num_nodes: int,
    src: npt.NDArray[np.int64],
    dst: npt.NDArray[np.int64],
    capacity: npt.NDArray[np.int64],
    source: int,
    sink: int,
    algorithm: str = "auto",
    check: bool = False,
) -> MinCutResult:
    """Minimum s-t cut. Raises TypeError (layout, dtype, dimensions), ValueError (lengths,
    num_nodes, capacities, algorithm, source == sink, UnboundedCutError), IndexError (source,
    sink, src, dst), MemoryError (more than the machine's memory, before allocating)."""

PHASE_FLAGS: dict[str, int]

def phase_split(
    user_ptr: npt.NDArray[np.int64],
    user_dst: npt.NDArray[np.int64],
    bits: npt.NDArray[np.uint8],
    saved: npt.NDArray[np.bool_],
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
    """Which graph computes each node for one saved set: (forward, backward, trigger)."""

def gap_knapsack(
    value: npt.NDArray[np.int64],
    tail: npt.NDArray[np.int64],
    head: npt.NDArray[np.int64],
    max_closures: int,
    max_totals: int,
) -> tuple[npt.NDArray[np.int64], list[list[list[int]]], list[npt.NDArray[np.int64]],
           list[npt.NDArray[np.int64]]]:
    """The subset-sum programme between two hull cuts: (reachable totals, per group its
    closures, per group each total's earlier total index and closure index)."""

def link_done(
    start: npt.NDArray[np.float64], seconds: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    """Finish times of copies moved one at a time in the given order: each at max(its start,
    the previous finish) plus its seconds."""

def reuse_peak(
    alloc_t: npt.NDArray[np.int64],
    alloc_s: npt.NDArray[np.int64],
    in_place: npt.NDArray[np.bool_],
    free_t: npt.NDArray[np.int64],
    free_s: npt.NDArray[np.int64],
    work_t: npt.NDArray[np.int64],
    work_s: npt.NDArray[np.int64],
    phantom_t: npt.NDArray[np.int64],
    phantom_s: npt.NDArray[np.int64],
) -> int:
    """One phase's peak bytes under Inductor's conditional buffer reuse."""

def prefetch_times(
    use: npt.NDArray[np.int64], lead: npt.NDArray[np.float64], seconds: npt.NDArray[np.float64]
) -> npt.NDArray[np.int64]:
    """Backward times torch's reload prefetch places each reload at (-1: the start)."""

def raise_along(
    from_: npt.NDArray[np.int64], to: npt.NDArray[np.int64], value: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """value raised until value[to[e]] >= value[from_[e]] on every edge, as a new array."""

class PeakGraph:
    """The facts of a joint graph the peak walk reads, validated and copied once."""

    def __init__(
        self,
        user_ptr: npt.NDArray[np.int64],
        user_dst: npt.NDArray[np.int64],
        reads: npt.NDArray[np.bool_],
        reduced: npt.NDArray[np.bool_],
        same: npt.NDArray[np.bool_],
        blocking: npt.NDArray[np.bool_],
        base: npt.NDArray[np.int64],
        output_of: npt.NDArray[np.int64],
        layout_copy: npt.NDArray[np.int64],
        workspace: npt.NDArray[np.int64],
        tensor: npt.NDArray[np.bool_],
        fusible: npt.NDArray[np.bool_],
        merged: npt.NDArray[np.bool_],
        computing: npt.NDArray[np.bool_],
        heavy: npt.NDArray[np.bool_],
        reduction: npt.NDArray[np.bool_],
        backward_role: npt.NDArray[np.bool_],
        input: npt.NDArray[np.bool_],
        fwd_output: npt.NDArray[np.bool_],
        bwd_output: npt.NDArray[np.bool_],
        cpu_rules: bool,
        max_store_passes: int,
        max_fused_outputs: int,
        horizontal_distance: int,
    ) -> None: ...
    @property
    def num_nodes(self) -> int: ...
    def walk(
        self,
        fw: npt.NDArray[np.bool_],
        bw: npt.NDArray[np.bool_],
        trigger: npt.NDArray[np.int64],
        saved: npt.NDArray[np.bool_],
        away: npt.NDArray[np.bool_],
        offloaded: bool,
        hold_forward: bool,
        wait_node: npt.NDArray[np.int64],
        wait_before: npt.NDArray[np.int64],
        size: npt.NDArray[np.int64],
    ) -> tuple[tuple[npt.NDArray[Any], ...], tuple[npt.NDArray[Any], ...], int,
               npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """One plan's walk: (forward events, backward events, kept bytes, reloaded nodes,
        their first backward uses)."""

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
    ) -> NodeCutResult:
        """Re-solves for new node weights; `function` names the caller in error messages."""
    def solve_components(
        self,
        weights: npt.NDArray[np.int64],
        algorithm: str = "auto",
        check: bool = False,
        function: str = "NodeCutGraph.solve_components",
    ) -> tuple[NodeCutResult, NodeCutComponents]:
        """solve, and every minimum cut for the same weights."""
