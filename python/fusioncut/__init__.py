"""fusioncut: a fusion-aware activation-recomputation partitioner for PyTorch.

The max-flow core (``min_cut``, ``min_node_cut``, ``NodeCutGraph``) needs only numpy; every
other name needs torch and is imported on first use, so ``import fusioncut`` works without
torch. Layers, bottom to top (docs/design.md):

    _solver (C++ _core) · _torch_compat · _log · options
    ops · graph                          the joint graph as arrays
    policy · offload · cost · network    the rules: bans, offloading, weights, the network
    decision · emit · fallback           decide, build the modules, hand back to torch
    dynamic/ · report/                   re-solving per size; explanations
    partitioner · inductor · cli         the front doors
"""

import importlib

from fusioncut import _log  # noqa: F401  (applies FUSIONCUT_LOG; needs neither torch nor numpy)
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

_LAZY = {
    "annotate": "fusioncut.tags",
    "AnnotatingPartitioner": "fusioncut.inductor",
    "TorchVersionWarning": "fusioncut._torch_compat",
    "TorchDefectWarning": "fusioncut._torch_offload",
    "build_modules": "fusioncut.emit",
    "FallbackWarning": "fusioncut.fallback",
    "InductorPartitioner": "fusioncut.inductor",
    "Options": "fusioncut.options",
    "Decision": "fusioncut.decision",
    "PartitionError": "fusioncut.decision",
    "OffloadError": "fusioncut.offload",
    "decide": "fusioncut.decision",
    "pareto": "fusioncut.report.pareto",
    "ParetoReport": "fusioncut.report.pareto",
    "Frontier": "fusioncut.budget",
    "FrontierPoint": "fusioncut.budget",
    "BudgetWarning": "fusioncut.budget",
    "Device": "fusioncut.device",
    "partition": "fusioncut.partitioner",
    "partition_for_sizes": "fusioncut.partitioner",
    "Plan": "fusioncut.dynamic",
    "RangeReport": "fusioncut.dynamic",
    "SizeError": "fusioncut.dynamic",
    "SizedDecision": "fusioncut.dynamic",
    "UnbackedSizeWarning": "fusioncut.dynamic",
    "check_optimal_over_ranges": "fusioncut.dynamic",
    "plan": "fusioncut.dynamic",
    "Report": "fusioncut.report",
    "capture": "fusioncut.report",
    "Captured": "fusioncut.report",
    "explain": "fusioncut.report",
    "explain_joint": "fusioncut.report",
    "format_partition_error": "fusioncut.report",
}

__all__ = ["INF", "Cut", "NodeCut", "NodeCutGraph", "UnboundedCutError", "__version__",
           "min_cut", "min_node_cut", *sorted(_LAZY)]


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'fusioncut' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
