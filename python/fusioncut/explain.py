"""``fusioncut.explain``: why each value was saved, recomputed or banned, and what it costs.

    fn / nn.Module ──capture (aot_function/aot_module, recording partition_fn)──> joint graph
                                                                                    │
      deep copies ──> fusioncut (decide + build_modules) ──> Decision, forward module
                 ├──> torch min_cut_rematerialization_partition ──> forward module
                 └──> torch default_partition ──────────────────> forward module
                                                                                    │
      Report: saved / recomputed / banned (from the Decision and the emitted modules),
              one MethodSummary per partitioner, measured from its forward module's outputs

Every partitioner's saved set is read from the outputs of the forward module it produced
(after the forward outputs), never from its internals, and every method's memory traffic uses
the same fusion model (``cost.materialized``): a saved value costs one read in the backward,
plus one write in the forward if the forward would not otherwise write it. Static-lifetime
inputs (parameters) stay alive anyway and cost nothing; values sharing a storage (views) count
once.
"""

from __future__ import annotations

import copy
import json
import re
import time
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import torch
import torch.fx as fx

__all__ = [
    "Banned",
    "Captured",
    "MethodSummary",
    "Recomputed",
    "Report",
    "SavedValue",
    "capture",
    "decision_summary",
    "explain",
    "explain_joint",
    "format_bytes",
    "format_partition_error",
    "format_totals",
    "report_from_decision",
]

_ITEM_LISTS = ("saved", "recomputed", "banned", "methods")

METHODS = ("fusioncut", "torch min-cut", "default_partition")
"""Method names in ``Report.methods`` order: fusioncut first, then the comparisons."""


# --- report data ------------------------------------------------------------------------------


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
            out[k] = [asdict(x) for x in v] if k in _ITEM_LISTS else copy.deepcopy(v)
        return out

    def to_json(self, **kwargs: Any) -> str:
        kwargs.setdefault("indent", 1)
        return json.dumps(self.to_dict(), **kwargs)

    def __str__(self) -> str:
        return self.format()

    def format(self, max_rows: int | None = 20) -> str:
        """The report as terminal tables; ``max_rows=None`` lists every row."""
        return _format_report(self, max_rows)


# --- capture ----------------------------------------------------------------------------------


@dataclass
class Captured:
    """A joint graph as AOTAutograd hands it to a partitioner (a private deep copy)."""

    joint_module: fx.GraphModule
    joint_inputs: Any
    num_fwd_outputs: int
    static_lifetime_input_indices: list[int] | None


def capture(fn_or_module: Any, *example_inputs: Any) -> Captured:
    """Trace ``fn_or_module(*example_inputs)`` with AOTAutograd and return its joint graph.

    An ``nn.Module`` is traced with ``aot_module`` and its parameters and buffers are marked
    static-lifetime inputs (as ``torch.compile`` does): they stay alive between forward and
    backward whatever is saved. A function is traced with ``aot_function``; some input must
    require grad.
    """
    from functorch.compile import aot_function, aot_module, default_partition, nop

    captured: list[Captured] = []

    def record(joint_module, joint_inputs, *, num_fwd_outputs, **kwargs):
        static = kwargs.get("static_lifetime_input_indices")
        captured.append(Captured(copy.deepcopy(joint_module), joint_inputs, num_fwd_outputs,
                                 list(static) if static is not None else None))
        return default_partition(joint_module, joint_inputs, num_fwd_outputs=num_fwd_outputs,
                                 static_lifetime_input_indices=static)

    is_module = isinstance(fn_or_module, torch.nn.Module)
    if is_module:
        compiled = aot_module(fn_or_module, fw_compiler=nop, bw_compiler=nop,
                              partition_fn=record)
    elif callable(fn_or_module):
        compiled = aot_function(fn_or_module, fw_compiler=nop, bw_compiler=nop,
                                partition_fn=record)
    else:
        raise TypeError(f"explain: fn_or_module must be an nn.Module or a callable, got "
                        f"{type(fn_or_module).__name__}")
    compiled(*example_inputs)
    if not captured:
        raise ValueError("explain: AOTAutograd produced no joint graph: no input or parameter "
                         "requires grad, or no output depends on one")
    cap = captured[0]
    if is_module and not cap.static_lifetime_input_indices:
        primals = [n for n in cap.joint_module.graph.find_nodes(op="placeholder")
                   if n.name.startswith("primals_")]
        user = sum(isinstance(x, torch.Tensor) for x in
                   torch.utils._pytree.tree_leaves(list(example_inputs)))
        cap.static_lifetime_input_indices = list(range(max(0, len(primals) - user)))
    return cap


# --- explain ----------------------------------------------------------------------------------


def explain(fn_or_module: Any, *example_inputs: Any, options: Any = None,
            compare: bool = True) -> Report:
    """Trace, partition with fusioncut (and, if ``compare``, with torch's min-cut partitioner
    and ``default_partition``) and explain the result. See ``explain_joint``."""
    cap = capture(fn_or_module, *example_inputs)
    return explain_joint(cap.joint_module, num_fwd_outputs=cap.num_fwd_outputs,
                         joint_inputs=cap.joint_inputs,
                         static_lifetime_input_indices=cap.static_lifetime_input_indices,
                         options=options, compare=compare)


def explain_joint(joint_module: fx.GraphModule, *, num_fwd_outputs: int,
                  joint_inputs: Any = None,
                  static_lifetime_input_indices: list[int] | None = None,
                  options: Any = None, compare: bool = True) -> Report:
    """Explain fusioncut's partition of a joint graph in hand. ``joint_module`` is not
    modified (every partitioner runs on its own deep copy). Raises ``PartitionError`` when no
    valid partition exists (``format_partition_error`` groups its path by constraint)."""
    from fusioncut.emit import build_modules
    from fusioncut.options import Options
    from fusioncut.partitioner import decide

    if options is None:
        options = Options()
    _check_supported(joint_module)
    jm = copy.deepcopy(joint_module)
    t0 = time.perf_counter()
    decision = decide(jm, num_fwd_outputs=num_fwd_outputs,
                      static_lifetime_input_indices=static_lifetime_input_indices,
                      options=options)
    t1 = time.perf_counter()
    fw, bw = build_modules(jm, decision.saved_values, decision.saved_sym_nodes,
                           num_fwd_outputs=num_fwd_outputs,
                           static_lifetime_input_indices=static_lifetime_input_indices)
    t2 = time.perf_counter()
    from fusioncut._log import log_decision

    log_decision(decision, decide_s=t1 - t0, emit_s=t2 - t1)
    report = report_from_decision(decision, fw, bw, decide_s=t1 - t0, emit_s=t2 - t1,
                                  options=options,
                                  static_lifetime_input_indices=static_lifetime_input_indices)
    if compare:
        from fusioncut import _torch_compat

        for name, fn in (("torch min-cut", _torch_compat.min_cut_rematerialization_partition()),
                         ("default_partition", _torch_compat.default_partition())):
            report.methods.append(_run_method(
                name, fn, joint_module, joint_inputs, num_fwd_outputs,
                static_lifetime_input_indices, decision.graph))
    return report


def _check_supported(joint_module: fx.GraphModule) -> None:
    """A graph ``partition`` hands to torch's partitioner has no fusioncut decision to
    explain: say so instead of explaining a decision that would never be used."""
    import fusioncut.graph as graph_mod

    check = getattr(graph_mod, "unsupported_construct", None)
    reason = check(joint_module) if check is not None else None
    if reason is not None:
        raise ValueError(f"explain: fusioncut.partition falls back to PyTorch's partitioner "
                         f"for this graph ({reason}); there is no fusioncut decision to "
                         f"explain")


def _run_method(name, fn, joint_module, joint_inputs, num_fwd_outputs, static, graph):
    jm = copy.deepcopy(joint_module)  # torch's partitioners mutate the joint graph
    t0 = time.perf_counter()
    try:
        fw, _ = fn(jm, joint_inputs, num_fwd_outputs=num_fwd_outputs,
                   static_lifetime_input_indices=static)
    except Exception as e:  # a peer failing is a result to report, not a reason to stop
        return MethodSummary(method=name, time_s=None,
                             error=f"{type(e).__name__}: {str(e).splitlines()[0][:200]}")
    elapsed = time.perf_counter() - t0
    return _measure(name, fw, num_fwd_outputs, graph, static, elapsed)


def _static_mask(graph, static) -> np.ndarray:
    from fusioncut.graph import Role

    mask = np.zeros(graph.num_nodes, dtype=bool)
    if static:
        primals = np.flatnonzero(graph.role == Role.PRIMAL)
        wanted = set(static)
        for pos, i in enumerate(primals):
            if pos in wanted:
                mask[i] = True
    return mask


def _measure(method, fw_module, num_fwd_outputs, graph, static, time_s) -> MethodSummary:
    """Saved set, bytes and fusion-model traffic of a forward module's saved outputs."""
    from fusioncut.cost import materialized
    from fusioncut.graph import Role

    out = fw_module.graph.find_nodes(op="output")[0]
    saved_nodes = [a for a in torch.utils._pytree.tree_leaves(list(out.args))
                   if isinstance(a, fx.Node)][num_fwd_outputs:]
    written = materialized(graph)
    static_mask = _static_mask(graph, static)
    by_name = {nd.name: i for i, nd in enumerate(graph.nodes)}
    summary = MethodSummary(method=method, time_s=time_s)
    seen: set = set()
    for nd in saved_nodes:
        val = nd.meta.get("val")
        summary.saved.append(nd.name)
        if not isinstance(val, torch.Tensor):
            summary.num_saved_symints += int(isinstance(val, (int, torch.SymInt)))
            continue
        i = by_name.get(nd.name)
        if i is None:  # a node the partitioner made (e.g. after CSE): measure it alone
            key, nbytes, is_input, is_static, factor = ("new", nd.name), _nbytes(val), False, \
                False, 1
            op = _target_name(nd)
        else:
            b = int(graph.base[i])
            key = b
            nbytes = int(graph.nbytes[b])
            is_input = graph.role[b] <= Role.CONSTANT
            is_static = bool(static_mask[b])
            factor = 1 if written[b] else 2
            op = _op(graph, b)
        if is_input or is_static:
            summary.num_saved_inputs += 1
        else:
            summary.num_saved += 1
        if key in seen or is_static:
            continue
        seen.add(key)
        if is_input:
            summary.input_bytes += nbytes
            continue
        summary.saved_bytes += nbytes
        summary.traffic_bytes += nbytes * factor
        summary.bytes_by_op[op] = summary.bytes_by_op.get(op, 0) + nbytes
    return summary


def _nbytes(val: torch.Tensor) -> int:
    from fusioncut.graph import size_hint

    return size_hint(val.numel(), 0) * val.dtype.itemsize


def _target_name(node: fx.Node) -> str:
    from fusioncut.ops import op_name

    return op_name(node.target) if node.op == "call_function" else node.op


def _op(graph, i: int) -> str:
    return _target_name(graph.nodes[i])


def _shape(val: Any) -> list:
    if isinstance(val, torch.Tensor):
        return [int(s) if isinstance(s, int) else str(s) for s in val.shape]
    return []


def _adjacency(graph):
    """Users and inputs per node from the edge arrays (independent of JointGraph helpers)."""
    n = graph.num_nodes
    users: list[list[int]] = [[] for _ in range(n)]
    inputs: list[list[int]] = [[] for _ in range(n)]
    for s, d in zip(graph.edge_src.tolist(), graph.edge_dst.tolist()):
        users[s].append(d)
        inputs[d].append(s)
    return users, inputs


def report_from_decision(decision: Any, fw_module: fx.GraphModule, bw_module: fx.GraphModule,
                         *, decide_s: float, emit_s: float | None = None, options: Any = None,
                         static_lifetime_input_indices: list[int] | None = None) -> Report:
    """A ``Report`` (fusioncut only, no comparisons) for a decision and the modules emitted
    from it; what ``partition(..., report=...)`` would hand to its callback."""
    from fusioncut.cost import materialized, node_costs
    from fusioncut.graph import Role
    from fusioncut.options import Options
    from fusioncut.policy import ReasonKind

    if options is None:
        options = Options()
    graph, policy = decision.graph, decision.policy
    n = graph.num_nodes
    users, inputs = _adjacency(graph)
    static_mask = _static_mask(graph, static_lifetime_input_indices)
    costs = node_costs(graph, policy, options, static_input_nodes=static_mask)
    written = materialized(graph)
    saved_set = set(int(i) for i in decision.saved)
    in_bw = {nd.name for nd in bw_module.graph.nodes if nd.op == "call_function"}
    role = graph.role
    names = [nd.name for nd in graph.nodes]

    saved: list[SavedValue] = []
    for i in decision.saved.tolist():
        node = graph.nodes[i]
        val = node.meta.get("val")
        read_by = [names[u] for u in users[i] if names[u] in in_bw]
        ban = policy.ban[i]
        is_tensor = isinstance(val, torch.Tensor)
        if not is_tensor:
            kind, why = "symint", "a size the backward needs (SymInt, host integer)"
        elif static_mask[graph.base[i]]:
            kind, why = "static input", "static-lifetime input: alive anyway, free to save"
        elif role[i] <= Role.CONSTANT or (ban is not None and ban.kind == ReasonKind.INPUT):
            kind, why = "input", "graph input: nothing to recompute it from"
        elif ban is not None:
            kind = "annotation" if ban.kind == ReasonKind.ANNOTATION else "ban"
            why = f"may not be recomputed: {ban}"
        else:
            kind, why = "cut", _cut_why(graph, i, costs, written, inputs, saved_set, names)
        saved.append(SavedValue(
            name=names[i], op=_op(graph, i), shape=_shape(val),
            dtype=str(val.dtype).replace("torch.", "") if is_tensor else None,
            nbytes=int(graph.nbytes[i]) if is_tensor else 0, kind=kind, why=why,
            read_by=read_by))

    recomputed: list[Recomputed] = []
    from fusioncut.ops import OpKind

    view_kinds = (int(OpKind.VIEW), int(OpKind.GETITEM))
    recompute_idx = [i for i in range(n) if role[i] == Role.FORWARD and names[i] in in_bw]
    rset = set(recompute_idx)
    for i in recompute_idx:
        needed: list[str] = []
        stack, seen = [i], {i}
        while stack and len(needed) < 3:
            v = stack.pop()
            for u in users[v]:
                if u in seen or names[u] not in in_bw:
                    continue
                seen.add(u)
                if u in rset:
                    stack.append(u)
                else:
                    needed.append(f"{names[u]} ({_op(graph, u)})")
        recomputed.append(Recomputed(name=names[i], op=_op(graph, i), needed_by=needed[:3],
                                     is_view=int(graph.kind[i]) in view_kinds))

    banned: list[Banned] = []
    num_input_bans = 0
    for i in range(n):
        ban = policy.ban[i]
        if ban is None:
            continue
        if ban.kind == ReasonKind.INPUT:
            num_input_bans += 1
            continue
        banned.append(Banned(name=names[i], op=_op(graph, i), kind=ban.kind.value,
                             reason=str(ban), saved=i in saved_set))

    fc = _measure("fusioncut", fw_module,
                  graph.num_fwd_outputs, graph, static_lifetime_input_indices,
                  decide_s + (emit_s or 0.0))
    return Report(
        num_nodes=n, num_forward=int(np.count_nonzero(role == Role.FORWARD)),
        num_backward=int(np.count_nonzero(role == Role.BACKWARD)), mode=options.mode,
        cut_value=int(decision.cut_value), decide_s=decide_s, emit_s=emit_s, saved=saved,
        recomputed=recomputed, banned=banned, num_input_bans=num_input_bans,
        dropped_preferences=[names[i] for i in decision.dropped_preferences],
        methods=[fc], decision=decision, fw_module=fw_module, bw_module=bw_module)


def _cost_str(cost: int, nbytes: int, is_written: bool) -> str:
    if is_written:
        return f"{format_bytes(nbytes)} read (the forward writes it anyway)"
    return f"{format_bytes(nbytes)} written + read (fused away otherwise)"


def _cut_why(graph, i, costs, written, inputs, saved_set, names) -> str:
    """The cut passes through i: saving i is no dearer than the local alternative of
    recomputing i from its inputs (saving those of them that are not saved already)."""
    from fusioncut.cost import INF

    b = int(graph.base[i])
    own = int(costs[i])
    text = "min cut: " + _cost_str(own, int(graph.nbytes[b]), bool(written[b]))
    alt, parts, unsaveable = 0, [], []
    for j in inputs[i]:
        if j in saved_set or costs[j] == 0:
            continue
        if costs[j] >= INF:
            unsaveable.append(names[j])
            continue
        alt += int(costs[j])
        parts.append(names[j])
    if unsaveable:
        text += f"; recomputing it needs {', '.join(unsaveable[:2])}, which cannot be saved"
    elif parts:
        text += (f"; recomputing it instead means saving {', '.join(parts[:3])}"
                 f"{' ...' if len(parts) > 3 else ''} ({format_bytes(alt)} of traffic)")
    return text


# --- decision summary (for logs and trace artifacts) ------------------------------------------


def decision_summary(decision: Any, **extra: Any) -> dict:
    """A small JSON-able description of a ``Decision`` (no emitted modules needed)."""
    from fusioncut.policy import ReasonKind

    graph, policy = decision.graph, decision.policy
    names = [nd.name for nd in graph.nodes]
    bans: dict[str, int] = {}
    for r in policy.ban:
        if r is not None and r.kind != ReasonKind.INPUT:
            bans[r.kind.value] = bans.get(r.kind.value, 0) + 1
    saved = [{"name": names[i], "op": _op(graph, i), "bytes": int(graph.nbytes[i]),
              "why": str(policy.ban[i]) if policy.ban[i] is not None else "min cut"}
             for i in decision.saved.tolist()]
    out = {"num_nodes": graph.num_nodes, "cut_value": int(decision.cut_value),
           "saved_bytes": int(sum(s["bytes"] for s in saved)), "saved": saved,
           "bans": bans,
           "dropped_preferences": [names[i] for i in decision.dropped_preferences]}
    out.update(extra)
    return out


# --- PartitionError -------------------------------------------------------------------------


def _constraint_of(reason: str) -> str:
    if "node.meta['recompute']" in reason or "annotation:" in reason or "MUST_" in reason \
            or "PREFER_" in reason:
        return "user annotation"
    if reason.startswith("may not be recomputed: "):
        return "ban (" + reason[len("may not be recomputed: "):] + ")"
    if reason.startswith("available in the forward"):
        return "graph input"
    if reason.startswith("must run in the backward") or reason.startswith("needed by"):
        return "backward"
    return "data dependency"


def format_partition_error(err: Any) -> str:
    """``PartitionError``'s offending path, its FX nodes grouped by the constraint that put
    them there: user annotations, bans (with their reason), graph inputs, data dependencies
    and the backward that needs the value."""
    nodes = list(getattr(err, "nodes", []) or [])
    reasons = list(getattr(err, "reasons", []) or [])
    if not nodes:
        return str(err)
    groups: dict[str, list[str]] = {}
    order = ["user annotation"]
    for node, why in zip(nodes, reasons):
        for r in why or ["data dependency"]:
            g = _constraint_of(r)
            if g not in groups:
                groups[g] = []
                if g not in order:
                    order.append(g)
            op = _target_name(node)
            groups[g].append(f"{node.name} ({op}): {r}")
    lines = ["fusioncut: no valid partition. Some value must reach the backward but can "
             "neither be saved nor recomputed.",
             "Path, source first: " + " -> ".join(nd.name for nd in nodes)]
    for g in order:
        if g in groups:
            lines.append(f"  {g}:")
            lines.extend(f"    {item}" for item in groups[g])
    if "user annotation" in groups and any(g.startswith("ban (") for g in groups):
        lines.append("An annotation asks to recompute what a ban forbids: drop or change the "
                     "annotation, or let annotations lift heuristic bans "
                     "(Options(annotations_override_bans=True), the default).")
    return "\n".join(lines)


# --- formatting -------------------------------------------------------------------------------


def format_bytes(n: int | float | None) -> str:
    if n is None:
        return "-"
    n = float(n)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(n) < 1024 or unit == "TiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n} B"


def _table(headers: list[str], rows: list[list[str]], right: set[int] = frozenset()) -> list[str]:
    widths = [len(h) for h in headers]
    for r in rows:
        for k, c in enumerate(r):
            widths[k] = max(widths[k], len(c))

    def line(cells):
        out = []
        for k, c in enumerate(cells):
            out.append(c.rjust(widths[k]) if k in right else c.ljust(widths[k]))
        return "  " + "  ".join(out).rstrip()

    return [line(headers), "  " + "  ".join("-" * w for w in widths)] + [line(r) for r in rows]


def _reason_group(reason: str) -> str:
    """``materialized in backward: by aten.mm (mm_12)`` -> ``... by aten.mm``: one row per
    reason and op, not per node."""
    return re.sub(r" \([^()]*\)$", "", reason)


def _limit(rows: list, max_rows: int | None) -> tuple[list, int]:
    if max_rows is None or len(rows) <= max_rows:
        return rows, 0
    return rows[:max_rows], len(rows) - max_rows


def _fmt_time(s: float | None) -> str:
    return "-" if s is None else (f"{s * 1000:.1f} ms" if s < 1 else f"{s:.2f} s")


def _format_report(r: Report, max_rows: int | None) -> str:
    fc = r.fusioncut
    out = [f"fusioncut.explain: {r.num_nodes} nodes ({r.num_forward} forward, "
           f"{r.num_backward} backward), mode={r.mode}, decided in {_fmt_time(r.decide_s)}"
           + (f", emitted in {_fmt_time(r.emit_s)}" if r.emit_s is not None else ""), ""]

    held = [s for s in r.saved if s.kind in ("input", "static input")]
    acts = [s for s in r.saved if s.kind not in ("input", "static input")]
    out.append(f"Saved for backward: {len(acts)} values, {format_bytes(fc.saved_bytes)} "
               f"(+ {len(held)} graph inputs held anyway)")
    rows = sorted(acts, key=lambda s: (-s.nbytes, s.name))
    shown, more = _limit(rows, max_rows)
    if rows:
        out += _table(["node", "op", "shape", "dtype", "bytes", "why"],
                      [[s.name, s.op, "x".join(map(str, s.shape)) or "-", s.dtype or "-",
                        format_bytes(s.nbytes), s.why] for s in shown], right={4})
    if more:
        out.append(f"  ... {more} more (smallest)")
    out.append("")

    real = [x for x in r.recomputed if not x.is_view]
    views = len(r.recomputed) - len(real)
    out.append(f"Recomputed in the backward: {len(real)} ops"
               + (f" (+ {views} views/getitems)" if views else ""))
    if real:
        shown, more = _limit(real, max_rows)
        out += _table(["node", "op", "needed by (backward)"],
                      [[x.name, x.op, ", ".join(x.needed_by) or "-"] for x in shown])
        if more:
            out.append(f"  ... {more} more")
    out.append("")

    counts: dict[str, int] = {}
    examples: dict[str, list[str]] = {}
    for b in r.banned:
        key = _reason_group(b.reason)
        counts[key] = counts.get(key, 0) + 1
        examples.setdefault(key, []).append(b.name)
    out.append(f"Banned from recomputation: {len(r.banned)} forward nodes "
               f"(+ {r.num_input_bans} graph inputs)")
    if counts:
        rows2 = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        shown, more = _limit(rows2, max_rows)
        out += _table(["reason", "nodes", "e.g."],
                      [[k, str(v), ", ".join(examples[k][:3]) + (" ..." if v > 3 else "")]
                       for k, v in shown], right={1})
        if more:
            out.append(f"  ... {more} more reasons")
    if r.dropped_preferences:
        out.append("Dropped PREFER_* annotations (they made every cut infinite): "
                   + ", ".join(r.dropped_preferences))
    out.append("")

    out.append(format_totals(r))
    return "\n".join(line.rstrip() for line in out)


def format_totals(r: Report) -> str:
    """The side-by-side totals table (every method, same fusion traffic model)."""
    fc = r.fusioncut
    out = ["Totals (traffic: each saved activation read once by the backward, plus written "
           "once by the forward if it would otherwise stay fused)"]
    base = fc.saved_bytes or None
    rows3 = []
    for m in r.methods:
        if m.error:
            rows3.append([m.method, "-", "-", "-", "-", "-", m.error])
            continue
        rel = (f"{m.saved_bytes / base:.2f}x" if base else "-") if m is not fc else "1.00x"
        rows3.append([m.method, _fmt_time(m.time_s), str(m.num_saved),
                      format_bytes(m.saved_bytes), rel, format_bytes(m.traffic_bytes), ""])
    out += _table(["method", "partition time", "saved", "saved bytes", "vs fusioncut",
                   "traffic", ""], rows3, right={1, 2, 3, 4, 5})
    return "\n".join(line.rstrip() for line in out)


class _CallableModule(__import__("types").ModuleType):
    """``fusioncut.explain`` names both this module and its function: importing the submodule
    rebinds the package attribute to the module, so the module forwards calls (as
    ``fusioncut.partition`` does)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Report:
        return explain(*args, **kwargs)


__import__("sys").modules[__name__].__class__ = _CallableModule
