"""The budget frontier next to PyTorch's ``activation_memory_budget``, measured alike.

For one joint graph: fusioncut's frontier (``fusioncut.pareto``) and, at each budget, the plan
fusioncut picks and the plan PyTorch's knapsack picks (``min_cut_rematerialization_partition``
under ``torch._functorch.config.activation_memory_budget``, its default solver), every plan
scored the same way on the same graph:

    saved_bytes        activation storage kept for the backward (each storage once; graph
                       inputs and parameters are alive anyway and not counted)
    recompute_seconds  fusioncut's cost model on the device (recompute.py)
    torch_flops        PyTorch's own measure: sum of max(FLOPs, 1) over recomputed ops (its
                       ``estimate_runtime`` with the "flops" estimator)
    peak_bytes         the estimated peak of the schedule (peak.py)

``plot_pareto`` draws both on the same axes (needs matplotlib).
"""

from __future__ import annotations

import copy
import dataclasses
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch.fx as fx

from fusioncut import _torch_compat
from fusioncut.budget import Frontier, FrontierPoint, choose, saved_activation_bytes
from fusioncut.decision import Decision, decide_module, frontier_of
from fusioncut.graph import JointGraph
from fusioncut.ops import OpKind
from fusioncut.options import Options
from fusioncut.peak import estimate_peak, phases, recomputed
from fusioncut.recompute import node_flops, recompute_model
from fusioncut.report.text import format_bytes, format_seconds, table

__all__ = ["BUDGETS", "BudgetRow", "ParetoReport", "PlanScore", "format_pareto", "pareto_dict",
           "pareto_report", "plot_pareto", "score_saved", "torch_budget_plan"]

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
    return score_saved(decision, point.saved, seconds, flops)


def torch_budget_plan(joint_module: fx.GraphModule, joint_inputs: Any, graph: JointGraph,
                      num_fwd_outputs: int, static, budget: float) -> tuple[np.ndarray, float]:
    """PyTorch's saved set at ``budget`` (joint-node indices of ``graph``) and its partition
    time. Nodes PyTorch creates (RNG state, CSE leftovers) are not joint nodes and are left
    out."""
    partition = _torch_compat.min_cut_rematerialization_partition()
    jm = copy.deepcopy(joint_module)
    with _torch_compat.functorch_config().patch(activation_memory_budget=budget):
        t0 = time.perf_counter()
        fw, _ = partition(jm, joint_inputs, num_fwd_outputs=num_fwd_outputs,
                          static_lifetime_input_indices=static)
        elapsed = time.perf_counter() - t0
    out = fw.graph.find_nodes(op="output")[0]
    leaves = [a for a in _torch_compat.tree_leaves(list(out.args)) if isinstance(a, fx.Node)]
    by_name = {nd.name: i for i, nd in enumerate(graph.nodes)}
    saved = [by_name[a.name] for a in leaves[num_fwd_outputs:] if a.name in by_name]
    return np.asarray(sorted(set(saved)), dtype=np.int64), elapsed


def pareto_report(joint_module: fx.GraphModule, joint_inputs: Any = None, *,
                  num_fwd_outputs: int, static_lifetime_input_indices=None,
                  options: Options | None = None, budgets=BUDGETS,
                  compare: bool = True) -> ParetoReport:
    """Score fusioncut's frontier and, at each budget, fusioncut's and PyTorch's plans."""
    options = Options() if options is None else options
    if not isinstance(options, Options):
        raise TypeError(f"pareto: options must be a fusioncut.Options, got "
                        f"{type(options).__name__}")
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
                          frontier_s=frontier_s, decision=decision)
    for b in budgets:
        t1 = time.perf_counter()
        choice = choose(front, memory_budget=b)
        mine = _point_score(decision, choice.point, seconds, flops)
        mine.partition_s = time.perf_counter() - t1
        if compare:
            try:
                saved, elapsed = torch_budget_plan(
                    joint_module, joint_inputs, graph, num_fwd_outputs,
                    static_lifetime_input_indices, b)
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
        f, t = r.fusioncut, r.torch
        rows.append([f"{r.budget:g}", format_bytes(f.saved_bytes), format_bytes(f.peak_bytes),
                     format_seconds(f.recompute_seconds), f"{f.torch_flops:.3g}",
                     t.error or format_bytes(t.saved_bytes) + (" *" if t.redrawn else ""),
                     "" if t.error else format_bytes(t.peak_bytes),
                     "" if t.error else format_seconds(t.recompute_seconds),
                     "" if t.error else f"{t.torch_flops:.3g}"])
    head = (f"fusioncut pareto: {report.num_nodes} joint-graph nodes; {len(report.frontier)} "
            f"plans on the frontier (found in {format_seconds(report.frontier_s)}); "
            f"recomputation priced on {report.device}\n")
    lines = [head] + table(
        ["budget", "fusioncut saved", "peak", "recompute", "FLOPs", "PyTorch saved", "peak",
         "recompute", "FLOPs"], rows, right={1, 2, 3, 4, 5, 6, 7, 8})
    redrawn = [r for r in report.rows if r.torch.redrawn and r.torch.error is None]
    if redrawn:
        names = sorted({n for r in redrawn for n in r.torch.redrawn})
        lines.append(f"* PyTorch's plan at budget {', '.join(f'{r.budget:g}' for r in redrawn)}"
                     f" recomputes {', '.join(names)} in the backward, which draws new random "
                     f"numbers there: its gradients differ from the forward's (fusioncut never "
                     f"recomputes a random op)")
    return "\n".join(lines)


def pareto_dict(report: ParetoReport) -> dict:
    """JSON-able: the frontier's plans and both partitioners' plans at each budget."""
    return {"num_nodes": report.num_nodes, "device": report.device,
            "frontier_s": report.frontier_s,
            "frontier": [vars(p) for p in report.frontier],
            "rows": [{"budget": r.budget, "fusioncut": vars(r.fusioncut),
                      "torch": vars(r.torch),
                      "fusioncut_at_torch_bytes": (vars(r.at_torch_bytes) if r.at_torch_bytes
                                                   else None)} for r in report.rows]}


def plot_pareto(report: ParetoReport, path: str, title: str = "") -> None:
    """Recompute time against saved bytes (fusioncut's frontier, both methods' plans at each
    budget) and the estimated peak against the budget, as PNG or SVG."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise ImportError("plot_pareto needs matplotlib (pip install matplotlib)") from e
    mib = 2.0 ** 20
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(12, 4.8))
    fx_ = [p.saved_bytes / mib for p in report.frontier]
    fy = [p.recompute_seconds * 1e3 for p in report.frontier]
    ax.plot(fx_, fy, "-", color="#2b6cb0", lw=1.2, label="fusioncut frontier")
    # method, name, colour, marker, label offset, line style, z-order, marker size: fusioncut
    # drawn over PyTorch, its labels above its points and PyTorch's below
    styles = (("fusioncut", "fusioncut", "#2b6cb0", "o", (4, 3), "-", 3, 6),
              ("torch", "PyTorch", "#c05621", "s", (4, -9), "--", 2, 4))
    for method, name, color, marker, offset, ls, z, size in styles:
        rows = [(r.budget, getattr(r, method)) for r in report.rows
                if getattr(r, method).error is None]
        ax.scatter([s.saved_bytes / mib for _, s in rows],
                   [s.recompute_seconds * 1e3 for _, s in rows], color=color, marker=marker,
                   zorder=3, label=f"{name} at budgets 0..1")
        at: dict[tuple[float, float], list[float]] = {}  # budgets that chose one plan
        for b, s in rows:
            at.setdefault((s.saved_bytes / mib, s.recompute_seconds * 1e3), []).append(b)
        for xy, budgets in at.items():
            label = f"{min(budgets):g}" if len(budgets) == 1 else \
                f"{min(budgets):g}-{max(budgets):g}"
            ax.annotate(label, xy, textcoords="offset points", fontsize=7, color=color,
                        xytext=offset)
        ax2.plot([b for b, _ in rows], [s.peak_bytes / mib for _, s in rows], marker=marker,
                 color=color, label=name, ls=ls, zorder=z, markersize=size)
    ax.set_xlabel("saved activation memory (MiB)")
    ax.set_ylabel(f"estimated recompute time on {report.device} (ms)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    ax2.set_xlabel("activation memory budget")
    ax2.set_ylabel("estimated peak memory (MiB)")
    ax2.grid(alpha=0.3)
    ax2.legend(fontsize=8)
    fig.suptitle(title or f"budget frontier ({report.num_nodes} joint-graph nodes)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
