"""Explanations: what fusioncut saved, recomputed and banned, and why (docs/explain.md).

    capture    a function or module's joint graph (AOTAutograd)
    build      a Report from a Decision and the emitted modules; per-method totals
    model      the Report's dataclasses (to_dict, to_json)
    text       tables and partition errors as terminal text
    plot       the joint graph and its cut as SVG, saved bytes as bars
    explain    explain / explain_joint: trace, partition three ways, report
"""

from fusioncut.report.build import measure, report_from_decision
from fusioncut.report.capture import Captured, capture
from fusioncut.report.explain import explain, explain_joint
from fusioncut.report.model import (
    METHODS,
    Banned,
    MethodSummary,
    Recomputed,
    Report,
    SavedValue,
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
    "MethodSummary",
    "Recomputed",
    "Report",
    "SavedValue",
    "capture",
    "explain",
    "explain_joint",
    "format_bytes",
    "format_partition_error",
    "format_report",
    "format_totals",
    "measure",
    "report_from_decision",
]
