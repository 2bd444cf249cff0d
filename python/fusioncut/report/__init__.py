"""Explanations: what fusioncut saved, recomputed and banned, and why (docs/explain.md).

    capture    a model's joint graphs, the way torch.compile sees it (Dynamo), or AOTAutograd's
    build      a Report from a Decision and the emitted modules; per-method totals
    compare    PyTorch's partitioners at the same setting, value by value
    model      the Report's dataclasses (to_dict, to_json)
    text       tables and partition errors as terminal text
    plot       the joint graph and its cut as SVG, saved bytes as bars
    explain    explain / explain_joint: trace, partition three ways, report
    pareto     the budget frontier next to PyTorch's budget plans
"""

from fusioncut.report.build import measure, report_from_decision
from fusioncut.report.capture import Captured, Joint, capture
from fusioncut.report.explain import combine, explain, explain_joint
from fusioncut.report.model import (
    METHODS,
    Banned,
    Difference,
    Fate,
    GraphSummary,
    MethodSummary,
    Recomputed,
    Report,
    SavedValue,
    ValueFate,
)
from fusioncut.report.text import (
    format_bytes,
    format_partition_error,
    format_report,
    format_totals,
)

__all__ = [
    "METHODS",
    "Banned",
    "Captured",
    "Difference",
    "Fate",
    "GraphSummary",
    "Joint",
    "MethodSummary",
    "Recomputed",
    "Report",
    "SavedValue",
    "ValueFate",
    "capture",
    "combine",
    "explain",
    "explain_joint",
    "format_bytes",
    "format_partition_error",
    "format_report",
    "format_totals",
    "measure",
    "report_from_decision",
]
