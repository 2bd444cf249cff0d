"""A ``Report`` from a ``Decision`` and the modules emitted from it, and per-method totals.

Every partitioner's saved set is read from the outputs of the forward module it produced
(after the forward outputs), never from its internals, and every method's memory traffic is
priced by the same ``CostModel`` (``cost.py``): a saved value costs its bytes times its
``per_byte`` factor (one read in the backward, plus one write in the forward if the forward
would not otherwise write it). Static-lifetime inputs (parameters) stay alive anyway and cost
nothing; values sharing a storage (views) count once.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
import torch.fx as fx

from fusioncut import _torch_compat
from fusioncut._solver import INF
from fusioncut.cost import CostModel, materialized
from fusioncut.decision import Decision
from fusioncut.graph import JointGraph, Role, size_hint
from fusioncut.ops import OpKind
from fusioncut.options import Options
from fusioncut.policy import ReasonKind
from fusioncut.report.model import (
    Banned,
    BudgetStep,
    BudgetSummary,
    MethodSummary,
    Recomputed,
    Report,
    SavedValue,
)
from fusioncut.report.text import format_bytes, node_op

__all__ = ["measure", "report_from_decision"]


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


def measure(method: str, fw_module: fx.GraphModule, graph: JointGraph, costs: CostModel,
            static_inputs: np.ndarray, time_s: float | None) -> MethodSummary:
    """Saved set, bytes and traffic of a forward module's saved outputs, priced by ``costs``
    (the cost model of ``graph``, whichever partitioner produced ``fw_module``);
    ``static_inputs``: bool (n,) static-lifetime inputs (alive anyway, never counted)."""
    out = fw_module.graph.find_nodes(op="output")[0]
    saved_nodes = [a for a in _torch_compat.tree_leaves(list(out.args))
                   if isinstance(a, fx.Node)][graph.num_fwd_outputs:]
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
    return size_hint(val.numel(), 0) * val.dtype.itemsize


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
    graph, policy, costs = decision.graph, decision.policy, decision.costs
    n = graph.num_nodes
    users, inputs = adjacency(graph)
    cost = costs.costs(graph.nbytes)
    written = materialized(graph)
    saved_set = set(int(i) for i in decision.saved)
    offloaded = set(decision.offloaded.tolist())
    in_bw = {nd.name for nd in bw_module.graph.nodes if nd.op == "call_function"}
    role = graph.role
    names = [nd.name for nd in graph.nodes]
    static = decision.static_inputs

    saved: list[SavedValue] = []
    for i in decision.saved.tolist():
        node = graph.nodes[i]
        val = node.meta.get("val")
        read_by = [names[u] for u in users[i] if names[u] in in_bw]
        ban = policy.ban[i]
        is_tensor = isinstance(val, torch.Tensor)
        if not is_tensor:
            kind, why = "symint", "a size the backward needs (SymInt, host integer)"
        elif static[graph.base[i]]:
            kind, why = "static input", "static-lifetime input: alive anyway, free to save"
        elif role[i] <= Role.CONSTANT or (ban is not None and ban.kind == ReasonKind.INPUT):
            kind, why = "input", "graph input: nothing to recompute it from"
        elif ban is not None:
            kind = "annotation" if ban.kind == ReasonKind.ANNOTATION else "ban"
            why = f"may not be recomputed: {ban}"
        else:
            kind, why = "cut", _cut_why(graph, i, cost, written, inputs, saved_set, names)
        if i in offloaded:
            request = decision.offload.requested[i]
            why += "; offloaded to host memory" + (f" ({request.value})" if request else "")
        saved.append(SavedValue(
            name=names[i], op=graph.op_name(i), shape=shape_of(val),
            dtype=str(val.dtype).replace("torch.", "") if is_tensor else None,
            nbytes=int(graph.nbytes[i]) if is_tensor else 0, kind=kind, why=why,
            read_by=read_by))

    view_kinds = (int(OpKind.VIEW), int(OpKind.GETITEM))
    recompute_idx = [i for i in range(n) if role[i] == Role.FORWARD and names[i] in in_bw]
    rset = set(recompute_idx)
    recomputed: list[Recomputed] = []
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
                    needed.append(f"{names[u]} ({graph.op_name(u)})")
        recomputed.append(Recomputed(name=names[i], op=graph.op_name(i), needed_by=needed[:3],
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
        banned.append(Banned(name=names[i], op=graph.op_name(i), kind=ban.kind.value,
                             reason=str(ban), saved=i in saved_set, group=ban.summary))

    fc = measure("fusioncut", fw_module, graph, costs, static, decide_s + (emit_s or 0.0))
    budget = budget_summary(decision.budget) if decision.budget is not None else None
    return Report(
        num_nodes=n, num_forward=int(np.count_nonzero(role == Role.FORWARD)),
        num_backward=int(np.count_nonzero(role == Role.BACKWARD)), mode=options.mode,
        cut_value=int(decision.cut_value), decide_s=decide_s, emit_s=emit_s, saved=saved,
        recomputed=recomputed, banned=banned, num_input_bans=num_input_bans,
        dropped_preferences=[names[i] for i in decision.dropped_preferences],
        methods=[fc], budget=budget, decision=decision, fw_module=fw_module,
        bw_module=bw_module)


def _step(budget: float, p) -> BudgetStep:
    return BudgetStep(budget=budget, saved_bytes=int(p.saved_bytes), peak_bytes=int(p.peak.peak),
                      recompute_seconds=float(p.recompute_seconds))


def budget_summary(choice) -> BudgetSummary:
    """Where ``choice`` (a ``budget.BudgetChoice``) sits on its frontier, and the plans the
    budgets 1.0, 0.9, ..., 0 pick: what each step down gave up."""
    front = choice.frontier
    points = front.points
    position = next((k for k, p in enumerate(points) if p is choice.point),
                    next((k for k, p in enumerate(points)
                          if np.array_equal(p.saved, choice.point.saved)), -1))
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
                         gap=int(choice.gap), steps=steps)


def _cut_why(graph, i, costs, written, inputs, saved_set, names) -> str:
    """The cut passes through i: saving i is no dearer than the local alternative of
    recomputing i from its inputs (saving those of them that are not saved already)."""
    b = int(graph.base[i])
    nbytes = int(graph.nbytes[b])
    if written[b]:
        text = f"min cut: {format_bytes(nbytes)} read (the forward writes it anyway)"
    else:
        text = f"min cut: {format_bytes(nbytes)} written + read (fused away otherwise)"
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
