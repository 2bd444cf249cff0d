"""Peak-directed offloading: a faster plan for a peak target, on top of the frontier's plans.

The parametric cut prices the bytes a plan holds from the forward to the backward; a peak
target asks about one instant. A value held through the estimated peak lowers it when it goes
to host memory; one freed before the peak, or reloaded before it, does not; the sweep cannot
tell the two apart. On the 2k-token Llama the frontier's plans within 5% of the runtime step
peaked no lower with offloading than without, while offloading the values held at the peak on
top of the same plans lowered it by 6-34% as the link hides more (docs/budget.md,
"Peak-directed offloading").

``polish(front, fits, limit, margin, ceiling)`` searches for such a plan when a peak target is
set and the cut may offload (``Frontier.for_peak``), among plans faster than ``ceiling`` (the
step of the point the target picked; none when no point fits).

Starts (``_starts``): the points the pick passed over, which peak too high: the anchors before
it, the points of its own gap before it, and the points of the ``_GAPS`` gaps nearest to it
whose box (the upper anchor's seconds, the lower anchor's peak) could still beat the ceiling.
They are taken in the order of a lower bound on the step at which they could fit: the step
plus the exposed seconds of moving as many more bytes as the peak exceeds the target. A gap is
walked (its plans evaluated) one point at a time, each time its box comes first in that
order, the box rising to the rest's after each point, and what lies past the best fit's step
is not walked at all. The box pairs the gap's least seconds with its least peak; the rest of a
gap is also bounded by the plans it may still yield, each from its preview (``_Search.floor``:
its step, and a peak no lower than the bytes it keeps on the device, all alive when the
forward ends), so a gap whose plans all keep too much for their seconds is never walked. On
GPT-48's target 30% of the way up from its least peak, that left one gap of three unwalked
(87 plans scored to 47, the same plan); where a gap's plans peak a fixed amount above what they
keep (GPT-48's next gap: 0.85 MB), the floor is as loose as that amount and the gap is walked.

Descent (``_Search.descend``): each round finds the instant of the estimated peak
(``peak_instant``) and the offloadable values the plan keeps on the device through it (largest
first, the node index breaking ties); it tries the fewest of them that cover the excess, then
single values (``_TRIES``), and keeps the first that lowers the estimated peak with the step
below the best fit so far. A start ends when it fits (the new best), when no try lowers the
peak, or when its bound reaches the best fit's step. The search stops at the first start whose
bound does, or after ``_EVALUATIONS`` plans. When no point fits and no plan found does, the
lowest-peak plan the descents reached is returned if it peaks below every point (a target
below the least plan gets the least peak offloading reaches, with the warning of the gap).

Every plan is scored by the frontier's own evaluator (the same peak estimate, link cost and
step): the result is a plan of the model the frontier's are, only not on it. The search is
greedy and bounded, deterministic for a graph and a target: it finds plans the sweep cannot,
not the least step that fits.
"""

from __future__ import annotations

import dataclasses
import heapq

import numpy as np

from fusioncut.budget_plans import FrontierPoint
from fusioncut.peak import PhaseEvents

__all__ = ["peak_instant", "polish"]

_TRIES = 3  # values tried per round before a start ends
_GAPS = 3  # gaps before the first fit's whose points are walked for starts
_EVALUATIONS = 64  # plans scored per search at most (about a millisecond each on 10k nodes)


def polish(front, fits, limit: int, margin: float, ceiling: float | None
           ) -> FrontierPoint | None:
    """The fastest plan found that ``fits`` (its estimated peak raised by ``margin`` is at
    most ``limit``) with a step below ``ceiling`` seconds, offloading on top of the frontier's
    points that do not fit (see the module docstring). With no ceiling (no point fits) and no
    plan that fits, the lowest-peak plan the search reached if it peaks below every point;
    None when there is none or the cut may not offload."""
    if front.generator.bnet.offload is None:
        return None
    search = _Search(front, fits, int(limit / (1.0 + margin)))
    if not search.allowed.any():  # every value the cut may offload is already forced there
        return None
    best, best_step = None, np.inf if ceiling is None else ceiling
    lowest = front.least

    def box(hi: FrontierPoint, lo: FrontierPoint) -> float:
        return hi.seconds + search.extra(lo.peak.peak - search.fits_below)

    for start in _starts(front, fits, box, lambda: best_step, search.bound, search.floor):
        if search.budget <= 0 or search.bound(start) >= best_step:
            break
        reached, fitted = search.descend(start, best_step)
        added = np.setdiff1d(reached.offloaded, start.offloaded).astype(np.int64)
        if fitted:
            best = dataclasses.replace(reached, peak_offloaded=added)
            best_step = best.step_seconds(front.device)
        elif ceiling is None and reached.peak.peak < lowest.peak.peak:
            lowest = dataclasses.replace(reached, peak_offloaded=added)
    if best is None and ceiling is None and lowest is not front.least:
        return lowest
    return best


def _starts(front, fits, box, ceiling, bound, floor):
    """The frontier's points before the first that ``fits`` (all of them when none does), in
    the order of ``bound`` (the bytes saved breaking ties): the anchors, the points of the
    first fit's gap before it, and those of the gaps before that one, up to ``_GAPS`` gaps
    counting the fit's own (each gap walked once), whose
    ``box(hi, lo)`` is below ``ceiling()`` (the caller's best step so far: every point of the
    gap between anchors ``hi`` and ``lo`` adds at least ``hi``'s seconds and peaks at least as
    high as ``lo``, so its box bounds theirs). A gap is walked one point at a time, each time
    its box comes first, its box rising to that of the rest after each point and to the least
    ``floor`` of the plans the rest may hold (``Frontier.gap_previews``: a bound from a plan's
    preview, before its peak is estimated): the caller stops at the first start whose bound
    reaches its best fit, and what lies past it is never walked."""
    anchors = front.anchors
    k_fit = next((k for k, a in enumerate(anchors) if fits(a)), len(anchors))
    gaps = []  # (k, whether its walk stops at the first point that fits)
    if 0 < k_fit < len(anchors) and box(anchors[k_fit - 1], anchors[k_fit]) < ceiling():
        gaps.append((k_fit, True))
    walked = 0
    for k in range(min(k_fit, len(anchors) - 1), 0, -1):
        if walked == _GAPS:
            break
        if box(anchors[k - 1], anchors[k]) < ceiling():
            if k != k_fit:  # the fit's own gap is walked once, up to its first fit (above)
                gaps.append((k, False))
            walked += 1
    # Per gap, the least floor of the plans from each position of its walk on, and where
    # each plan stands in it (a point the walk yields comes from a later position than the
    # one before it): the floors of the rest, once the gap's box first comes up.
    rests: list = [None] * len(gaps)

    def rest(g: int, after: FrontierPoint | None) -> float:
        if rests[g] is None:
            k = gaps[g][0]
            previews = front.gap_previews(k)
            floors = [floor(p, anchors[k]) for p in previews] + [np.inf]
            least = np.minimum.accumulate(floors[::-1])[::-1]
            where: dict[bytes, int] = {}
            for i, p in enumerate(previews):
                where.setdefault(p.key, i)
            rests[g] = (least, where)
        least, where = rests[g]
        return float(least[0 if after is None else where.get(after.key, -1) + 1])

    # Points: (bound, bytes saved, group, rank, point), the anchors group 0 and gap g's points
    # group g + 1, in the order they were found; a gap: (box, -1, g, the point it last
    # yielded or None), before any point whose bound ties with it.
    heap: list = [(bound(a), a.saved_bytes, 0, r, a) for r, a in enumerate(anchors[:k_fit])]
    heap += [(box(anchors[k - 1], anchors[k]), -1, g, None) for g, (k, _) in enumerate(gaps)]
    heapq.heapify(heap)
    walks = [enumerate(front.walk_gap(k)) for k, _ in gaps]  # each gap's points, lazily
    while heap:
        entry = heapq.heappop(heap)
        if entry[1] >= 0:
            yield entry[4]
            continue
        if entry[0] >= ceiling():
            continue  # no plan of the rest of the gap can beat the best fit
        g, after = entry[2], entry[3]
        floor_of_rest = rest(g, after)
        if floor_of_rest > entry[0]:  # the rest's previews bound it higher: come back then
            heapq.heappush(heap, (floor_of_rest, -1, g, after))
            continue
        k, until_fit = gaps[g]
        found = next(walks[g], None)
        if found is None or (until_fit and fits(found[1])):
            continue  # the gap is done
        r, q = found
        heapq.heappush(heap, (bound(q), q.saved_bytes, g + 1, r, q))
        # The rest of the gap adds at least q's seconds (a gap's seconds never fall): its box
        # from q on bounds them, and it comes back when that box comes first.
        heapq.heappush(heap, (box(q, anchors[k]), -1, g, q))


class _Search:
    """One target's search: what fits, what may go, the evaluations left."""

    def __init__(self, front, fits, fits_below: int):
        self.front, self.fits, self.fits_below = front, fits, fits_below
        self.arcs = front.generator.bnet.offload
        self.allowed = np.zeros(front.graph.num_nodes, dtype=bool)
        self.allowed[self.arcs.nodes[~self.arcs.forced]] = True
        self.budget = _EVALUATIONS

    def extra(self, nbytes: int, p: FrontierPoint | None = None) -> float:
        """The least exposed seconds of offloading ``nbytes`` more on top of ``p``."""
        moved, exposed = (0, 0.0) if p is None else (p.offloaded_bytes, p.offload_seconds)
        more = self.arcs.link.cost(moved + max(0, int(nbytes))).exposed_seconds
        return max(0.0, more - exposed)

    def floor(self, p: FrontierPoint, lo: FrontierPoint) -> float:
        """A bound below ``bound(p)`` from ``p``'s preview (no peak needed) for a plan of the
        gap above anchor ``lo``: its estimated peak is at least the bytes it keeps on the
        device (they are all alive when the forward ends) and at least ``lo``'s (the gap's
        points peak higher than its lower anchor)."""
        peak = max(p.saved_bytes, lo.peak.peak)
        return p.step_seconds(self.front.device) + self.extra(peak - self.fits_below, p)

    def bound(self, p: FrontierPoint) -> float:
        """The least step at which offloading on top of ``p`` could fit: its step and the
        exposed seconds of moving as many more bytes as it peaks above the target."""
        return p.step_seconds(self.front.device) + self.extra(p.peak.peak - self.fits_below, p)

    def descend(self, start: FrontierPoint, ceiling: float) -> tuple[FrontierPoint, bool]:
        """Offload values held at the peak on top of ``start`` until it fits, the step staying
        below ``ceiling``: the plan reached (its peak the lowest of the way) and whether it
        fits; it stops short when no try lowers the peak, its bound reaches ``ceiling`` or
        the evaluations run out."""
        front = self.front
        evaluate, device = front.generator.evaluate, front.device
        nbytes = evaluate.nbytes
        cur = start
        moved = np.zeros(len(self.allowed), dtype=bool)
        moved[start.offloaded] = True
        rejected = moved.copy()
        while not self.fits(cur):
            if self.bound(cur) >= ceiling:
                return cur, False
            candidates = np.flatnonzero(_held_at_peak(front, cur) & self.allowed & ~rejected)
            candidates = candidates[np.lexsort((candidates, -nbytes[candidates]))]
            # First the fewest largest values that cover the excess, then one at a time.
            cover = int(np.searchsorted(np.cumsum(nbytes[candidates]),
                                        cur.peak.peak - self.fits_below)) + 1
            tries = [candidates[:cover]] if cover > 1 else []
            tries += [candidates[k:k + 1] for k in range(min(_TRIES, len(candidates)))]
            for group in tries:
                if self.budget <= 0:
                    return cur, False
                self.budget -= 1
                moved[group] = True
                q = evaluate.point(cur.saved, None, np.flatnonzero(moved))
                if q.peak.peak < cur.peak.peak and q.step_seconds(device) < ceiling:
                    cur = q
                    rejected[group] = True
                    break
                moved[group] = False
                if len(group) == 1:
                    rejected[group] = True
            else:
                return cur, False
        return cur, True


def _held_at_peak(front, p: FrontierPoint) -> np.ndarray:
    """bool (n,): the values ``p`` keeps on the device through the instant of its estimated
    peak (the backward's: saved and read after it; the forward's: saved and computed before
    it)."""
    forward, backward, _ = front.generator.evaluate.events(p)
    out = np.zeros(front.graph.num_nodes, dtype=bool)
    kept = np.zeros_like(out)
    kept[p.saved] = True
    kept[p.offloaded] = False
    if p.peak.backward_peak >= p.peak.forward_peak:
        t = peak_instant(backward)
        out[backward.free_node[backward.free_t > t]] = True
    else:
        t = peak_instant(forward)
        out[forward.alloc_node[forward.alloc_t <= t]] = True
    return out & kept


def peak_instant(events: PhaseEvents) -> int:
    """The phase time at which the live storages (and the workspaces of the kernel running)
    sum highest, without the allocator's pooling (which holds freed storages a while longer):
    where the peak is, not how high."""
    t = np.concatenate([2 * events.alloc_t, 2 * events.free_t + 1, 2 * events.work_t,
                        2 * events.work_t + 1])
    s = np.concatenate([events.alloc_s, -events.free_s, events.work_s, -events.work_s])
    if not len(t):
        return -1
    order = np.argsort(t, kind="stable")
    return int(t[order][int(np.argmax(np.cumsum(s[order])))] // 2)
