"""fusioncut: a fusion-aware activation-recomputation partitioner for PyTorch."""

from fusioncut._core import __version__
from fusioncut._solver import (
    INF,
    Cut,
    NodeCut,
    NodeCutGraph,
    UnboundedCutError,
    min_cut,
    min_node_cut,
)

__all__ = [
    "INF",
    "Cut",
    "NodeCut",
    "NodeCutGraph",
    "UnboundedCutError",
    "__version__",
    "min_cut",
    "min_node_cut",
]
