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

# Emission and PyTorch integration (need torch; imported on first use so that the max-flow
# core works without torch).
__all__ += ["FallbackWarning", "InductorPartitioner", "build_modules"]
_LAZY_TORCH_EXPORTS = {
    "FallbackWarning": "fusioncut.fallback",
    "InductorPartitioner": "fusioncut.inductor",
    "build_modules": "fusioncut.emit",
}


def __getattr__(name):
    module = _LAZY_TORCH_EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'fusioncut' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value

# Decision layer: graph analysis, cost model, bans and annotations, orchestration.
__all__ += ["Decision", "Options", "PartitionError", "decide", "partition"]
_LAZY_TORCH_EXPORTS.update({
    "Decision": "fusioncut.partitioner",
    "Options": "fusioncut.options",
    "PartitionError": "fusioncut.partitioner",
    "decide": "fusioncut.partitioner",
    "partition": "fusioncut.partitioner",
})

# Dynamic shapes: analyse once, decide per size (issue #4; docs/dynamic.md).
__all__ += ["Plan", "SizeError", "SizedDecision", "UnbackedSizeWarning",
            "check_optimal_over_ranges", "partition_for_sizes", "plan"]
_LAZY_TORCH_EXPORTS.update({
    name: "fusioncut.dynamic"
    for name in ("Plan", "SizeError", "SizedDecision", "UnbackedSizeWarning",
                 "check_optimal_over_ranges", "partition_for_sizes", "plan")
})

# Explanations, pictures and logging (issue #5; docs/explain.md). Importing _log applies
# FUSIONCUT_LOG=debug|info; it needs neither torch nor numpy.
from fusioncut import _log  # noqa: E402,F401

__all__ += ["Report", "explain", "explain_joint", "format_partition_error"]
_LAZY_TORCH_EXPORTS.update({
    name: "fusioncut.explain"
    for name in ("Report", "explain", "explain_joint", "format_partition_error")
})
