"""The budget frontier next to PyTorch's ``activation_memory_budget``, measured alike.

For one joint graph: fusioncut's frontier (``fusioncut.pareto``) and, at each budget, the plan
fusioncut picks and the plan PyTorch's knapsack picks (``min_cut_rematerialization_partition``
under ``torch._functorch.config.activation_memory_budget``, its default solver), every plan
scored the same way on the same graph:

    saved_bytes        activation storage kept on the device for the backward (each storage
                       once; graph inputs and parameters are alive anyway and not counted)
    recompute_seconds  fusioncut's cost model on the device (recompute.py)
    offloaded_bytes    bytes sent to host memory and back (``Options(offload="auto")``; the
                       link's busy time ``transfer_seconds`` one way, the step's wait for it
                       ``offload_seconds``, of which ``link_excess_seconds`` over-subscribes
                       the link: offload_link.py)
    torch_flops        PyTorch's own measure: sum of max(FLOPs, 1) over recomputed ops (its
                       ``estimate_runtime`` with the "flops" estimator)
    peak_bytes         the estimated peak of the schedule (peak.py)

For a model (``pareto(model, *args, **kwargs)``, traced like ``explain``: one joint graph per
Dynamo graph), every graph is scored alone (``ParetoReport.parts``) and the totals add up
per budget: one ``memory_budget`` applies to every graph of a compile. The model's frontier is
then the set of totals one budget reaches (a grid of 101 budgets), and its peak the largest of
``saved bytes of the earlier graphs + this graph's peak`` (an earlier graph's saved
activations stay alive while a later graph runs forward and backward).

``charts.plot_pareto`` draws a report (needs matplotlib).
"""

from __future__ import annotations

import copy
import dataclasses
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch.fx as fx

from fusioncut import _torch_compat
from fusioncut._validate import check_number, shown
from fusioncut.budget import Frontier, FrontierPoint, choose, saved_activation_bytes
from fusioncut.decision import Decision, decide_module, frontier_of, no_offload_reason
from fusioncut.decision import pareto as joint_frontier
from fusioncut.graph import JointGraph
from fusioncut.ops import OpKind
from fusioncut.options import Options
from fusioncut.peak import estimate_peak, phases, recomputed
from fusioncut.recompute import node_flops, recompute_model
from fusioncut.report.capture import trace
from fusioncut.report.compare import torch_extras, torch_setting
from fusioncut.report.text import format_bytes, format_seconds, table

__all__ = ["BUDGETS", "BudgetRow", "ParetoReport", "PlanScore", "check_budgets", "combine_pareto",
           "format_pareto", "pareto", "pareto_dict", "pareto_report", "score_saved",
           "torch_budget_plan"]

BUDGETS = tuple(round(0.1 * k, 1) for k in range(11))
_RANDOM = int(OpKind.RANDOM)


@dataclass
class PlanScore:
    """One plan, scored on fusioncut's graph."""

    saved_bytes: int
    recompute_seconds: float
    torch_flops: float
    peak_bytes: int
    num_saved: int
    num_recomputed: int
    partition_s: float | None = None
    error: str | None = None
    offloaded_bytes: int = 0
    num_offloaded: int = 0
    transfer_seconds: float = 0.0
    offload_seconds: float = 0.0
    link_excess_seconds: float = 0.0
    redrawn: list[str] = field(default_factory=list)
    """Random ops (``native_dropout``, ``rand_like``, ...) the plan recomputes in the
    backward: there they draw new random numbers, so the gradients no longer match the
    forward's. fusioncut's plans never have any (random ops are never recomputed without RNG
    replay); PyTorch's under ``activation_memory_budget < 1`` may (torch 2.13 re-draws
    ``native_dropout``)."""


@dataclass
class BudgetRow:
    budget: float
    fusioncut: PlanScore
    torch: PlanScore
    at_torch_bytes: PlanScore | None = None
    """fusioncut's plan for ``memory_budget_bytes`` = PyTorch's saved bytes at this budget:
    the two partitioners compared at the same memory (the budget fractions of the two measure
    different ranges)."""


@dataclass
class ParetoReport:
    num_nodes: int
    device: str
    frontier: list[PlanScore]  # every frontier plan, runtime plan first
    rows: list[BudgetRow] = field(default_factory=list)
    frontier_s: float = 0.0  # the whole frontier (sweep, refinement, scores)
    decision: Decision | None = field(default=None, repr=False)
    parts: list[ParetoReport] = field(default_factory=list)  # per joint graph, when several
    torch_setting: str = ""  # PyTorch's configuration besides the budget
    graph_breaks: list[str] = field(default_factory=list)
    front: Frontier | None = field(default=None, repr=False)
    no_offload: str | None = None  # why offload='auto' offloads nothing here (decision.py)


def score_saved(decision: Decision, saved: np.ndarray, seconds: np.ndarray,
                flops: np.ndarray) -> PlanScore:
    """Score a saved set of ``decision.graph`` (see the module docstring)."""
    graph = decision.graph
    saved = np.sort(np.asarray(saved, dtype=np.int64))
    split = phases(graph, saved)
    again = recomputed(graph, saved, split)
    calls = again[[graph.nodes[i].op == "call_function" for i in again.tolist()]] \
        if len(again) else again
    return PlanScore(
        saved_bytes=saved_activation_bytes(graph, saved, decision.static_inputs),
        recompute_seconds=float(seconds[again].sum()),
        torch_flops=float(np.maximum(flops[calls], 1.0).sum()) if len(calls) else 0.0,
        peak_bytes=estimate_peak(graph, saved, split=split).peak,
        num_saved=len(saved), num_recomputed=len(again),
        redrawn=[graph.nodes[i].name for i in again.tolist() if graph.kind[i] == _RANDOM])


def _point_score(decision, point: FrontierPoint, seconds, flops) -> PlanScore:
    """A frontier plan's score: ``score_saved``'s, with the plan's own device bytes, peak and
    transfers when it offloads."""
    score = score_saved(decision, point.saved, seconds, flops)
    if len(point.offloaded):
        score.saved_bytes, score.peak_bytes = point.saved_bytes, point.peak.peak
        score.offloaded_bytes, score.num_offloaded = point.offloaded_bytes, len(point.offloaded)
        score.transfer_seconds, score.offload_seconds = (point.transfer_seconds,
                                                         point.offload_seconds)
        score.link_excess_seconds = point.link_excess_seconds
    return score


def torch_budget_plan(joint_module: fx.GraphModule, joint_inputs: Any, graph: JointGraph,
                      num_fwd_outputs: int, static, budget: float,
                      options: Options | None = None) -> tuple[np.ndarray, float]:
    """PyTorch's saved set at ``budget`` (joint-node indices of ``graph``) and its partition
    time, at the setting of ``options`` otherwise (``compare.torch_setting``). Nodes PyTorch
    creates (RNG state, CSE leftovers) are not joint nodes and are left out."""
    partition = _torch_compat.min_cut_rematerialization_partition()
    patch, _ = torch_setting(options or Options())
    patch["activation_memory_budget"] = budget
    with _torch_compat.quiet_copies():
        jm = copy.deepcopy(joint_module)
        with _torch_compat.functorch_config().patch(**patch):
            t0 = time.perf_counter()
            fw, _ = partition(jm, joint_inputs, num_fwd_outputs=num_fwd_outputs,
                              static_lifetime_input_indices=static)
            elapsed = time.perf_counter() - t0
    out = fw.graph.find_nodes(op="output")[0]
    leaves = [a for a in _torch_compat.tree_leaves(list(out.args)) if isinstance(a, fx.Node)]
    by_name = {nd.name: i for i, nd in enumerate(graph.nodes)}
    saved = [by_name[a.name] for a in leaves[num_fwd_outputs:] if a.name in by_name]
    return np.asarray(sorted(set(saved)), dtype=np.int64), elapsed


def pareto(target: Any, *args: Any, num_fwd_outputs: int | None = None,
           options: Options | None = None, budgets=BUDGETS, compare: bool = True,
           via: str = "dynamo", **kwargs: Any):
    """The budget frontier of a model, or of one joint graph.

    ``pareto(model, *args, **kwargs)``: call the model the way ``torch.compile`` does
    (``capture``; ``via`` as in ``explain``) and return a ``ParetoReport``: fusioncut's
    frontier and, at each of ``budgets``, fusioncut's plan and (if ``compare``) PyTorch's,
    scored alike, summed over the model's joint graphs.

    ``pareto(joint_module, joint_inputs=None, num_fwd_outputs=n,
    static_lifetime_input_indices=None, options=None)``: the ``Frontier`` of one joint graph
    in hand (``decision.pareto``: every plan with its saved set).

    Recomputation is priced on ``options.device`` (the "h100" preset when None); a memory
    target in ``options`` is ignored (every budget is scored).

    Rejects what ``explain`` rejects, ``budgets`` that is not a non-empty sequence of numbers
    in [0, 1] (``ValueError`` naming the entry; numpy numbers are taken), a ``compare`` that
    is not a bool (``TypeError``), and ``budgets``, ``compare`` or ``via`` given with a joint
    graph (``TypeError``: they shape the report of a model; a ``Frontier`` answers a budget
    with ``for_budget``)."""
    if num_fwd_outputs is not None:
        given = [name for name, ignored in (("budgets", budgets is not BUDGETS),
                                            ("compare", compare is not True),
                                            ("via", via != "dynamo")) if ignored]
        if given:
            verb = "applies" if len(given) == 1 else "apply"
            raise TypeError(f"pareto: {', '.join(given)} {verb} to a model, not to a joint graph "
                            f"(num_fwd_outputs given): the joint graph's Frontier is returned; "
                            f"ask it for a budget's plan with Frontier.for_budget(b)")
        return joint_frontier(target, *args, num_fwd_outputs=num_fwd_outputs, options=options,
                              **kwargs)
    if options is not None and not isinstance(options, Options):
        raise TypeError(f"pareto: options must be a fusioncut.Options, got "
                        f"{type(options).__name__}")
    if not isinstance(compare, bool):
        raise TypeError(f"pareto: compare must be True or False, got {shown(compare)}")
    budgets = check_budgets(budgets)
    captured = trace("pareto", target, args, kwargs, via=via)
    parts = [pareto_report(j.joint_module, j.joint_inputs, num_fwd_outputs=j.num_fwd_outputs,
                           static_lifetime_input_indices=j.static_lifetime_input_indices,
                           options=options, budgets=budgets, compare=compare)
             for j in captured.graphs]
    report = combine_pareto(parts)
    report.graph_breaks = list(captured.graph_breaks)
    return report


def check_budgets(budgets: Any) -> tuple[float, ...]:
    """``budgets`` as a tuple, or ``ValueError`` naming it: a non-empty iterable (not a string)
    of numbers in [0, 1], compared exactly (a 10**400 or NaN is refused, never converted)."""
    if isinstance(budgets, (str, bytes)) or not isinstance(budgets, Iterable):
        raise ValueError(f"pareto: budgets = {shown(budgets)} is invalid; expected a sequence "
                         "of numbers in [0, 1]")
    budgets = tuple(budgets)
    if not budgets:
        raise ValueError("pareto: budgets = () is invalid; expected at least one number in "
                         "[0, 1]")
    return tuple(float(check_number("pareto", f"budgets[{k}]", b, 0, 1))
                 for k, b in enumerate(budgets))


def pareto_report(joint_module: fx.GraphModule, joint_inputs: Any = None, *,
                  num_fwd_outputs: int, static_lifetime_input_indices=None,
                  options: Options | None = None, budgets=BUDGETS,
                  compare: bool = True) -> ParetoReport:
    """Score fusioncut's frontier and, at each budget, fusioncut's and PyTorch's plans."""
    options = Options() if options is None else options
    if not isinstance(options, Options):
        raise TypeError(f"pareto: options must be a fusioncut.Options, got "
                        f"{type(options).__name__}")
    if not isinstance(compare, bool):
        raise TypeError(f"pareto: compare must be True or False, got {shown(compare)}")
    budgets = check_budgets(budgets)
    runtime = dataclasses.replace(options, memory_budget=None, memory_budget_bytes=None,
                                  peak_memory_bytes=None)
    decision = decide_module(joint_module, num_fwd_outputs, static_lifetime_input_indices,
                             runtime, "pareto")
    graph = decision.graph
    device = options.budget_device
    seconds = recompute_model(graph, device).seconds(graph)
    flops = np.array([node_flops(nd) if nd.op == "call_function" else 0.0
                      for nd in graph.nodes])
    t0 = time.perf_counter()
    front: Frontier = frontier_of(decision, options)
    points = front.points
    frontier_s = time.perf_counter() - t0
    report = ParetoReport(num_nodes=graph.num_nodes, device=device.name,
                          frontier=[_point_score(decision, p, seconds, flops) for p in points],
                          frontier_s=frontier_s, decision=decision,
                          torch_setting=", ".join(torch_extras(options)), front=front,
                          no_offload=no_offload_reason(graph, options))
    for b in budgets:
        t1 = time.perf_counter()
        choice = choose(front, memory_budget=b)
        mine = _point_score(decision, choice.point, seconds, flops)
        mine.partition_s = time.perf_counter() - t1
        if compare:
            try:
                saved, elapsed = torch_budget_plan(
                    joint_module, joint_inputs, graph, num_fwd_outputs,
                    static_lifetime_input_indices, b, options)
                theirs = score_saved(decision, saved, seconds, flops)
                theirs.partition_s = elapsed
            except Exception as e:  # a peer failing is a result to report
                theirs = PlanScore(0, 0.0, 0.0, 0, 0, 0,
                                   error=f"{type(e).__name__}: {str(e).splitlines()[0][:160]}")
        else:
            theirs = PlanScore(0, 0.0, 0.0, 0, 0, 0, error="not compared")
        same = None
        if theirs.error is None:
            point, _ = front.for_bytes(theirs.saved_bytes)
            same = _point_score(decision, point, seconds, flops)
        report.rows.append(BudgetRow(b, mine, theirs, same))
    return report


def format_pareto(report: ParetoReport) -> str:
    """The frontier and both partitioners' plans at each budget, as a table."""
    rows = []
    for r in report.rows:
        f, t, same = r.fusioncut, r.torch, r.at_torch_bytes
        rows.append([f"{r.budget:g}", format_bytes(f.saved_bytes), format_bytes(f.peak_bytes),
                     format_seconds(f.recompute_seconds), f"{f.torch_flops:.3g}",
                     t.error or format_bytes(t.saved_bytes) + (" *" if t.redrawn else ""),
                     "" if t.error else format_bytes(t.peak_bytes),
                     "" if t.error else format_seconds(t.recompute_seconds),
                     "" if t.error else f"{t.torch_flops:.3g}",
                     format_seconds(same.recompute_seconds) if same is not None else "-"])
    graphs = f" in {len(report.parts)} joint graphs" if report.parts else ""
    setting = f"; PyTorch with {report.torch_setting}" if report.torch_setting else ""
    head = [f"fusioncut pareto: {report.num_nodes} joint-graph nodes{graphs}; "
            f"{len(report.frontier)} plans on the frontier (found in "
            f"{format_seconds(report.frontier_s)}); recomputation priced on "
            f"{report.device}{setting}"]
    if report.graph_breaks:
        head.append("Dynamo graph breaks: " + "; ".join(report.graph_breaks[:3]))
    if report.no_offload:
        head.append(f"offload='auto' offloads nothing here: {report.no_offload}")
    head.append("(a budget is a fraction of each partitioner's own range, so the two columns "
                "differ at one budget; the last column is fusioncut's recompute time at "
                "PyTorch's saved bytes)\n")
    names = ["budget", "fusioncut saved", "peak", "recompute", "FLOPs", "PyTorch saved", "peak",
             "recompute", "FLOPs", "fusioncut at PyTorch's bytes"]
    if any(r.fusioncut.offloaded_bytes for r in report.rows):
        names[3:3] = ["offloaded", "transfer"]
        for row, r in zip(rows, report.rows):
            f = r.fusioncut
            row[3:3] = [format_bytes(f.offloaded_bytes),
                        format_seconds(f.offload_seconds) + (" !" if f.link_excess_seconds
                                                             else "")]
        head.append("(offloaded: bytes fusioncut's plan sends to host memory; transfer: the "
                    "seconds the step waits for them; ! the link is over-subscribed, the excess "
                    "charged)\n")
    lines = head + table(names, rows, right=set(range(1, len(names))))
    redrawn = [r for r in report.rows if r.torch.redrawn and r.torch.error is None]
    if redrawn:
        names = sorted({n for r in redrawn for n in r.torch.redrawn})
        lines.append(f"* PyTorch's plan at budget {', '.join(f'{r.budget:g}' for r in redrawn)}"
                     f" recomputes {', '.join(names)} in the backward, which draws new random "
                     f"numbers there: its gradients differ from the forward's (fusioncut never "
                     f"recomputes a random op)")
    return "\n".join(lines)


def pareto_dict(report: ParetoReport) -> dict:
    """JSON-able: the frontier's plans and both partitioners' plans at each budget (and the
    same per joint graph under ``parts`` when there are several)."""
    return {"num_nodes": report.num_nodes, "device": report.device,
            "frontier_s": report.frontier_s, "torch_setting": report.torch_setting,
            "no_offload": report.no_offload,
            "graph_breaks": report.graph_breaks,
            "frontier": [vars(p) for p in report.frontier],
            "rows": [{"budget": r.budget, "fusioncut": vars(r.fusioncut),
                      "torch": vars(r.torch),
                      "fusioncut_at_torch_bytes": (vars(r.at_torch_bytes) if r.at_torch_bytes
                                                   else None)} for r in report.rows],
            "parts": [pareto_dict(p) for p in report.parts]}


def combine_pareto(parts: list[ParetoReport]) -> ParetoReport:
    """One report for a model of several joint graphs (see the module docstring)."""
    if len(parts) == 1:
        return parts[0]
    first = parts[0]
    # Frontier scores by point, per part (``front.points`` lists the scored plans in order).
    scored = [{id(q): score for q, score in zip(p.front.points, p.frontier)} for p in parts]
    frontier: list[PlanScore] = []
    for b in (k / 100 for k in range(100, -1, -1)):
        score = _sum_scores([s[id(p.front.for_budget(b))] for p, s in zip(parts, scored)])
        if not frontier or score.saved_bytes < frontier[-1].saved_bytes:
            frontier.append(score)
    rows = []
    for k, row in enumerate(first.rows):
        pick = [p.rows[k] for p in parts]
        same = [r.at_torch_bytes for r in pick]
        rows.append(BudgetRow(row.budget, _sum_scores([r.fusioncut for r in pick]),
                              _sum_scores([r.torch for r in pick]),
                              None if any(s is None for s in same) else _sum_scores(same)))
    return ParetoReport(num_nodes=sum(p.num_nodes for p in parts), device=first.device,
                        frontier=frontier, rows=rows,
                        frontier_s=sum(p.frontier_s for p in parts), parts=parts,
                        torch_setting=first.torch_setting, no_offload=first.no_offload)


def _sum_scores(scores: list[PlanScore]) -> PlanScore:
    """Plans of consecutive joint graphs as one: bytes, seconds and counts add up; the peak
    is the largest of each graph's peak over the activations the graphs before it keep."""
    errors = [s.error for s in scores if s.error]
    if errors:
        return PlanScore(0, 0.0, 0.0, 0, 0, 0, error=errors[0])
    held, peak = 0, 0
    for s in scores:
        peak = max(peak, held + s.peak_bytes)
        held += s.saved_bytes
    times = [s.partition_s for s in scores]
    return PlanScore(saved_bytes=held, recompute_seconds=sum(s.recompute_seconds for s in scores),
                     torch_flops=sum(s.torch_flops for s in scores), peak_bytes=peak,
                     num_saved=sum(s.num_saved for s in scores),
                     num_recomputed=sum(s.num_recomputed for s in scores),
                     partition_s=None if any(t is None for t in times) else sum(times),
                     redrawn=[n for s in scores for n in s.redrawn],
                     offloaded_bytes=sum(s.offloaded_bytes for s in scores),
                     num_offloaded=sum(s.num_offloaded for s in scores),
                     transfer_seconds=sum(s.transfer_seconds for s in scores),
                     offload_seconds=sum(s.offload_seconds for s in scores),
                     link_excess_seconds=sum(s.link_excess_seconds for s in scores))
