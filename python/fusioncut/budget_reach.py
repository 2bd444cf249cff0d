"""The plans in reach between the sweep's neighbouring cuts: every minimum cut at a
breakpoint, a knapsack over them, and a bounded search above a hull edge.

Between two neighbouring hull cuts every plan on the hull's edge is a minimum cut at their
breakpoint, and those are exactly the closures of the strongly connected components of the
residual graph there (Picard and Queyranne; ``NodeCutGraph.solve_components``): a chain such
as an unrolled LSTM's yields one plan per link, N identical layers N + 1 plans. The breakpoint
solve drops the tie-break and scales the two sides so that both cuts cost exactly the same
(integers: bytes x dR and prices x dM, divided by their gcd; quantised by powers of two when a
product would pass 2**52, which only coarsens ties). Each component adds ``dm`` bytes and
removes ``dm x dR / dM`` of recomputation, so on an edge the best plan for a byte limit is the
closure keeping the most bytes under it: a precedence-constrained subset sum (``_Gap``).

- The components split into groups no arc joins. A group's closures are enumerated (ids fall
  along every arc, so a depth-first walk in id order decides each component after everything
  it forces) up to ``_MAX_CLOSURES`` per group; a larger group offers the prefixes of its ids
  (every prefix is a closure) besides the closures enumerated: a bounded heuristic.
- Across groups, a dynamic programme over the reachable byte totals (each group takes one of
  its closures) is exact while it holds at most ``_MAX_TOTALS`` totals; beyond, totals closer
  than (range / ``_MAX_TOTALS``) merge into the smaller, so a limit loses at most that much per
  group processed after the merge began.

Above the hull. A budget's exact optimum can lie above the edge across it: it spends the slack
on a tensor whose bytes per second of recomputation are worse than the edge's, or frees a few
bytes of a plan just over the limit elsewhere, and no minimum cut at the breakpoint reaches
it. ``Generator._above`` (a bounded heuristic, used by ``best_within``) solves restricted
problems around the knapsack's plan: some recomputations fixed off (a switch of infinite
weight), some saves forbidden (a node of infinite weight), each swept and its edge across the
limit split by its own knapsack, up to ``_ROUNDS`` problems of each kind and two levels deep.
Its cost is kept to tens of milliseconds on a few thousand nodes (a 12-layer GPT's byte budgets
took 0.25-0.49 s a partition before, 10-16x a runtime partition): candidates are compared by
their previews (bytes and seconds; only the plan returned gets a peak estimate); a restricted
problem is swept only towards its edge across the limit (a hull cut left of one that fits keeps
less and recomputes more); a problem is skipped when one minimum cut bounds every plan of it
that fits, by Lagrangian duality, within ``_SLACK`` of the best plan's price so far, and the
hull edge its sweep finds bounds its trims and later fill rounds the same way (restrictions
only shrink a problem); the best plan is shared by the link's sweeps; the knapsack runs in C++
(``_core.gap_knapsack``); a trim's least-storage cut is solved first (a trim that keeps too
much to fit ends there); an edge's knapsack is skipped when the edge's value at the limit is
no lower than the best plan's price (its plans lie on the edge's line); the scan for plans
under the limit starts at the last cut the network counts below it. The bounds are in the
network's prices, which the evaluator's seconds follow but do not equal. On the bench models
the skip's slack moved 4 of 50 byte-budget plans, each by under 0.11% of its seconds.

``Generator`` holds the sweep's cuts (previewed at once, scored when ``points`` is first read)
and builds a gap's programme when a target or a listing first needs it.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from fusioncut import _core
from fusioncut._solver import INF
from fusioncut.budget_plans import (
    BudgetNetwork, Evaluator, FrontierPoint, SweepCut, members, storage_bytes, sweep,
)
from fusioncut.cost import CostModel
from fusioncut.graph import JointGraph

__all__ = ["Best", "Generator"]

_MAX_CLOSURES = 512  # closures enumerated per group of components
_MAX_TOTALS = 4096  # byte totals the knapsack keeps per group step
_BREAKPOINT_BITS = 52  # the largest weight of a breakpoint solve, in bits
_ROUNDS = 4  # restricted problems of each kind that look above a hull edge (``_above``)
_SLACK = 0.002  # a restricted problem that cannot beat the best plan by more is skipped


class _Gap:
    """The plans between two neighbouring hull cuts ``lo`` and ``hi``: closures of the
    residual components at their breakpoint, chosen by a subset-sum programme over bytes."""

    def __init__(self, gen: Generator, lo: SweepCut, hi: SweepCut, fixed: np.ndarray | None = None,
                 forbid: np.ndarray | None = None):
        self.gen = gen
        # Until _build finds the breakpoint: no plans (two cuts whose lines do not cross,
        # as a restricted problem's may not, leave the gap empty).
        self.totals = np.zeros(0, dtype=np.int64)  # reachable byte totals, ascending
        self.shift = 0  # totals are in bytes >> shift
        self.base = 0  # bytes every plan of the gap keeps
        self.options: list[list[list[int]]] = []  # per group: the closures (component lists)
        self.steps: list[tuple[np.ndarray, np.ndarray]] = []  # per group: (parent, option)
        self._plans: dict[int, FrontierPoint] = {}
        self._closures: dict[int, SweepCut] = {}
        # A restricted problem: ``fixed`` priced nodes are never recomputed, ``forbid`` joint
        # nodes never saved.
        self.fixed = np.zeros(len(gen.price_bytes), dtype=bool) if fixed is None else fixed
        self.saveable = (gen.storage_w < INF) & (True if forbid is None else ~forbid)
        self._build(lo, hi)

    def _scaled(self, lo: SweepCut, hi: SweepCut):
        """Tie-free weights at which ``lo`` and ``hi`` cost exactly the same, or None. The two
        cuts need not be nested (with offloading): their lines are compared, not their sets."""
        gen = self.gen
        s, e, o = gen.storage, gen.price_bytes, gen.offload_bytes
        bnet = gen.bnet
        for shift in range(64):
            q, p, t = s >> shift, e >> shift, o >> shift
            d_m, d_r = (a - b for a, b in zip(_line(bnet, hi, q, p, t), _line(bnet, lo, q, p, t)))
            d_r = -d_r
            if d_m <= 0 or d_r <= 0:
                return None
            g = math.gcd(d_m, d_r)
            wq, wp = d_r // g, d_m // g
            top = max(int(p.max(initial=0)), int(t.max(initial=0)))
            if max(int(q.max(initial=0)) * wq, top * wp) < 2 ** _BREAKPOINT_BITS:
                self.shift = shift
                return q, p, t, wq, wp
        return None

    def _build(self, lo: SweepCut, hi: SweepCut) -> None:
        scaled = self._scaled(lo, hi)
        if scaled is None:
            return
        q, p, t, wq, wp = scaled
        gen = self.gen
        n = len(q)
        finite = self.saveable
        weights = gen.bnet.weights_at(np.where(finite, q * wq, INF),
                                      np.where(self.fixed, INF, p * wp), t * wp)
        _, mc = gen.bnet.solver.solve_components(weights, function="fusioncut.budget")
        cin, cout = mc.component_in.astype(np.int64), mc.component_out.astype(np.int64)
        # Only device bytes count: a value whose chain is cut has both sides of its own arc
        # on the source side, so its bytes cancel.
        m_of = np.concatenate([q, np.zeros(len(weights) - n, dtype=np.int64)])
        additive = mc.saturated & (weights > 0) & (weights < INF)
        value = np.zeros(mc.count, dtype=np.int64)
        for comp, sign in ((cin, 1), (cout, -1)):
            sel = additive & (comp >= 0)
            value += sign * np.bincount(comp[sel], weights=m_of[sel],
                                        minlength=mc.count).astype(np.int64)
        self.cin, self.cout, self.n, self.count = cin, cout, n, mc.count
        base_in, base_out = cin[:n] == -1, cout[:n] == -1
        self.base = int(q[np.flatnonzero(base_in & ~base_out & finite)].sum())
        # The subset-sum programme over the components (the module docstring's rules).
        self.totals, self.options, parents, opts = _core.gap_knapsack(
            value, mc.dag_tail.astype(np.int64), mc.dag_head.astype(np.int64), _MAX_CLOSURES,
            _MAX_TOTALS)
        self.steps = list(zip(parents, opts))

    def closure(self, k: int) -> SweepCut:
        """The plan of the ``k``-th reachable total, as a cut (``lam`` NaN)."""
        picked: list[int] = []
        i = k
        for g in range(len(self.steps) - 1, -1, -1):
            parents, opts = self.steps[g]
            picked += self.options[g][opts[i]]
            i = parents[i]
        chosen = np.zeros(self.count + 1, dtype=bool)
        chosen[picked] = True
        cin, cout, n = self.cin, self.cout, self.n
        side_in = (cin == -1) | ((cin >= 0) & chosen[np.maximum(cin, 0)])
        side_out = (cout == -1) | ((cout >= 0) & chosen[np.maximum(cout, 0)])
        cut = side_in & ~side_out
        cut[:n] &= self.saveable
        return self.gen.bnet.sweep_cut(np.flatnonzero(cut), side_in, side_out, math.nan)

    def plan(self, k: int) -> FrontierPoint:
        if k not in self._plans:
            c = self._closures.pop(k, None) or self.closure(k)
            self._plans[k] = self.gen.evaluate.point(c.saved, None, c.offloaded)
        return self._plans[k]

    def preview(self, k: int) -> FrontierPoint:
        """``plan(k)`` without its peak unless it was scored (``Evaluator.preview``)."""
        if k in self._plans:
            return self._plans[k]
        c = self._closures.get(k)
        if c is None:  # kept until the plan is scored
            c = self._closures[k] = self.closure(k)
        return self.gen.evaluate.preview(c.saved, c.offloaded)

    def best(self, limit: int) -> int:
        """The index of the reachable total keeping the most bytes (so recomputing least)
        whose plan saves at most ``limit`` bytes; -1 when none does."""
        k = int(np.searchsorted(self.totals, limit - self.base, side="right")) - 1
        for _ in range(8):  # quantised or double-counted bytes: step down until it fits
            if k < 0 or self.preview(k).saved_bytes <= limit:
                return k
            k -= 1
        return -1

    def spread(self, most: int) -> list[tuple[int, int]]:
        """At most ``most`` of the reachable totals, spread evenly, most bytes first, as
        ``(bytes the network counts, k)``: ``plan(k)`` evaluates one."""
        if len(self.totals) == 0:
            return []
        ks = np.unique(np.rint(np.linspace(0, len(self.totals) - 1,
                                           min(most, len(self.totals)))).astype(int))
        return [(int(self.base + self.totals[k]) << self.shift, int(k)) for k in ks[::-1]]


class Generator:
    """The plans in reach of one budget network at one set of sizes: the sweep's cuts
    (evaluated at once) and the gaps between neighbours (built when first asked for)."""

    def __init__(self, graph: JointGraph, bnet: BudgetNetwork, costs: CostModel,
                 static: np.ndarray, runtime_saved: np.ndarray, numel=None,
                 evaluate: Evaluator | None = None):
        self.graph, self.bnet = graph, bnet
        self.evaluate = Evaluator(graph, bnet, costs, static, numel) if evaluate is None \
            else evaluate
        self.storage = storage_bytes(graph, static, self.evaluate.nbytes)
        exact = np.minimum(self.storage, costs.max_exact_cost)
        self.storage_w = np.where(costs.finite, exact * costs.scale + costs.tie,
                                  INF).astype(np.int64)
        self._scale = max(costs.scale, 1)
        self.price_bytes = bnet.prices // self._scale
        self.offload_bytes = bnet.offload_prices // self._scale
        limit = int(self.storage_w[runtime_saved].sum())
        self.cuts, _, self.solves = sweep(bnet, self.storage_w, limit)
        # The cuts' plans but for their peaks (a byte budget compares no more); ``points``
        # scores them when first read.
        self.previews = [dataclasses.replace(self.evaluate.preview(c.saved, c.offloaded),
                                             lam=c.lam) for c in self.cuts]
        self._points: list[FrontierPoint] | None = None
        self._gaps: dict[int, _Gap] = {}

    @property
    def points(self) -> list[FrontierPoint]:
        """The sweep's cuts as plans, scored (peaks estimated), least storage first."""
        if self._points is None:
            self._points = [self.evaluate.point(c.saved, c.lam, c.offloaded)
                            for c in self.cuts]
        return self._points

    def gap(self, k: int) -> _Gap:
        """The plans between cut ``k - 1`` and cut ``k`` (``1 <= k < len(cuts)``)."""
        if k not in self._gaps:
            self._gaps[k] = _Gap(self, self.cuts[k - 1], self.cuts[k])
        return self._gaps[k]

    def best_within(self, limit: int, best: Best | None = None) -> FrontierPoint | None:
        """The plan that recomputes least among those saving at most ``limit`` bytes (None
        when none does): the sweep's cuts that fit, the knapsack's plan on the edge across
        the limit, and the plans above that edge ``_above`` finds. Candidates are compared
        by their previews; the plan returned may be one (``peak`` None: ``Evaluator.point``
        scores it). ``best``: the best of other generators' plans, offered first (the search
        above the edge skips what cannot beat it)."""
        fits = [k for k, p in enumerate(self.previews) if p.saved_bytes <= limit]
        best = Best() if best is None else best
        if not fits:
            return best.point
        for k in fits:
            best.offer(self.previews[k])
        k = fits[-1] + 1
        if k < len(self.cuts):
            gap = self.gap(k)
            j = gap.best(limit)
            if j >= 0:
                best.offer(gap.preview(j))
                self._above(k, gap, j, limit, best)
        return best.point

    def _above(self, k: int, gap: _Gap, j: int, limit: int, best: Best) -> None:
        """Offer ``best`` the plans above the hull's edge between cuts ``k - 1`` and ``k``
        (which no minimum cut there reaches) that fit ``limit``, around the knapsack's plan
        ``j`` (a bounded heuristic): restricted problems, each swept and its edge across the
        limit split by its own knapsack (``_reach``), unless its Lagrangian bound says none of
        its plans recomputes less than the best so far.

        fill  spend the bytes plan ``j`` leaves on something else: recomputation limited to
              what the plan recomputes, swept above the breakpoint; for ``_ROUNDS`` rounds the
              further saves of the first cut over the limit are forbidden;
        trim  from each of the ``_ROUNDS`` totals above the limit, keep what the gap's
              components stopped recomputing and sweep below the breakpoint: the plans that
              free the excess bytes elsewhere."""
        plan = gap.closure(j)
        saved, side_in = plan.kept, plan.side_in
        lo, hi = self.cuts[k - 1], self.cuts[k]
        (_, w_lo, r_lo), (_, w_hi, r_hi) = (self._line(c) for c in (lo, hi))
        lam = (w_hi - w_lo) / max(r_lo - r_hi, 1)
        priced = self.bnet.priced
        forbid = np.zeros(len(self.storage), dtype=bool)
        over = hi.kept
        beyond = members(len(forbid), over, but=saved)  # what the cut over the limit adds
        for _ in range(_ROUNDS):
            forbid[beyond] = True
            # Each round forbids more: once a round cannot beat the best, none after it can.
            over = self._reach(limit, lam, None, side_in[priced], forbid, best)
            if over is None:
                break
            beyond = members(len(forbid), over, but=saved)
            if not len(beyond):
                break
        for jj in range(j + 1, min(j + 1 + _ROUNDS, len(gap.totals))):
            up_in = gap.closure(jj).side_in
            self._reach(limit, 0.0, lam, (up_in & ~lo.side_in)[priced], None, best)

    def _reach(self, limit: int, lam_lo: float, lam_hi: float | None, fixed: np.ndarray,
               forbid: np.ndarray | None, best: Best, depth: int = 2) -> np.ndarray | None:
        """Offer ``best`` the plans fitting ``limit`` of a restricted problem (``_Gap``'s
        ``fixed`` and ``forbid``) swept over [lam_lo, lam_hi]: its cuts, its edge's best
        knapsack plan and, ``depth`` levels down, the same trim from that edge's totals above
        the limit. Returns the saved set of its first cut over the limit (None if none, or
        when the problem is skipped: ``_bound`` says no plan of it fitting ``limit``
        recomputes less than ``best``; its further restrictions recompute no less)."""
        w = np.where(forbid, INF, self.storage_w) if forbid is not None else self.storage_w
        top = (limit + 1) * self._scale
        ends: tuple[SweepCut, ...] = ()
        if lam_lo == 0:  # the least storage first: many trims keep too much to fit at all
            least = self.bnet.solve(0.0, w, fixed)
            self.solves += 1
            if self.bnet.line(least, w)[0] >= top and self.evaluate.preview(
                    least.saved, least.offloaded).saved_bytes > limit:
                return None
            ends = (least,)
        bound, solved = self._bound(lam_lo if lam_lo > 0 else lam_hi, w, fixed, limit)
        if self._beaten(bound, best):
            return None
        if solved is not None:
            ends += (solved,)
        cuts, lines, solves = sweep(self.bnet, w, top, lam_lo=lam_lo, fixed=fixed,
                                    lam_hi=lam_hi, edge_only=True, solved=ends)
        self.solves += solves
        # The sweep's cuts are nested: one left of another below the limit keeps less and
        # recomputes more, so the scan starts at the last cut the network counts below it
        # (from the first when that one's own bytes do not fit after all).
        start = max(sum(1 for m, _ in lines if m < top) - 1, 0)
        if start > 0 and self.evaluate.preview(cuts[start].saved,
                                               cuts[start].offloaded).saved_bytes > limit:
            start = 0
        below = None
        for c, (w_c, r_c) in zip(cuts[start:], lines[start:]):
            p = self.evaluate.preview(c.saved, c.offloaded)
            if p.saved_bytes <= limit:
                best.offer(p)
                below, w_b, r_b = c, w_c, r_c
                continue
            if below is not None:
                # The edge's plans lie on its line: its value at the limit bounds them all, and
                # every plan of this problem and its restrictions.
                edge = r_b + (r_c - r_b) * (top - w_b) / (w_c - w_b) \
                    if w_b <= top < w_c else -math.inf
                if edge >= best.price(self.bnet):
                    return None  # the knapsack cannot beat the best either
                gap = _Gap(self, below, c, fixed, forbid)
                j = gap.best(limit)
                if j >= 0:
                    best.offer(gap.preview(j))
                if self._beaten(edge, best):
                    return None
                if depth > 0:
                    lam = (w_c - w_b) / max(r_b - r_c, 1)
                    for jj in range(j + 1, min(j + 1 + _ROUNDS, len(gap.totals))):
                        up = (gap.closure(jj).side_in & ~below.side_in)[self.bnet.priced]
                        self._reach(limit, 0.0, lam, fixed | up, forbid, best, depth - 1)
            return c.kept
        return None

    def _bound(self, lam: float | None, w: np.ndarray, fixed: np.ndarray, limit: int
               ) -> tuple[float, SweepCut | None]:
        """A lower bound on the recompute and transfer price (the network's ``r``, as
        ``BudgetNetwork.line`` counts it) of every cut of the problem with storage weights
        ``w`` and ``fixed`` whose storage weight fits ``limit``, and the cut it came from (the
        sweep's first): by Lagrangian duality, one minimum cut at ``lam`` (value ``L``) bounds
        them all by ``(L - W) / lam``. -inf (and no cut) when ``lam`` is not positive."""
        if lam is None or not lam > 0:
            return -math.inf, None
        cut = self.bnet.solve(lam, w, fixed)
        self.solves += 1
        w_c, r_c = self.bnet.line(cut, w)
        if w_c >= INF:
            return -math.inf, cut
        return r_c + (w_c - (limit + 1) * self._scale) / lam, cut

    def _beaten(self, bound: float, best: Best) -> bool:
        """Whether a problem whose plans all cost at least ``bound`` (in the network's prices)
        cannot beat ``best`` by more than ``_SLACK`` of its price."""
        return bound >= best.price(self.bnet) * (1.0 - _SLACK)

    def _line(self, c: SweepCut) -> tuple[SweepCut, int, int]:
        return (c, *self.bnet.line(c, self.storage_w))


class Best:
    """The plan adding the fewest seconds among those offered (``best_within``; the first of
    equals), and its price in a network's units (what ``Generator._bound`` compares with)."""

    def __init__(self):
        self.point: FrontierPoint | None = None
        self._prices: dict[int, int] = {}

    def offer(self, p: FrontierPoint) -> None:
        if self.point is None or p.seconds < self.point.seconds:
            self.point, self._prices = p, {}

    def price(self, bnet: BudgetNetwork) -> float:
        """The best plan's ``BudgetNetwork.price`` in ``bnet`` (inf before any offer)."""
        if self.point is None:
            return math.inf
        if id(bnet) not in self._prices:
            self._prices[id(bnet)] = bnet.price(self.point.recomputed, self.point.offloaded)
        return self._prices[id(bnet)]


def _line(bnet: BudgetNetwork, c: SweepCut, q: np.ndarray, p: np.ndarray, t: np.ndarray
          ) -> tuple[int, int]:
    """``(M, R)`` of cut ``c`` in the units ``q`` (storage), ``p`` (recompute prices of the
    priced nodes) and ``t`` (transfer prices of the offload nodes)."""
    p_of = np.zeros(len(q), dtype=np.int64)
    p_of[bnet.priced] = p
    r = int(p_of[~c.side_in].sum())
    if len(c.offloaded):
        r += int(t[np.searchsorted(bnet.offload.nodes, c.offloaded)].sum())
    return int(q[c.kept].sum()), r
