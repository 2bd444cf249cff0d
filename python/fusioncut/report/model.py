"""The data of a ``Report``: what was saved, recomputed and banned, and each method's totals.

Plain dataclasses; ``Report.to_dict`` / ``to_json`` serialise them, ``str(report)`` formats
them (``report.text``).
"""

from __future__ import annotations

import copy
import json
from dataclasses import asdict, dataclass, field
from typing import Any

from fusioncut.report.text import format_report

_ITEM_LISTS = ("saved", "recomputed", "banned", "methods")

METHODS = ("fusioncut", "torch min-cut", "default_partition")
"""Method names in ``Report.methods`` order: fusioncut first, then the comparisons."""


@dataclass
class SavedValue:
    """One value the forward hands to the backward."""

    name: str
    op: str
    shape: list  # ints; a symbolic size is its string
    dtype: str | None  # None for a SymInt
    nbytes: int  # from the size hints; 0 for a SymInt
    kind: str  # "cut" | "ban" | "annotation" | "input" | "static input" | "symint"
    why: str
    read_by: list[str]  # backward nodes (of the emitted backward module) that read it


@dataclass
class Recomputed:
    """A forward node the backward module computes again."""

    name: str
    op: str
    needed_by: list[str]  # the first backward (non-recomputed) nodes reached through its users
    is_view: bool  # views and getitems cost nothing to recompute


@dataclass
class Banned:
    """A forward node that may not be recomputed (graph inputs are only counted)."""

    name: str
    op: str
    kind: str  # policy.ReasonKind value, e.g. "compute-intensive"
    reason: str  # e.g. "compute-intensive: aten.mm"
    saved: bool
    group: str = ""  # the reason without what is specific to this node (policy.Reason.summary)


@dataclass
class MethodSummary:
    """One partitioner's result, measured from its forward module's outputs."""

    method: str
    time_s: float | None  # the partitioner call (fusioncut: decide + build_modules)
    num_saved: int = 0  # saved activations (tensors that are not graph inputs)
    num_saved_inputs: int = 0  # saved graph inputs (static-lifetime ones included)
    num_saved_symints: int = 0
    saved_bytes: int = 0  # activations: unique storages, excluding graph inputs
    input_bytes: int = 0  # saved graph inputs that are not static-lifetime (alive anyway)
    traffic_bytes: int = 0  # fusion model: read + (write if not otherwise written), activations
    saved: list[str] = field(default_factory=list)
    bytes_by_op: dict[str, int] = field(default_factory=dict)  # activations per op name
    error: str | None = None  # the partitioner raised: its one-line message


@dataclass
class BudgetStep:
    """One frontier plan, as a budget reaches it."""

    budget: float  # the smallest memory_budget that picks this plan
    saved_bytes: int
    peak_bytes: int
    recompute_seconds: float


@dataclass
class BudgetSummary:
    """Where a memory target's plan sits on the frontier, and what the budget steps gave up."""

    target: str  # e.g. "memory_budget = 0.3"
    device: str  # the device recomputation was priced on
    position: int  # index of the chosen plan among the frontier's plans (0: runtime plan)
    num_plans: int
    chosen: BudgetStep
    runtime: BudgetStep
    least: BudgetStep
    gap: int  # bytes the least plan misses the target by (0: it fits)
    steps: list[BudgetStep] = field(default_factory=list)  # at budgets 1.0, 0.9, ..., 0


@dataclass
class Report:
    """Everything ``explain`` found about one joint graph; ``str()`` is a table."""

    num_nodes: int
    num_forward: int
    num_backward: int
    mode: str
    cut_value: int
    decide_s: float
    emit_s: float | None
    saved: list[SavedValue]
    recomputed: list[Recomputed]
    banned: list[Banned]
    num_input_bans: int
    dropped_preferences: list[str]
    methods: list[MethodSummary]
    budget: BudgetSummary | None = None
    # Not serialized: what the report was made from (plots use them).
    decision: Any = field(default=None, repr=False, compare=False)
    fw_module: Any = field(default=None, repr=False, compare=False)
    bw_module: Any = field(default=None, repr=False, compare=False)

    def method(self, name: str) -> MethodSummary:
        for m in self.methods:
            if m.method == name:
                return m
        raise KeyError(f"Report.method: no method {name!r}; have "
                       + ", ".join(repr(m.method) for m in self.methods))

    @property
    def fusioncut(self) -> MethodSummary:
        return self.methods[0]

    def to_dict(self) -> dict:
        skip = {"decision", "fw_module", "bw_module"}
        out = {}
        for k in self.__dataclass_fields__:
            if k in skip:
                continue
            v = getattr(self, k)
            if k in _ITEM_LISTS:
                out[k] = [asdict(x) for x in v]
            elif k == "budget":
                out[k] = asdict(v) if v is not None else None
            else:
                out[k] = copy.deepcopy(v)
        return out

    def to_json(self, **kwargs: Any) -> str:
        kwargs.setdefault("indent", 1)
        return json.dumps(self.to_dict(), **kwargs)

    def __str__(self) -> str:
        return self.format()

    def format(self, max_rows: int | None = 20) -> str:
        """The report as terminal tables; ``max_rows=None`` lists every row."""
        return format_report(self, max_rows)
