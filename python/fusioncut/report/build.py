"""A ``Report`` from a ``Decision`` and the modules emitted from it, and per-method totals.

Every reason is evaluated under the options the decision was made with:

    byte model (no device, no budget)  saving costs bytes moved; recomputing what the mode
                                       allows is free ("fused"), the rest is banned
    Options.device                     recomputing costs seconds on the device ("priced");
                                       bans stand
    a memory target                    the bans ``policy.BUDGET_LIFTS`` names become prices:
                                       they are listed as ``lifted``, never as banned

Every partitioner's saved set is read from the outputs of the forward module it produced
(after the forward outputs), never from its internals, and every method's memory traffic is
priced by the same ``CostModel`` (``cost.py``): a saved value costs its bytes times its
``per_byte`` factor (one read in the backward, plus one write in the forward if the forward
would not otherwise write it). Static-lifetime inputs (parameters) stay alive anyway and cost
nothing; values sharing a storage (views) count once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
import torch.fx as fx

from fusioncut import _torch_compat
from fusioncut._solver import INF
from fusioncut.cost import CostModel, materialized
from fusioncut.decision import Decision, no_offload_reason
from fusioncut.graph import JointGraph, Role, Value, size_hint
from fusioncut.offload import Request, exposed_seconds
from fusioncut.ops import OpKind
from fusioncut.options import Options
from fusioncut.policy import BUDGET_LIFTS, ReasonKind
from fusioncut.recompute import recompute_model
from fusioncut.report.model import (
    Banned,
    BudgetStep,
    BudgetSummary,
    Fate,
    GraphSummary,
    MethodSummary,
    Report,
    ValueFate,
)
from fusioncut.report.text import format_bytes, format_seconds, node_op

__all__ = ["adjacency", "describe_options", "measure", "report_from_decision", "shape_of"]

_VIEW_KINDS = (int(OpKind.VIEW), int(OpKind.GETITEM))


def shape_of(val: Any) -> list:
    """A tensor's shape as a list (a symbolic size as its string); ``[]`` otherwise."""
    if isinstance(val, torch.Tensor):
        return [int(s) if isinstance(s, int) else str(s) for s in val.shape]
    return []


def adjacency(graph: JointGraph) -> tuple[list[list[int]], list[list[int]]]:
    """Users and inputs per node, as Python lists (for per-node walks)."""
    n = graph.num_nodes
    users: list[list[int]] = [[] for _ in range(n)]
    inputs: list[list[int]] = [[] for _ in range(n)]
    for s, d in zip(graph.edge_src.tolist(), graph.edge_dst.tolist()):
        users[s].append(d)
        inputs[d].append(s)
    return users, inputs


def describe_options(options: Options) -> str:
    """The options a decision depends on, e.g. ``mode=runtime, device=cpu, memory_budget =
    0.5`` (``byte model`` when neither a device nor a target is set)."""
    parts = [f"mode={options.mode}"]
    if options.device is not None:
        parts.append(f"device={options.device.name}")
    for name in ("memory_budget", "memory_budget_bytes", "peak_memory_bytes"):
        value = getattr(options, name)
        if value is not None:
            parts.append(f"{name}={value:g}" if isinstance(value, float) else f"{name}={value}")
    if options.budgeted and options.device is None:
        parts.append(f"priced on {options.budget_device.name}")
    if options.device is None and not options.budgeted:
        parts.append("byte model")
    return ", ".join(parts)


def measure(method: str, fw_module: fx.GraphModule, graph: JointGraph, costs: CostModel,
            static_inputs: np.ndarray, time_s: float | None) -> MethodSummary:
    """Saved set, bytes and traffic of a forward module's saved outputs, priced by ``costs``
    (the cost model of ``graph``, whichever partitioner produced ``fw_module``);
    ``static_inputs``: bool (n,) static-lifetime inputs (alive anyway, never counted)."""
    summary = MethodSummary(method=method, time_s=time_s)
    by_name = {nd.name: i for i, nd in enumerate(graph.nodes)}
    seen: set = set()
    for nd in saved_outputs(fw_module, graph.num_fwd_outputs):
        val = nd.meta.get("val")
        summary.saved.append(nd.name)
        if not isinstance(val, torch.Tensor):
            summary.num_saved_symints += int(isinstance(val, (int, torch.SymInt)))
            continue
        i = by_name.get(nd.name)
        if i is None:  # a node the partitioner made (e.g. after CSE): measure it alone
            key, nbytes, is_input, is_static = ("new", nd.name), _nbytes(val), False, False
            factor, op = 1, node_op(nd)
        else:
            b = int(graph.base[i])
            key = b
            nbytes = int(graph.nbytes[b])
            is_input = graph.role[b] <= Role.CONSTANT
            is_static = bool(static_inputs[b])
            factor, op = int(costs.per_byte[b]), graph.op_name(b)
        if is_input or is_static:
            summary.num_saved_inputs += 1
        else:
            summary.num_saved += 1
        if key in seen:
            continue
        seen.add(key)
        if is_static:
            summary.static_bytes += nbytes
        elif is_input:
            summary.input_bytes += nbytes
        else:
            summary.saved_bytes += nbytes
            summary.traffic_bytes += nbytes * factor
            summary.bytes_by_op[op] = summary.bytes_by_op.get(op, 0) + nbytes
    return summary


def saved_outputs(fw_module: fx.GraphModule, num_fwd_outputs: int) -> list[fx.Node]:
    """The nodes a forward module hands to the backward (its outputs after the forward's)."""
    out = fw_module.graph.find_nodes(op="output")[0]
    return [a for a in _torch_compat.tree_leaves(list(out.args))
            if isinstance(a, fx.Node)][num_fwd_outputs:]


def _nbytes(val: torch.Tensor) -> int:
    return size_hint(val.numel(), 0) * val.dtype.itemsize


@dataclass
class _Pricing:
    """Recompute prices the decision used: a device, per node seconds and byte equivalents,
    and the memory target's plan (None without one)."""

    device: Any
    seconds: np.ndarray
    byte_eq: np.ndarray
    target: str | None


def _pricing(decision: Decision, options: Options) -> _Pricing | None:
    if decision.budget is not None:
        device = decision.budget.frontier.device
    elif options.device is not None:
        device = options.device
    else:
        return None
    model = recompute_model(decision.graph, device)
    return _Pricing(device, model.seconds(decision.graph), model.byte_equivalents(decision.graph),
                    decision.budget.target if decision.budget is not None else None)


class _Facts:
    """What every reason reads: the graph, its policy and costs, the emitted backward."""

    def __init__(self, decision: Decision, bw_module: fx.GraphModule, options: Options):
        self.d = decision
        self.graph = decision.graph
        self.policy = decision.policy
        self.options = options
        self.users, self.inputs = adjacency(self.graph)
        self.cost = decision.costs.costs(self.graph.nbytes)
        self.written = materialized(self.graph)
        self.saved = set(decision.saved.tolist())
        self.names = [nd.name for nd in self.graph.nodes]
        self.in_bw = {nd.name for nd in bw_module.graph.nodes if nd.op == "call_function"}
        self.pricing = _pricing(decision, options)
        self.dropped = set(decision.dropped_preferences)
        self.offloaded = set(decision.offloaded.tolist())
        self.waits = decision.offload_waits
        self.at_peak = set() if decision.budget is None else set(
            decision.budget.point.peak_offloaded.tolist())

    def ban(self, i: int):
        """The ban that holds under the options: a memory target lifts ``BUDGET_LIFTS``, and a
        dropped PREFER_SAVE no longer binds."""
        ban = self.policy.ban[i]
        if ban is None or i in self.dropped:
            return None
        if self.pricing is not None and self.pricing.target is not None \
                and ban.kind in BUDGET_LIFTS:
            return None
        return ban

    def lifted(self, i: int) -> bool:
        ban = self.policy.ban[i]
        return ban is not None and self.ban(i) is None and i not in self.dropped


def report_from_decision(decision: Decision, fw_module: fx.GraphModule,
                         bw_module: fx.GraphModule, *, decide_s: float,
                         emit_s: float | None = None, options: Options | None = None,
                         static_lifetime_input_indices: list[int] | None = None) -> Report:
    """A ``Report`` (fusioncut only, no comparisons) for a decision and the modules emitted
    from it; what ``partition(..., report=...)`` hands to its callback.
    ``static_lifetime_input_indices`` is accepted for compatibility; the decision knows them."""
    del static_lifetime_input_indices
    if options is None:
        options = Options()
    f = _Facts(decision, bw_module, options)
    graph, role, names = f.graph, f.graph.role, f.names
    values = [_saved_value(f, i) for i in decision.saved.tolist()]
    values += [_recomputed_value(f, i) for i in range(graph.num_nodes)
               if role[i] == Role.FORWARD and names[i] in f.in_bw]
    banned: list[Banned] = []
    lifted: list[Banned] = []
    num_input_bans = 0
    for i, ban in enumerate(f.policy.ban):
        if ban is None:
            continue
        if ban.kind == ReasonKind.INPUT:
            num_input_bans += 1
            continue
        entry = Banned(name=names[i], op=graph.op_name(i), kind=ban.kind.value, reason=str(ban),
                       saved=i in f.saved, group=ban.summary)
        if f.ban(i) is not None:
            banned.append(entry)
        elif f.lifted(i):
            lifted.append(entry)
    fc = measure("fusioncut", fw_module, graph, decision.costs, decision.static_inputs,
                 decide_s + (emit_s or 0.0))
    fc.setting = describe_options(options)
    summary = GraphSummary(
        num_nodes=graph.num_nodes, num_forward=int(np.count_nonzero(role == Role.FORWARD)),
        num_backward=int(np.count_nonzero(role == Role.BACKWARD)),
        cut_value=int(decision.cut_value), decide_s=decide_s, emit_s=emit_s,
        num_input_bans=num_input_bans,
        dropped_preferences=[names[i] for i in decision.dropped_preferences], methods=[fc],
        budget=(budget_summary(decision.budget, no_offload_reason(graph, options))
                if decision.budget is not None else None),
        decision=decision, fw_module=fw_module, bw_module=bw_module)
    return Report(mode=options.mode, setting=fc.setting, values=values, banned=banned,
                  methods=[_copy_summary(fc)], graphs=[summary], lifted=lifted)


def _copy_summary(m: MethodSummary) -> MethodSummary:
    return MethodSummary(**{k: (list(v) if isinstance(v, list) else dict(v)
                                if isinstance(v, dict) else v) for k, v in vars(m).items()})


def _value(f: _Facts, i: int, fate: Fate, kind: str, why: str, users: list[str]) -> ValueFate:
    node = f.graph.nodes[i]
    val = node.meta.get("val")
    is_tensor = isinstance(val, torch.Tensor)
    seconds = float(f.pricing.seconds[i]) if f.pricing is not None else None
    return ValueFate(
        name=node.name, op=f.graph.op_name(i), shape=shape_of(val),
        dtype=str(val.dtype).replace("torch.", "") if is_tensor else None,
        nbytes=int(f.graph.nbytes[i]) if is_tensor else 0, fate=fate.value, kind=kind, why=why,
        users=users, is_view=int(f.graph.kind[i]) in _VIEW_KINDS, recompute_s=seconds)


def _saved_value(f: _Facts, i: int) -> ValueFate:
    graph = f.graph
    value = graph.value[i]
    ban = f.ban(i)
    if value == Value.OBJECT:
        kind, why = "object", "an opaque object the backward needs (saved at no cost)"
    elif value != Value.TENSOR:
        kind, why = "symint", "a size the backward needs (SymInt, host integer)"
    elif f.d.static_inputs[graph.base[i]]:
        kind, why = "static input", "static-lifetime input: alive anyway, free to save"
    elif graph.role[i] <= Role.CONSTANT or (ban is not None and ban.kind == ReasonKind.INPUT):
        kind, why = "input", "graph input: nothing to recompute it from"
    elif ban is not None:
        kind = "annotation" if ban.kind == ReasonKind.ANNOTATION else "ban"
        why = f"may not be recomputed: {ban}"
        if f.pricing is not None and f.pricing.target is not None:
            why += " (under any memory target)"
    else:
        kind, why = "cut", _cut_why(f, i)
    users = [f.names[u] for u in f.users[i] if f.names[u] in f.in_bw]
    if i in f.offloaded:
        request = f.d.offload.requested[i]
        link = f.d.host_link  # the budget plan's, which chose what to offload
        if link is not None:  # the cut chose between keeping, offloading and recomputing
            kind = "annotation" if request is Request.MUST else "cut"
            why = _offload_why(f, i, link, ban)
            if request is not None:
                why += f" ({request.value})"
        else:
            why += "; offloaded to host memory" + (f" ({request.value})" if request else "")
        return _value(f, i, Fate.OFFLOADED, kind, why, users)
    return _value(f, i, Fate.SAVED, kind, why, users)



def _offload_why(f: _Facts, i: int, link, ban) -> str:
    """Why the plan sends ``i`` to host memory rather than keep or recompute it: its transfer
    price against the bytes keeping it holds and what recomputing it costs."""
    nbytes = int(f.graph.nbytes[i])
    exposed = float(exposed_seconds(nbytes, link.device, link.overlap))
    text = (f"offloaded for {f.pricing.target}: its transfers cost the step "
            f"{format_seconds(exposed)} ({format_seconds(nbytes / link.device.host_bandwidth)} "
            f"each way over the host link); keeping it would hold {format_bytes(nbytes)} on "
            f"the device")
    if i in f.at_peak:
        text += (" through the estimated peak (sent on top of the cut's plan by the search "
                 "for a faster plan that fits the target)")
    name = f.names[i]
    if name in f.waits:  # fusioncut paces the side stream's wait for this copy
        at = f.waits[name]
        text += ("; the forward waits for its copy at its end (the compute after it cannot "
                 "cover the link)" if at is None else
                 f"; the forward waits for its copy before {at}, where the link has moved it")
    if ban is not None:
        return text + f"; it may not be recomputed ({ban})"
    seconds = float(f.pricing.seconds[i])
    if seconds > exposed:
        return text + f"; recomputing it would cost {format_seconds(seconds)}, more"
    return text + (f"; recomputing it alone would cost {format_seconds(seconds)}, but would need "
                   f"its inputs in the backward (kept, offloaded or recomputed in turn)")


def _cut_why(f: _Facts, i: int) -> str:
    """The cut passes through i: what saving it moves, what recomputing it would cost, and
    the local alternative of recomputing it from its inputs (saving those not saved yet)."""
    graph, p = f.graph, f.pricing
    b = int(graph.base[i])
    nbytes = format_bytes(int(graph.nbytes[b]))
    moved = (f"{nbytes} read (the forward writes it anyway)" if f.written[b]
             else f"{nbytes} written + read (fused away otherwise)")
    text = (f"kept by the plan for {p.target}: {moved}" if p is not None and p.target
            else f"min cut: {moved}")
    if p is not None and p.seconds[i] > 0:
        text += f"; recomputing it would cost {format_seconds(float(p.seconds[i]))} on " \
                f"{p.device.name}"
        if f.lifted(i):
            text += f" ({f.policy.ban[i]}: priced, not banned, under a memory target)"
    alt, parts, unsaveable = 0, [], []
    for j in f.inputs[i]:
        if j in f.saved or f.cost[j] == 0:
            continue
        if f.cost[j] >= INF:
            unsaveable.append(f.names[j])
            continue
        alt += int(f.cost[j])
        parts.append(f.names[j])
    if unsaveable:
        text += f"; recomputing it needs {', '.join(unsaveable[:2])}, which cannot be saved"
    elif parts:
        text += (f"; recomputing it instead means saving {', '.join(parts[:3])}"
                 f"{' ...' if len(parts) > 3 else ''} ({format_bytes(alt)} of traffic)")
    return text


def _recomputed_value(f: _Facts, i: int) -> ValueFate:
    graph, p = f.graph, f.pricing
    needed: list[str] = []
    stack, seen = [i], {i}
    while stack and len(needed) < 3:
        v = stack.pop()
        for u in f.users[v]:
            if u in seen or f.names[u] not in f.in_bw:
                continue
            seen.add(u)
            if graph.role[u] == Role.FORWARD:
                stack.append(u)
            else:
                needed.append(f"{f.names[u]} ({graph.op_name(u)})")
    save = f"saving it moves {format_bytes(int(f.cost[i]))}" if f.cost[i] < INF \
        else "it cannot be saved"
    recompute = f.policy.recompute[i]
    if int(graph.kind[i]) in _VIEW_KINDS:
        source = f.names[f.inputs[i][0]] if f.inputs[i] else "its input"
        kind, why = "view", f"free: a view of {source}"
    elif recompute is not None and f.d.network.sink_in[i]:
        kind, why = "annotation", f"must be recomputed: {recompute}"
    elif p is None:
        kind = "fused"
        why = f"free in the byte model: fused into the backward kernel that reads it ({save})"
    else:
        kind = "priced"
        cost = format_seconds(float(p.seconds[i]))
        if p.target is not None:
            held = int(graph.nbytes[graph.base[i]])
            why = f"recomputed for {p.target}: costs {cost} on {p.device.name}" + (
                f"; keeping it would hold {format_bytes(held)}" if held else "")
            if f.lifted(i):
                why += f" ({f.policy.ban[i]}: a memory target prices it instead of banning it)"
        else:
            cheaper = "cheaper than" if p.byte_eq[i] < f.cost[i] else "no dearer than"
            why = (f"costs {cost} on {p.device.name}, {cheaper} saving it (moving "
                   f"{format_bytes(int(f.cost[i]))} takes "
                   f"{format_seconds(float(f.cost[i]) / p.device.bandwidth)})"
                   if f.cost[i] < INF else f"costs {cost} on {p.device.name}; {save}")
    return _value(f, i, Fate.RECOMPUTED, kind, why, needed)


def _step(budget: float, p) -> BudgetStep:
    return BudgetStep(budget=budget, saved_bytes=int(p.saved_bytes), peak_bytes=int(p.peak.peak),
                      recompute_seconds=float(p.recompute_seconds),
                      offloaded_bytes=int(p.offloaded_bytes),
                      offload_seconds=float(p.offload_seconds),
                      link_excess_seconds=float(p.link_excess_seconds))


def budget_summary(choice, no_offload: str | None = None) -> BudgetSummary:
    """Where ``choice`` (a ``budget.BudgetChoice``) sits on its frontier, and the plans the
    budgets 1.0, 0.9, ..., 0 pick: what each step down gave up. ``no_offload``: why
    ``offload="auto"`` offloaded nothing (``decision.no_offload_reason``)."""
    front = choice.frontier
    points = front.points
    position = next((k for k, p in enumerate(points) if p is choice.point),
                    next((k for k, p in enumerate(points)
                          if p.key == choice.point.key), -1))
    steps = []
    for k in range(10, -1, -1):
        b = k / 10
        p = front.for_budget(b)
        if steps and steps[-1].saved_bytes == p.saved_bytes:
            steps[-1] = _step(b, p)  # the same plan: report the lowest budget that picks it
        else:
            steps.append(_step(b, p))
    return BudgetSummary(target=choice.target, device=front.device.name, position=position,
                         num_plans=len(points), chosen=_step(float("nan"), choice.point),
                         runtime=_step(1.0, front.runtime), least=_step(0.0, front.least),
                         gap=int(choice.gap), steps=steps, margin=float(choice.margin),
                         expected_peak_bytes=int(choice.expected_peak[1]),
                         within_margin=bool(choice.within_margin), no_offload=no_offload)
