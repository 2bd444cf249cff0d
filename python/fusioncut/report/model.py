"""The data of a ``Report``: what happens to each value the backward needs, and why.

    Report
      values       one ValueFate per forward value the backward needs: its fate (saved,
                   recomputed), the rule or price that decided it (kind, why), its readers,
                   and what PyTorch's partitioner did with it at the same setting
      banned       forward nodes no plan may recompute under the options used (the policy's
                   reason); lifted: bans a memory target turned into prices
      differences  per value, where fusioncut and PyTorch's min-cut partitioner disagree
      methods      one MethodSummary per partitioner, totals over every joint graph
      graphs       one GraphSummary per joint graph (sizes, timings, budget, the modules)

A fate is a ``Fate`` member: ``saved``, ``offloaded`` (saved, and kept in host memory between
the passes) or ``recomputed``; a new fate is one more member, with its own ``kind`` and
``why``, in the same list. Plain dataclasses: ``Report.to_dict`` /
``to_json`` serialise them, ``str(report)`` formats them (``report.text``).
"""

from __future__ import annotations

import enum
import json
import math
from dataclasses import asdict, dataclass, field
from typing import Any

from fusioncut._validate import check_number
from fusioncut.report.text import format_report

METHODS = ("fusioncut", "torch min-cut", "default_partition")
"""Method names in ``Report.methods`` order: fusioncut first, then the comparisons."""


class Fate(str, enum.Enum):
    """What the partition does with a forward value the backward needs."""

    SAVED = "saved"  # the forward hands it to the backward
    OFFLOADED = "offloaded"  # saved, and kept in host memory in between
    RECOMPUTED = "recomputed"  # the backward computes it again


HANDED_ON = (Fate.SAVED.value, Fate.OFFLOADED.value)
"""The fates of values the forward hands to the backward (``Report.saved``)."""


@dataclass
class ValueFate:
    """One forward value the backward needs, what happens to it, and why.

    ``kind`` names what decided it. Saved: ``cut`` (the cheapest cut passes through it),
    ``ban`` / ``annotation`` (it may not be recomputed), ``input`` / ``static input`` (alive
    anyway), ``symint``, ``object`` (an opaque object). Recomputed: ``view`` (free),
    ``fused`` (free in the byte model: the mode lets the backward fuse it), ``priced`` (its
    recomputation has a price on a device, lower than saving it, or a memory target chose
    it), ``annotation`` (MUST_RECOMPUTE / PREFER_RECOMPUTE)."""

    name: str
    op: str
    shape: list  # ints; a symbolic size is its string
    dtype: str | None  # None for a SymInt or object
    nbytes: int  # from the size hints; 0 for a SymInt or object
    fate: str  # a Fate value: saved, offloaded (saved in host memory), recomputed
    kind: str
    why: str  # true under the options the decision was made with
    users: list[str]  # saved: backward nodes that read it; recomputed: first backward nodes fed
    graph: int = 0  # index into Report.graphs
    is_view: bool = False  # views and getitems cost nothing to recompute
    recompute_s: float | None = None  # estimated seconds to recompute it (None: byte model)
    torch: str | None = None  # PyTorch's min-cut at the same setting: saved / recomputed /
    #                          not used; None when not compared

    @property
    def read_by(self) -> list[str]:
        """Backward nodes that read a saved value."""
        return self.users

    @property
    def needed_by(self) -> list[str]:
        """The first backward nodes a recomputed value feeds."""
        return self.users


SavedValue = ValueFate
Recomputed = ValueFate


@dataclass
class Banned:
    """A forward node that may not be recomputed (graph inputs are only counted)."""

    name: str
    op: str
    kind: str  # policy.ReasonKind value, e.g. "compute-intensive"
    reason: str  # e.g. "compute-intensive: aten.mm"
    saved: bool
    group: str = ""  # the reason without what is specific to this node (policy.Reason.summary)
    graph: int = 0


@dataclass
class Difference:
    """A value fusioncut and PyTorch's min-cut partitioner treat differently."""

    name: str
    op: str
    nbytes: int
    fusioncut: str  # "saved" | "recomputed" | "not used"
    torch: str
    text: str  # e.g. "PyTorch saves tanh_3 (2.0 MiB); fusioncut recomputes it from add_7"
    graph: int = 0


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
    static_bytes: int = 0  # saved parameters and other static-lifetime inputs (free)
    traffic_bytes: int = 0  # fusion model: read + (write if not otherwise written), activations
    saved: list[str] = field(default_factory=list)
    bytes_by_op: dict[str, int] = field(default_factory=dict)  # activations per op name
    error: str | None = None  # the partitioner raised: its one-line message
    setting: str = ""  # the configuration it ran under, e.g. "activation_memory_budget=0.5"


@dataclass
class BudgetStep:
    """One frontier plan, as a budget reaches it."""

    budget: float  # the smallest memory_budget that picks this plan
    saved_bytes: int  # kept on the device
    peak_bytes: int
    recompute_seconds: float
    offloaded_bytes: int = 0  # sent to host memory and back (Options(offload="auto"))
    offload_seconds: float = 0.0  # the step's wait for those transfers (link excess included)
    link_excess_seconds: float = 0.0  # transfer time the link cannot hide (over-subscribed)


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
    margin: float = 0.0  # the fraction a measured peak may exceed the estimate (peak_margin)
    expected_peak_bytes: int = 0  # the most the chosen plan's measured peak should reach
    within_margin: bool = False  # a peak target met by the estimate, not by the raised one
    no_offload: str | None = None  # why offload='auto' offloaded nothing (no host link)


@dataclass
class GraphSummary:
    """One joint graph of the explained call."""

    num_nodes: int
    num_forward: int
    num_backward: int
    cut_value: int
    decide_s: float
    emit_s: float | None
    num_input_bans: int
    dropped_preferences: list[str]
    methods: list[MethodSummary]  # this graph's totals, fusioncut first
    budget: BudgetSummary | None = None
    # Not serialized: what the report was made from (plots use them).
    decision: Any = field(default=None, repr=False, compare=False)
    fw_module: Any = field(default=None, repr=False, compare=False)
    bw_module: Any = field(default=None, repr=False, compare=False)

    def to_dict(self) -> dict:
        return {k: (_plain(getattr(self, k))) for k in self.__dataclass_fields__
                if k not in _NOT_SERIALIZED}


_NOT_SERIALIZED = ("decision", "fw_module", "bw_module")


def _plain(v: Any) -> Any:
    if isinstance(v, list):
        return [_plain(x) for x in v]
    if hasattr(v, "__dataclass_fields__"):
        return asdict(v)
    return v


@dataclass
class Report:
    """Everything ``explain`` found about a call's joint graphs; ``str()`` is a table."""

    mode: str
    setting: str  # the options the decision was made with, e.g. "mode=runtime, device=cpu"
    values: list[ValueFate]
    banned: list[Banned]
    methods: list[MethodSummary]  # totals over every graph, fusioncut first
    graphs: list[GraphSummary]
    lifted: list[Banned] = field(default_factory=list)  # bans a memory target priced instead
    differences: list[Difference] = field(default_factory=list)  # against torch min-cut
    via: str = ""  # how the call was traced ("dynamo", "aot"; "" for a joint graph in hand)
    graph_breaks: list[str] = field(default_factory=list)
    fallbacks: list[str] = field(default_factory=list)  # graphs handed to PyTorch, and why

    @property
    def saved(self) -> list[ValueFate]:
        """Values the forward hands to the backward, offloaded ones included."""
        return [v for v in self.values if v.fate in HANDED_ON]

    @property
    def offloaded(self) -> list[ValueFate]:
        """Saved values kept in host memory between forward and backward."""
        return [v for v in self.values if v.fate == Fate.OFFLOADED]

    @property
    def recomputed(self) -> list[ValueFate]:
        return [v for v in self.values if v.fate == Fate.RECOMPUTED]

    def method(self, name: str) -> MethodSummary:
        for m in self.methods:
            if m.method == name:
                return m
        raise KeyError(f"Report.method: no method {name!r}; have "
                       + ", ".join(repr(m.method) for m in self.methods))

    @property
    def fusioncut(self) -> MethodSummary:
        return self.methods[0]

    # One joint graph's fields, summed or taken from the only graph.
    num_nodes = property(lambda self: sum(g.num_nodes for g in self.graphs))
    num_forward = property(lambda self: sum(g.num_forward for g in self.graphs))
    num_backward = property(lambda self: sum(g.num_backward for g in self.graphs))
    cut_value = property(lambda self: sum(g.cut_value for g in self.graphs))
    decide_s = property(lambda self: sum(g.decide_s for g in self.graphs))
    emit_s = property(lambda self: None if any(g.emit_s is None for g in self.graphs)
                      else sum(g.emit_s for g in self.graphs))
    num_input_bans = property(lambda self: sum(g.num_input_bans for g in self.graphs))
    dropped_preferences = property(
        lambda self: [name for g in self.graphs for name in g.dropped_preferences])

    def graph(self, index: int | None = None) -> GraphSummary:
        """Graph ``index``; None: the only one, or the one saving the most activation
        bytes."""
        if index is None:
            return max(self.graphs, key=lambda g: g.methods[0].saved_bytes) \
                if self.graphs else None
        if not isinstance(index, int) or not 0 <= index < len(self.graphs):
            raise ValueError(f"Report.graph: index = {index!r} is out of range "
                             f"[0, {len(self.graphs)})")
        return self.graphs[index]

    decision = property(lambda self: self.graph().decision)
    fw_module = property(lambda self: self.graph().fw_module)
    bw_module = property(lambda self: self.graph().bw_module)
    budget = property(lambda self: self.graph().budget if self.graphs else None)

    def to_dict(self) -> dict:
        out: dict[str, Any] = {}
        for k in self.__dataclass_fields__:
            v = getattr(self, k)
            out[k] = [g.to_dict() for g in v] if k == "graphs" else _plain(v)
        return out

    def to_json(self, **kwargs: Any) -> str:
        kwargs.setdefault("indent", 1)
        return json.dumps(self.to_dict(), **kwargs)

    def __str__(self) -> str:
        return self.format()

    def format(self, max_rows: int | None = 20, clip: int | None = 100) -> str:
        """The report as terminal tables; ``max_rows=None`` lists every row, ``clip=None``
        prints every reason whole (else cut at ``clip`` characters; ``values`` and
        ``to_json`` always hold them whole). Rejects ``max_rows`` that is not None or an int
        ``>= 0`` and ``clip`` that is not None or an int ``>= 2`` (``ValueError``)."""
        for name, value, lo in (("max_rows", max_rows, 0), ("clip", clip, 2)):
            if value is not None:
                check_number("Report.format", name, value, lo, math.inf, integer=True,
                             valid=f"None or an integer >= {lo}")
        return format_report(self, max_rows, clip)
