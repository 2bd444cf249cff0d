"""Memory budgets: the frontier between step time and activation memory, and the plan for a
target.

Under a budget, the heuristic bans of ``policy`` (``BUDGET_LIFTS``: compute-intensive, not
fusible, reduction, materialized in backward) become prices: recomputing node ``v`` costs
``r(v)`` seconds on the device (``recompute.py``), charged by an auxiliary node tied to the
source with an edge into ``v`` (``network.add_switches``). Random, collective, mutating,
effectful, opaque and higher-order ops, graph inputs and ``MUST_SAVE`` stay banned;
``MUST_RECOMPUTE`` stays tied to the sink.

Generation (``budget_plans``, ``budget_reach``): a parametric cut in the recompute prices'
scale ``lam`` weighs the bytes a plan keeps against its recomputation; its nested cuts are the
lower hull of (saved bytes, recompute seconds); between two neighbouring cuts every minimum
cut at their breakpoint is a closure of the residual graph's strongly connected components,
and a knapsack over those closures gives, for any byte limit, the plan in reach that keeps the
most bytes under it (so recomputes least).

With ``Options(offload="auto")`` the plans may also send values to host memory
(``budget_plans``, ``budget_link``): saved bytes are what stays on the device, and time below
is recomputation plus the transfers' exposed seconds (``FrontierPoint.seconds``).

Selection (here): the frontier starts with the runtime plan (``decide``'s own choice: budget
1). ``Frontier.plans`` holds every plan in reach, Pareto in saved bytes x recompute seconds;
``Frontier.points`` keeps each plan only if it holds less activation memory than the point
before it and a lower estimated peak (``peak.py``; a plan that does not lower the peak buys
nothing): along the points saved bytes and peak fall while recomputation grows. A target picks:

    memory_budget = b        the first point saving <= least + b * (runtime plan's - least)
    memory_budget_bytes = N  the plan in reach recomputing least at saved bytes <= N
                             (``best_within``: not only the points)
    peak_memory_bytes = N    the first point whose estimated peak x (1 + peak_margin) <= N,
                             and among plans at that estimate the one saving least; when the
                             cut may offload, a faster plan that offloads what the peak holds
                             on top of a point, if one is found (``budget_polish``)

A target below the least plan gives the least plan and a ``BudgetWarning`` naming the gap; a
peak target met only without the margin gives a ``BudgetWarning`` saying so.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np

from fusioncut.budget_plans import (
    BudgetNetwork, FrontierPoint, budget_network, saved_activation_bytes,
)
from fusioncut._log import format_bytes, logger
from fusioncut._validate import check_number
from fusioncut.budget_link import generator as plans_in_reach
from fusioncut.budget_polish import polish
from fusioncut.cost import CostModel
from fusioncut.device import Device
from fusioncut.graph import JointGraph
from fusioncut.options import (
    GPU_PEAK_MARGIN,
    LOW_PRECISION_PEAK_MARGIN,
    MAX_PEAK_MARGIN,
    MAX_TARGET_BYTES,
    PEAK_MARGIN,
)

__all__ = ["GPU_PEAK_MARGIN", "LOW_PRECISION_PEAK_MARGIN", "PEAK_MARGIN", "BudgetChoice",
           "BudgetWarning", "Frontier", "FrontierPoint", "budget_network", "choose", "frontier",
           "peak_margin_for", "raised",
           "saved_activation_bytes"]


class BudgetWarning(UserWarning):
    """A memory target no plan meets (fusioncut used the least-memory plan it found), or a
    peak target the chosen plan meets only within the estimate's margin."""


@dataclass(frozen=True)
class BudgetChoice:
    """How a memory target chose the plan: the frontier, its point, the miss (bytes)."""

    target: str  # e.g. "memory_budget = 0.3"
    frontier: Frontier
    point: FrontierPoint
    gap: int  # bytes by which the least plan misses the target (0 when it fits)
    margin: float = 0.0  # the fraction a measured peak may exceed the estimate
    within_margin: bool = False  # a peak target the estimate meets, the raised one does not

    @property
    def expected_peak(self) -> tuple[int, int]:
        """The estimated peak and the most a measured peak is expected to reach."""
        return self.point.peak.peak, raised(self.point.peak.peak, self.margin)


def choose(front: Frontier, *, memory_budget: float | None = None,
           memory_budget_bytes: int | None = None, peak_memory_bytes: int | None = None,
           peak_margin: float = PEAK_MARGIN, stacklevel: int = 3) -> BudgetChoice:
    """The frontier's plan for one memory target (exactly one must be given); warns
    ``BudgetWarning`` naming the gap when no plan meets it, or when a peak target is met only
    within ``peak_margin``; logs (INFO) the plan and how close its peak is expected to come."""
    within = False
    if memory_budget is not None:
        point, gap = front.for_budget(memory_budget), 0
        target = f"memory_budget = {memory_budget:g}"
    elif memory_budget_bytes is not None:
        point, gap = front.for_bytes(memory_budget_bytes)
        target = f"memory_budget_bytes = {memory_budget_bytes}"
    else:
        point, over = front.for_peak(peak_memory_bytes, peak_margin)
        gap = max(0, point.peak.peak - peak_memory_bytes)
        within = over > 0 and not gap
        target = f"peak_memory_bytes = {peak_memory_bytes}"
    choice = BudgetChoice(target=target, frontier=front, point=point, gap=gap,
                          margin=peak_margin, within_margin=within)
    low, high = choice.expected_peak
    if gap:
        what = "estimated peak" if memory_budget_bytes is None else "saved bytes"
        warnings.warn(BudgetWarning(
            f"fusioncut: {target} is below the least any plan reaches; using the least-memory "
            f"plan ({what} {gap} bytes over the target)"), stacklevel=stacklevel)
    elif within:
        warnings.warn(BudgetWarning(
            f"fusioncut: {target} is met only within the estimate's margin: the least-memory "
            f"plan's estimated peak is {low} bytes, and measured peaks have come up to "
            f"{peak_margin:.0%} above the estimate ({high} bytes)"), stacklevel=stacklevel)
    logger.info("%s: saves %s, recomputes %.3g us, estimated peak %s (measured peaks run up "
                "to %.0f%% above the estimate: expect at most %s)", target,
                format_bytes(point.saved_bytes), point.recompute_seconds * 1e6,
                format_bytes(low), 100 * peak_margin, format_bytes(high))
    return choice


class Frontier:
    """Plans from the runtime plan down to the least activation memory.

    ``plans``: every plan in reach (the sweep's cuts and the plans of the gaps between
    neighbouring cuts, ``budget_reach``), Pareto in saved bytes x recompute seconds, the
    runtime plan first and then fewer bytes. ``points``: the subset ``memory_budget`` and
    ``peak_memory_bytes`` choose from, along which saved bytes and the estimated peak fall and
    the time added never falls: the anchors (the runtime plan, then each sweep cut saving fewer
    bytes than every anchor before it, peaking lower and adding no less time) and, between two
    anchors, the plans in reach between them that keep the order. The plans between two
    anchors are built and evaluated only when a target falls between them or when ``points``
    or ``plans`` is read. Time is ``FrontierPoint.seconds``: recomputation, plus the
    transfers' exposed time when plans offload.
    """

    def __init__(self, graph: JointGraph, device: Device, runtime: FrontierPoint, generator):
        self.graph = graph
        self.device = device
        self.generator = generator
        self._runtime = runtime
        self.solves = generator.solves
        self._gaps: dict[int, tuple] = {}  # anchor gap: (kept points, candidates, next)
        self._plans: list[FrontierPoint] | None = None
        # The anchors need every sweep cut's peak estimate; a byte budget needs none of them
        # (``best_within``), so they are found when first read.
        self._anchored: tuple | None = None

    def _anchor(self) -> tuple:
        """``(anchors, where, dropped, ties)``: see the properties of those names."""
        if self._anchored is not None:
            return self._anchored
        generator, runtime = self.generator, self._runtime
        top = len(generator.points) - 1
        anchors, where, dropped = [runtime], [top], []
        self._anchored = (anchors, where, dropped, {})
        for k in range(top, -1, -1):
            p, last = generator.points[k], anchors[-1]
            if p.key == runtime.key:
                where[0] = k  # the runtime plan is also a cut of the sweep
            elif p.saved_bytes < last.saved_bytes and _lower(p, last) \
                    and p.seconds >= last.seconds:
                anchors.append(p)
                where.append(k)
            else:
                if p.saved_bytes < last.saved_bytes and p.peak.peak == last.peak.peak:
                    self._tie(last, p)
                dropped.append(p)
        return self._anchored

    @property
    def anchors(self) -> list[FrontierPoint]:
        """The runtime plan, then each sweep cut saving fewer bytes than every anchor before
        it, peaking lower and adding no less time."""
        return self._anchor()[0]

    @property
    def _where(self) -> list[int]:
        """The sweep cut behind each anchor (runtime: the top cut)."""
        return self._anchor()[1]

    @property
    def dropped(self) -> list[FrontierPoint]:
        """Cuts that hold more memory or peak higher than one before."""
        return self._anchor()[2]

    @property
    def _ties(self) -> dict[int, FrontierPoint]:
        """id(point): the plan saving least at its peak."""
        return self._anchor()[3]

    @property
    def runtime(self) -> FrontierPoint:
        return self._runtime

    @property
    def candidates(self) -> int:
        """Distinct cuts the sweep found."""
        return len(self.generator.cuts)

    @property
    def least(self) -> FrontierPoint:
        return self.anchors[-1]

    @property
    def points(self) -> list[FrontierPoint]:
        """Every point, the plans between anchors included, from the runtime plan down."""
        out = [self.anchors[0]]
        for k in range(1, len(self.anchors)):
            out += self._gap(k)
            out.append(self.anchors[k])
        return out

    @property
    def plans(self) -> list[FrontierPoint]:
        """Every plan in reach, Pareto in (saved bytes, recompute seconds), runtime first (a
        plan after it may save as many bytes and recompute less)."""
        if self._plans is None:
            gen = self.generator
            out = [self.runtime]
            for e in self._candidates(-1, len(gen.points) - 1):
                _pareto_insert(out, self._point(e))
            for p in gen.points:
                _pareto_insert(out, p)
            self._plans = out
        return list(self._plans)

    def best_within(self, limit: int) -> FrontierPoint | None:
        """The plan in reach that recomputes least among those saving at most ``limit``
        bytes, before any peak filter: the sweep's cuts, the knapsack's plan between the
        neighbouring cuts and the bounded search above their edge (``Generator.best_within``),
        and the runtime plan. None when no plan saves that little. Built per call (a whole
        partition with it at most 2.1x a runtime one on GPT-48, 2.9x on the 8-layer Llama,
        docs/budget.md "Byte budgets in partition time, again"); ``memory_budget_bytes``
        takes it. ``limit`` outside ``[0, 2**62]`` or not an integer: ``ValueError``."""
        return self._best_within(_target("best_within", "limit", limit))

    def _best_within(self, limit: int) -> FrontierPoint | None:
        best = self.generator.best_within(limit)
        runtime = self.runtime
        if runtime.saved_bytes <= limit and (
                best is None or runtime.seconds <= best.seconds):
            return runtime
        if best is not None and best.peak is None:  # chosen by its preview: score it
            best = self.generator.evaluate.point(best.saved, best.lam, best.offloaded)
        return best

    def _candidates(self, lo: int, hi: int) -> list[tuple[int, object]]:
        """The sweep's cuts strictly between cuts ``lo`` and ``hi``, and the plans of the
        gaps between them, as ``(bytes, plan or (gap, k))``, most bytes first (the bytes the
        network counts: a gap plan is evaluated only when reached)."""
        gen = self.generator
        out: list[tuple[int, object]] = [(gen.points[j].saved_bytes, gen.points[j])
                                         for j in range(lo + 1, hi)]
        for j in range(max(lo, 0) + 1, hi + 1):
            gap = gen.gap(j)
            out += [(b, (gap, k)) for b, k in gap.spread(_PLANS_PER_GAP)]
        out.sort(key=lambda e: -e[0])
        return out

    @staticmethod
    def _point(entry) -> FrontierPoint:
        item = entry[1]
        return item if isinstance(item, FrontierPoint) else item[0].plan(item[1])

    @staticmethod
    def _preview(entry) -> FrontierPoint:
        """``_point(entry)``, its peak left out if not yet estimated (``Evaluator.preview``)."""
        item = entry[1]
        return item if isinstance(item, FrontierPoint) else item[0].preview(item[1])

    def _walk(self, k: int):
        """The points strictly between anchors k - 1 and k, evaluated as they are reached:
        each plan in reach between them that saves fewer bytes, peaks lower and adds no less
        time than the point before it (a plan that does not lower the peak buys nothing), adds
        no more time than anchor k, and saves more and peaks higher than anchor k (so the gaps
        are independent: a plan peaking no higher than anchor k is left out, though it
        recomputes less)."""
        kept, todo, at = self._gap_state(k)
        yield from list(kept)
        hi, lo = self.anchors[k - 1], self.anchors[k]
        seen = {p.key for p in kept}
        while at[0] < len(todo):
            last = kept[-1] if kept else hi
            if lo.peak.peak >= last.peak.peak * (1.0 - PEAK_STEP) ** 2:
                at[0] = len(todo)  # no peak fits a step below the last and above anchor k
                break
            entry = todo[at[0]]
            at[0] += 1
            if entry[0] >= last.saved_bytes:
                continue  # saves as much as the point before (by the network's count)
            q = self._preview(entry)  # its peak is estimated only if the rest admits it
            if q.key in seen or not (
                    lo.saved_bytes < q.saved_bytes < last.saved_bytes
                    and last.seconds <= q.seconds <= lo.seconds):
                continue
            q = self._point(entry)
            if not _lower(q, last):
                if q.peak.peak == last.peak.peak:
                    self._tie(last, q)
                continue
            if not _lower(lo, q):
                continue  # anchor k peaks no higher (each gap stays between its anchors)
            seen.add(q.key)
            kept.append(q)
            yield q

    def _gap_state(self, k: int) -> tuple[list, list, list]:
        """The walk of the gap before anchor k: the points kept so far, the candidates in
        walk order, and the position reached among them (in a one-element list)."""
        if k not in self._gaps:
            self._gaps[k] = ([], self._candidates(self._where[k], self._where[k - 1]), [0])
        return self._gaps[k]

    def gap_previews(self, k: int) -> list[FrontierPoint]:
        """Every plan the walk of the gap before anchor k may yield, in walk order, as
        ``Evaluator.preview`` scores it (its peak left out unless estimated before): the
        points ``walk_gap(k)`` yields are among them, in the same order. ``k`` outside
        ``[1, len(anchors) - 1]``: ``ValueError``."""
        k = self._gap_index("gap_previews", k)
        return [self._preview(entry) for entry in self._gap_state(k)[1]]

    def _gap_index(self, method: str, k: object) -> int:
        """``k`` as an int naming a gap, in [1, len(anchors) - 1]; ``ValueError`` otherwise."""
        n = len(self.anchors)
        valid = f"an integer in [1, {n - 1}]" if n > 1 else \
            "nothing: the frontier has one anchor and no gap"
        return check_number(f"Frontier.{method}", "k", k, 1, n - 1, integer=True,
                            valid=valid + " (the gap before anchor k)")

    def _gap(self, k: int) -> list[FrontierPoint]:
        """The points strictly between anchors k - 1 and k."""
        return list(self._walk(k))

    def _first(self, fits) -> FrontierPoint:
        """The first point (least recomputation) that ``fits``, walking one gap at most (a fit
        is monotone along the points)."""
        for k, anchor in enumerate(self.anchors):
            if fits(anchor):
                if k > 0:
                    for q in self._walk(k):
                        if fits(q):
                            return q
                return anchor
        return self.least

    def walk_gap(self, k: int):
        """The points strictly between anchors k - 1 and k, in order, evaluated as the caller
        reaches them. ``k`` outside ``[1, len(anchors) - 1]``: ``ValueError``."""
        return self._walk(self._gap_index("walk_gap", k))

    def _tie(self, point: FrontierPoint, other: FrontierPoint) -> None:
        """Record ``other``, a plan at ``point``'s estimated peak that saves fewer bytes."""
        known = self._ties.get(id(point))
        if known is None or other.saved_bytes < known.saved_bytes:
            self._ties[id(point)] = other

    def for_budget(self, b: float) -> FrontierPoint:
        """The plan for ``memory_budget = b`` (PyTorch's meaning: 0 the least memory, 1 the
        runtime plan); ``b`` outside ``[0, 1]``: ``ValueError``."""
        b = check_number("Frontier.for_budget", "b", b, 0, 1)
        lo, hi = self.least.saved_bytes, self.runtime.saved_bytes
        if b <= 0:
            return self.least  # every other point saves more (no gap needs a walk)
        target = lo + b * (hi - lo)
        return self._first(lambda p: p.saved_bytes <= target + 0.5)

    def for_bytes(self, limit: int) -> tuple[FrontierPoint, int]:
        """The plan that recomputes least among those in reach saving at most ``limit``
        bytes (``best_within``: the knapsack between the sweep's cuts and the search above
        their edge, not only the points), and by how many bytes it misses (0 when it fits;
        below every plan, the sweep's least-storage cut)."""
        limit = _target("for_bytes", "limit", limit)
        best = self._best_within(limit)
        if best is None:  # below every plan: the one saving fewest bytes (least storage)
            best = min(self.generator.points + [self.least], key=lambda p: p.saved_bytes)
        return best, max(0, best.saved_bytes - limit)

    def for_peak(self, limit: int, margin: float = 0.0) -> tuple[FrontierPoint, int]:
        """The plan that recomputes least among the points whose estimated peak, raised by
        ``margin`` (the fraction a measured peak may exceed the estimate), fits ``limit``;
        among plans at that estimated peak, the one that saves least (an estimate that ties
        does not see the bytes; the measured peak does). When the cut may offload, a plan
        that fits with a shorter step (or fits where no point does; where none fits, one that
        peaks below every point), found by offloading the values a point holds through its
        peak (``budget_polish.polish``), replaces it. Returns the plan and by how many bytes
        its raised estimate misses the limit (0 when it fits)."""
        limit = _target("for_peak", "limit", limit)
        margin = check_number("Frontier.for_peak", "margin", margin, 0, MAX_PEAK_MARGIN)

        def fits(p: FrontierPoint) -> bool:
            return raised(p.peak.peak, margin) <= limit

        point = self._first(fits)
        point = self._ties.get(id(point), point)
        over = max(0, raised(point.peak.peak, margin) - limit)
        # Offloading what the peak holds (None when the cut may not offload).
        ceiling = None if over else point.step_seconds(self.device)
        found = polish(self, fits, limit, margin, ceiling)
        if found is not None:  # fits faster, or (none fitting) peaks below every point
            return found, max(0, raised(found.peak.peak, margin) - limit)
        return point, over


def peak_margin_for(graph: JointGraph) -> float:
    """The default ``Options.peak_margin`` for ``graph``: ``GPU_PEAK_MARGIN`` when any of its
    tensors lives on an accelerator (a GPU graph may also hold CPU scalars), else (the CPU, or
    fake tensors on meta) ``LOW_PRECISION_PEAK_MARGIN`` when it computes in bfloat16 or
    float16 and ``PEAK_MARGIN`` otherwise."""
    if graph.on_accelerator():
        return GPU_PEAK_MARGIN
    return LOW_PRECISION_PEAK_MARGIN if graph.computes_low_precision() else PEAK_MARGIN


def raised(peak: int, margin: float) -> int:
    """``peak`` raised by the fraction ``margin``, in whole bytes."""
    return int(math.ceil(peak * (1.0 + margin)))


def _target(method: str, name: str, value: object) -> int:
    """A byte target handed to ``Frontier.method``, as an int (numpy ints taken); ValueError
    naming the method, the argument and the range otherwise."""
    return check_number(f"Frontier.{method}", name, value, 0, MAX_TARGET_BYTES, integer=True,
                        valid="an integer in [0, 2**62] (bytes)")


_PLANS_PER_GAP = 48  # plans a sweep gap offers (spread evenly over its reachable bytes)
PEAK_STEP = 0.02
"""The least fraction by which a point's estimated peak must fall below the point before it:
closer than that, the estimate cannot order two plans (GPT-2 from transformers, docs/budget.md:
two plans 1.3% apart in the estimate measured 2.5% the other way), and the one recomputing
more buys nothing."""


def _lower(p: FrontierPoint, q: FrontierPoint) -> bool:
    """Whether ``p``'s estimated peak is lower than ``q``'s by at least ``PEAK_STEP``."""
    return p.peak.peak < q.peak.peak * (1.0 - PEAK_STEP)


def _pareto_insert(plans: list[FrontierPoint], p: FrontierPoint) -> None:
    """Insert ``p`` into ``plans`` (runtime plan first, then saved bytes falling and
    recompute seconds rising) unless a plan dominates it; drop the plans it dominates. Plans
    that save more bytes than the runtime plan, or as many and recompute no less, are left
    out (the runtime plan stays first even when one at its bytes recomputes less)."""
    runtime = plans[0]
    if p.saved_bytes > runtime.saved_bytes or (
            p.saved_bytes == runtime.saved_bytes
            and p.seconds >= runtime.seconds):
        return
    r, m = p.seconds, p.saved_bytes
    if any(q.saved_bytes <= m and q.seconds <= r for q in plans[1:]):
        return
    plans[1:] = [q for q in plans[1:] if not (q.saved_bytes >= m and q.seconds >= r)]
    at = 1
    while at < len(plans) and plans[at].saved_bytes > m:
        at += 1
    plans.insert(at, p)


def frontier(graph: JointGraph, runtime_saved: np.ndarray, bnet: BudgetNetwork,
             costs: CostModel, static: np.ndarray, device: Device,
             numel: np.ndarray | None = None, runtime_offloaded: np.ndarray | None = None
             ) -> Frontier:
    """The frontier of ``bnet`` from the runtime plan ``runtime_saved`` (which offloads
    ``runtime_offloaded``; see the module docstring); ``bnet`` and ``numel`` must describe the
    same sizes."""
    generator = plans_in_reach(graph, bnet, costs, static, runtime_saved, numel)
    runtime = generator.evaluate.point(runtime_saved, None, runtime_offloaded)
    return Frontier(graph, device, runtime, generator)
