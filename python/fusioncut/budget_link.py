"""Plans in reach when the host link can be over-subscribed: one sweep per link multiplier.

The budget network prices each offloaded value alone (``offload_link.Link.prices``), as if
the link had room for every transfer. ``Evaluator.point`` scores each plan with the link's
true cost, so a plan that offloads more than its phases' compute hides is charged the excess.
When a sweep finds such a plan, the offload price is raised by the link's Lagrange multiplier
``mu`` (one more direction's hidden part charged in full) and the network swept again, up to
``mu = Link.directions()`` (nothing hidden): the raised sweeps find the plans that keep or
recompute what the link cannot carry. ``generator`` returns a plain ``Generator`` when nothing may
be offloaded, else a ``LinkedGenerator``::

    parts     one Generator per multiplier swept, mu = 0, 0.25, 0.5, 1, 2 (``_ladder``)
    points    the union of their sweep cuts, Pareto in (device bytes kept, seconds added to
              the step: bytes moved, recomputation and true transfer time, estimated peak),
              least bytes first,
              without a plan that peaks no lower than the one with more bytes before it and
              adds more time (it lowers device bytes only)
    gap(k)    the plans of every part's gaps whose bytes lie between points k - 1 and k
              (an offloading part's gap only where one of its ends offloads)
              (the parts reaching into it share the 48 plans one sweep's gap offers)
    best_within(limit)   the best of every part's, by true seconds

The ladder ends with the network whose chains are closed (``mu`` infinite: only
MUST_CPU_OFFLOAD values go to the host), so every plan recomputation alone reaches stays in
reach: the cut weighs device bytes, and an offloaded value whose reload torch's prefetch pulls
to the backward's start (or whose device copy torch's sunk wait holds through the forward)
lowers them without lowering the peak, which only the peak filter sees. The multipliers form a
short ladder, not a search: between two rungs the union may miss a plan a finer multiplier
would find (docs/design.md, "Offload").
"""

from __future__ import annotations

import numpy as np

from fusioncut.budget_plans import BudgetNetwork, FrontierPoint
from fusioncut.budget_reach import Best, Generator
from fusioncut.cost import CostModel
from fusioncut.graph import JointGraph

__all__ = ["LinkedGenerator", "generator"]


def generator(graph: JointGraph, bnet: BudgetNetwork, costs: CostModel, static: np.ndarray,
              runtime_saved: np.ndarray, numel=None) -> Generator | LinkedGenerator:
    """The plans in reach of ``bnet`` (see the module docstring)."""
    first = Generator(graph, bnet, costs, static, runtime_saved, numel)
    if bnet.offload is None:
        return first

    def part(net: BudgetNetwork) -> Generator:
        return Generator(graph, net, costs, static, runtime_saved, numel, first.evaluate)

    parts = [first]
    for mu in _ladder(bnet.offload.link.directions()):
        if not any(p.oversubscribed for p in parts[-1].previews):
            break
        parts.append(part(bnet.with_mu(mu, costs.scale)))
    parts.append(part(bnet.without_offload()))
    return LinkedGenerator(parts)


def _ladder(directions: int) -> list[float]:
    """The multipliers swept after ``mu = 0``: quarter steps up to one direction charged in
    full, then whole ones (a link that hides most of each transfer over-subscribes at
    ``mu = 0`` by a little, and the plans that fit lie well below ``mu = 1``)."""
    return [0.25, 0.5] + [float(mu) for mu in range(1, directions + 1)] if directions else []


class _MergedGap:
    """The plans of several parts' gaps within one byte interval, as one gap."""

    def __init__(self, entries: list[tuple[int, object, int]]):
        self._entries = sorted(entries, key=lambda e: -e[0])

    def spread(self, most: int) -> list[tuple[int, int]]:
        return [(b, k) for k, (b, _, _) in enumerate(self._entries)]

    def plan(self, k: int) -> FrontierPoint:
        _, gap, j = self._entries[k]
        return gap.plan(j)

    def preview(self, k: int) -> FrontierPoint:
        _, gap, j = self._entries[k]
        return gap.preview(j)


class LinkedGenerator:
    """``Generator``'s interface over one sweep per link multiplier (module docstring)."""

    def __init__(self, parts: list[Generator]):
        self.parts = parts
        self.evaluate = parts[0].evaluate
        self.bnet = parts[0].bnet
        self.solves = sum(p.solves for p in parts)
        self._gaps: dict[int, _MergedGap] = {}
        # The union needs every part's peak estimates; a byte budget needs none of them
        # (``best_within``), so it is merged when first read.
        self._merged: tuple[list[FrontierPoint], list] | None = None

    @property
    def points(self) -> list[FrontierPoint]:
        return self._merge()[0]

    @property
    def cuts(self) -> list:
        return self._merge()[1]

    def _merge(self) -> tuple[list[FrontierPoint], list]:
        """The parts' sweep cuts as one list of points (and their cuts), least bytes first."""
        if self._merged is not None:
            return self._merged
        parts = self.parts
        every, keys = [], set()
        for part in parts:
            for k, p in enumerate(part.points):
                if p.key not in keys:
                    keys.add(p.key)
                    every.append((part, k))
        # A plan stays unless another holds no more bytes, adds no more time to the step and
        # peaks no higher, and is better in one of them. Time here is the whole step's
        # (``FrontierPoint.step_seconds``: the bytes moved too): plans of different sweeps move
        # different bytes, and an offloading plan that recomputes a little less but moves more
        # must not drop a recomputing one that runs faster.
        device = parts[0].bnet.offload.link.device
        score = np.array([(part.points[k].saved_bytes, part.points[k].step_seconds(device),
                           part.points[k].peak.peak) for part, k in every], dtype=np.float64)
        le = (score[None, :, :] <= score[:, None, :]).all(axis=2)
        lt = (score[None, :, :] < score[:, None, :]).any(axis=2)
        keep = ~(le & lt).any(axis=1)
        ranked = sorted((e for e, kept in zip(every, keep) if kept),
                        key=lambda e: (-e[0].points[e[1]].saved_bytes,
                                       e[0].points[e[1]].seconds))
        # From the most bytes down, a plan that peaks no lower and adds more time than the one
        # before it only lowers device bytes; as an anchor it would hide the plans between
        # that do lower the peak (a value offloaded whose reload comes back early).
        chosen: list[tuple[Generator, int]] = []
        for part, k in ranked:
            p = part.points[k]
            if chosen:
                q = chosen[-1][0].points[chosen[-1][1]]
                if p.peak.peak >= q.peak.peak and p.seconds > q.seconds:
                    continue
            chosen.append((part, k))
        chosen.reverse()
        self._merged = ([part.points[k] for part, k in chosen],
                        [part.cuts[k] for part, k in chosen])
        return self._merged

    def gap(self, k: int) -> _MergedGap:
        """The plans between point ``k - 1`` and point ``k`` from every part."""
        if k not in self._gaps:
            lo, hi = self.points[k - 1].saved_bytes, self.points[k].saved_bytes
            spans = []
            for part in self.parts:
                closed = part is self.parts[-1]
                for j in range(1, len(part.points)):
                    a, b = part.points[j - 1].saved_bytes, part.points[j].saved_bytes
                    if b <= lo or a >= hi:
                        continue
                    if not closed and not (len(part.cuts[j - 1].offloaded)
                                           or len(part.cuts[j].offloaded)):
                        continue  # neither end offloads: the chains-closed part has its plans
                    spans.append((part, j))
            # The parts that reach into this interval share what one sweep's gap offers alone,
            # so that a merged frontier evaluates about as many plans as a plain one; where
            # only the chains-closed part does, it offers a plain frontier's gap.
            quota = max(_PLANS_PER_GAP // max(len({id(part) for part, _ in spans}), 1), 1)
            entries = []
            for part, j in spans:
                gap = part.gap(j)
                entries += [(nb, gap, i) for nb, i in gap.spread(quota) if lo < nb < hi]
            self._gaps[k] = _MergedGap(entries)
        return self._gaps[k]

    def best_within(self, limit: int) -> FrontierPoint | None:
        best = Best()  # shared: each part's search skips what cannot beat the parts before
        for part in self.parts:
            part.best_within(limit, best)
        return best.point


_PLANS_PER_GAP = 48  # plans the parts' gaps offer together, as one sweep's gap does
