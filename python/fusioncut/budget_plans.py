"""The budget network and its parametric sweep: the cuts a memory budget starts from.

The budget problem is ``minimise R(S) subject to M(S) <= B``: ``M`` the activation bytes a plan
keeps for the backward (each storage once; graph inputs and static inputs are alive anyway and
count nothing: ``saved_activation_bytes``), ``R`` its recompute seconds on the device. Its
Lagrangian is a minimum cut (``budget_network``: saving node ``v`` costs the bytes it keeps,
recomputing it its price, on a switch node; only arcs out of the source carry ``lam``)::

    minimise  M(S) x K + tie  +  lam x R(S) x bandwidth x K

so the cuts are nested in ``lam`` (Gallo, Grigoriadis and Tarjan) and ``sweep`` finds every
vertex of the lower hull of (M, R) by intersecting cut lines (Eisner and Severance), from the
least storage (``lam = 0``) up to the first cut that keeps at least the runtime plan's bytes.

With offloading (``budget_network(..., offload=OffloadArcs)``), each value that may go to
host memory gets a second arc in series (``network.add_chains``): ``v_in -> v_out`` weighs
what keeping it on the device weighs, ``c_in -> c_out`` its exposed transfer seconds times
``lam`` (``offload_link``), so a cut through ``v`` pays the cheaper fate and which arc it cuts
says which. The ``lam``-dependent arc is interior now, so the cuts need not be nested; each
plan is still a line ``w + lam x r`` (``BudgetNetwork.line``) and the minimum-cut value their
concave lower envelope, so the sweep still finds every breakpoint and the device bytes kept
still grow along it (docs/design.md, "Offload").

``budget_reach`` takes it from there: every minimum cut at a breakpoint, the knapsack between
neighbouring cuts, and the search above a hull edge.
"""

from __future__ import annotations

import dataclasses
import math
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from fusioncut._solver import INF, NodeCut, NodeCutGraph
from fusioncut.cost import CostModel
from fusioncut.graph import JointGraph, Role, Value
from fusioncut.network import FlowNetwork, add_chains, prices_of, priced_network
from fusioncut.offload_link import OffloadArcs
from fusioncut.peak import PeakEstimate, phase_events, phases
from fusioncut.policy import BUDGET_LIFTS, Policy
from fusioncut.recompute import RecomputeModel

__all__ = ["BudgetNetwork", "Evaluator", "FrontierPoint", "SweepCut", "budget_network",
           "members", "saved_activation_bytes", "storage_bytes", "sweep"]

_MAX_SOLVES = 400
_NONE = np.zeros(0, dtype=np.int64)
_NONE.setflags(write=False)


@dataclass(frozen=True)
class FrontierPoint:
    """One plan of the frontier."""

    saved: np.ndarray  # int64 joint-node indices, ascending
    recomputed: np.ndarray  # int64 forward nodes the backward computes again, ascending
    lam: float | None  # the price scale at which the cut is minimal; None: not a sweep cut
    cost_bytes: int  # bytes moved by saving (the byte model, no tie-break)
    recompute_seconds: float  # estimated seconds of recomputation
    saved_bytes: int  # activation storage kept on the device for the backward (each once)
    peak: PeakEstimate  # None only on a preview (``Evaluator.preview``), never on a plan
    offloaded: np.ndarray = dataclasses.field(default_factory=lambda: _NONE)
    """int64 saved values sent to host memory, ascending (a subset of ``saved``)."""
    offloaded_bytes: int = 0  # bytes they move each way
    transfer_seconds: float = 0.0  # the host link's busy time, one way
    offload_seconds: float = 0.0  # seconds the step waits for the transfers, excess included
    link_excess_seconds: float = 0.0  # hidden transfer time that finds no compute to hide under
    peak_offloaded: np.ndarray = dataclasses.field(default_factory=lambda: _NONE)
    """int64 values of ``offloaded`` a peak target's search sent to host memory on top of a
    frontier point because the point holds them through its estimated peak (``budget_polish``);
    empty on the frontier's own plans."""

    @property
    def key(self) -> bytes:
        """What identifies the plan: its saved set and the values it offloads."""
        return self.saved.tobytes() + b"|" + self.offloaded.tobytes()

    @property
    def seconds(self) -> float:
        """Seconds the plan adds beyond moving its saved bytes: recomputation plus the
        transfers' exposed time (the link's over-subscription included)."""
        return self.recompute_seconds + self.offload_seconds

    @property
    def oversubscribed(self) -> bool:
        """Whether the plan's transfers exceed what the compute of their phase hides."""
        return self.link_excess_seconds > 0

    def step_seconds(self, device) -> float:
        """Estimated seconds the plan adds to a step: bytes moved, recomputation and the
        exposed transfers."""
        return self.cost_bytes / device.bandwidth + self.seconds


@dataclass(frozen=True)
class SweepCut:
    saved: np.ndarray  # every value handed to the backward, the offloaded ones included
    side_in: np.ndarray  # bool (n,): in-vertex on the source side
    side_out: np.ndarray
    lam: float
    offloaded: np.ndarray = dataclasses.field(default_factory=lambda: _NONE)
    """The saved values the cut sends to host memory."""
    solved: NodeCut | None = dataclasses.field(default=None, compare=False, repr=False)
    """The solver's cut of the whole network (price and offload nodes too): a bracket for
    the solves between this cut and another of the same sweep (``BudgetNetwork.solve``)."""

    @property
    def key(self) -> bytes:
        return self.saved.tobytes() + b"|" + self.offloaded.tobytes()

    @property
    def kept(self) -> np.ndarray:
        """The values the cut keeps on the device (saved, not offloaded)."""
        if not len(self.offloaded):
            return self.saved
        return members(len(self.side_in), self.saved, but=self.offloaded)




@dataclass
class BudgetNetwork:
    """The network with recompute prices, built once and re-solved per ``lam``."""

    graph: JointGraph
    network: FlowNetwork  # joint nodes, then one price node per entry of ``priced``
    priced: np.ndarray  # int64 joint nodes whose recomputation has a price
    weights: np.ndarray  # int64 (n,): saving weights, tie-break included (bytes moved)
    prices: np.ndarray  # int64 (len(priced),): recompute price x K at lam = 1
    recompute_seconds: np.ndarray  # float64 (n,)
    solver: NodeCutGraph
    offload: OffloadArcs | None = None  # None: nothing may go to host memory
    offload_prices: np.ndarray = dataclasses.field(default_factory=lambda: _NONE)
    """int64 per offload node: its transfer price x K at ``lam = 1``."""
    mu: float = 0.0  # the link's multiplier ``offload_prices`` include (offload_link)
    closed: np.ndarray | None = None  # bool per offload node: its chain may not be cut

    def at(self, weights: np.ndarray, prices: np.ndarray, seconds: np.ndarray) -> BudgetNetwork:
        """The same network (and solver) with weights, prices and recompute seconds at other
        sizes."""
        return dataclasses.replace(self, weights=weights, prices=prices,
                                   recompute_seconds=seconds)

    def with_mu(self, mu: float, scale: int) -> BudgetNetwork:
        """The same network with the link's multiplier ``mu`` in the offload prices."""
        off = self.offload
        seconds = off.link.prices(off.nbytes, mu)
        return dataclasses.replace(self, mu=mu, offload_prices=prices_of(
            np.rint(seconds * off.link.device.bandwidth), scale))

    def without_offload(self) -> BudgetNetwork:
        """The same network with only MUST_CPU_OFFLOAD values allowed to go to the host (the
        plans recomputation alone reaches, ``mu`` infinite)."""
        return dataclasses.replace(self, mu=math.inf, closed=~self.offload.forced)

    def weights_at(self, keep: np.ndarray, recompute: np.ndarray, offload: np.ndarray
                   ) -> np.ndarray:
        """The solver's weights: keeping each joint node, each price node's recomputation and
        each offload node's transfer (a forced offload never keeps its value; a closed chain
        is never cut)."""
        if self.offload is None:
            return np.concatenate([keep, recompute]).astype(np.int64)
        keep = keep.copy()
        keep[self.offload.nodes[self.offload.forced]] = INF
        if self.closed is not None:
            offload = np.where(self.closed, INF, offload)
        return np.concatenate([keep, recompute, offload]).astype(np.int64)

    def solve(self, lam: float, weights: np.ndarray, fixed: np.ndarray | None = None,
              between: tuple[SweepCut, SweepCut] | None = None) -> SweepCut:
        """The minimum cut at ``lam`` with saving weights ``weights``; ``fixed`` (bool over
        ``priced``) forbids recomputing those nodes. ``between``: two cuts of the same
        ``weights`` and ``fixed`` at a lower and a higher ``lam``; where only the price nodes'
        weights (attached to the source) depend on ``lam`` (``nested``), the solve runs on
        the band between them (``NodeCutGraph._solve_between``), with the same result."""
        aux = np.minimum(np.rint(lam * self.prices.astype(np.float64)), INF // 4)
        if fixed is not None:
            aux[fixed] = INF
        off = np.minimum(np.rint(lam * self.offload_prices.astype(np.float64)), INF // 4)
        w = self.weights_at(weights, aux, off)
        lower, upper = between if between is not None else (None, None)
        if lower is not None and lower.solved is not None and upper.solved is not None \
                and lower.lam < lam < upper.lam and self.nested:
            cut = self.solver._solve_between(w, lower.solved, upper.solved,
                                             function="fusioncut.budget")
        else:
            cut = self.solver.solve_int64(w, function="fusioncut.budget")
        return self.sweep_cut(cut.cut_nodes, cut.source_side_in, cut.source_side_out, lam,
                              cut)

    @property
    def nested(self) -> bool:
        """Whether the cuts nest in ``lam``: the weights that grow with it are the price
        nodes' alone, each attached to the source. An offload chain's transfer weight grows
        with ``lam`` too, and the chain lies inside the network (a value goes from the host
        back to the device as ``lam`` rises: its out-side leaves the source side), so a
        network with an open chain whose price is not zero does not nest."""
        if self.offload is None:
            return True
        moving = self.offload_prices > 0
        if self.closed is not None:
            moving &= ~self.closed
        return not moving.any()

    def sweep_cut(self, cut_nodes: np.ndarray, side_in: np.ndarray, side_out: np.ndarray,
                  lam: float, solved: NodeCut | None = None) -> SweepCut:
        """A cut of the solver's network as a plan: the joint nodes it keeps and those whose
        chain it cuts (offloaded), together ``saved``."""
        n = self.graph.num_nodes
        kept = cut_nodes[cut_nodes < n]
        offloaded = _NONE
        if self.offload is not None:
            first = n + len(self.priced)
            chains = cut_nodes[cut_nodes >= first] - first
            if len(chains):
                offloaded = members(n, self.offload.nodes[chains], but=kept)
        saved = members(n, kept, offloaded) if len(offloaded) else kept  # kept is ascending
        return SweepCut(saved=saved.astype(np.int64), side_in=side_in[:n],
                        side_out=side_out[:n], lam=lam, offloaded=offloaded, solved=solved)

    def line(self, cut: SweepCut, storage_w: np.ndarray) -> tuple[int, int]:
        """``(w, r)``: the cut's value at ``lam`` is ``w + lam x r`` (storage weight of what it
        keeps on the device; recompute and transfer prices at ``lam = 1``)."""
        return int(storage_w[cut.kept].sum()), self.price(~cut.side_in, cut.offloaded)

    def price(self, recomputed: np.ndarray, offloaded: np.ndarray) -> int:
        """``line``'s ``r`` of a plan that recomputes the joint nodes ``recomputed`` (indices
        or a mask) and offloads ``offloaded``: their recompute and transfer prices at
        ``lam = 1``."""
        r = int(self._price_of()[recomputed].sum())
        if len(offloaded):
            r += int(self.offload_prices[np.searchsorted(self.offload.nodes, offloaded)].sum())
        return r

    def _price_of(self) -> np.ndarray:
        cached = self.__dict__.get("_price_cache")
        if cached is None or cached[0] is not self.prices:
            price_of = np.zeros(self.graph.num_nodes, dtype=np.int64)
            price_of[self.priced] = self.prices
            cached = (self.prices, price_of)
            self.__dict__["_price_cache"] = cached
        return cached[1]


def budget_network(graph: JointGraph, policy: Policy, costs: CostModel, base: FlowNetwork,
                   model: RecomputeModel, offload: OffloadArcs | None = None) -> BudgetNetwork:
    """``base`` (decide's network) with the bans a budget lifts turned into prices, and a
    chain after each value ``offload`` lets go to host memory."""
    hard = np.fromiter((r is not None and r.kind not in BUDGET_LIFTS for r in policy.ban),
                       dtype=bool, count=graph.num_nodes)
    lifted = FlowNetwork(base.src, base.dst, base.source_in & hard, base.sink_in, base.sink_out)
    net, priced, prices = priced_network(graph, lifted, model.costly,
                                         model.byte_equivalents(graph), costs.scale)
    if offload is not None and len(offload.nodes):
        net = add_chains(net, offload.nodes)
    else:
        offload = None
    solver = NodeCutGraph(net.num_nodes, net.src, net.dst, source_in=net.source_in,
                          sink_in=net.sink_in, sink_out=net.sink_out)
    bnet = BudgetNetwork(graph=graph, network=net, priced=priced,
                         weights=costs.weights(graph.nbytes), prices=prices,
                         recompute_seconds=model.seconds(graph), solver=solver, offload=offload)
    return bnet if offload is None else bnet.with_mu(0.0, costs.scale)


def storage_bytes(graph: JointGraph, static: np.ndarray, nbytes: np.ndarray) -> np.ndarray:
    """int64 (n,): the bytes saving node ``v`` keeps alive, its storage base's; 0 for what is
    alive anyway (graph inputs, static inputs and their views) and for non-tensors."""
    base = graph.base
    counted = (graph.value == Value.TENSOR) & (graph.role[base] > Role.CONSTANT) & ~static[base]
    return np.where(counted, nbytes[base], 0).astype(np.int64)


def saved_activation_bytes(graph: JointGraph, saved: np.ndarray, static: np.ndarray,
                           nbytes: np.ndarray | None = None) -> int:
    """Storage the backward keeps: each saved tensor's base once, graph inputs and static
    inputs excluded (they are alive anyway)."""
    base = graph.base[saved]
    keep = (graph.value[saved] == Value.TENSOR) & (graph.role[base] > Role.CONSTANT) \
        & ~static[base]
    nbytes = graph.nbytes if nbytes is None else nbytes
    counted = np.zeros(graph.num_nodes, dtype=bool)
    counted[base[keep]] = True
    return int(nbytes[counted].sum())


class Evaluator:
    """Turns saved sets into ``FrontierPoint``s (recomputation, bytes, peak) at element
    counts ``numel`` (the size hints by default)."""

    def __init__(self, graph, bnet, costs, static, numel=None):
        self.graph, self.bnet, self.static = graph, bnet, static
        self.numel = graph.numel if numel is None else numel
        self.nbytes = self.numel * graph.itemsize
        self.cost = costs.costs(self.nbytes)
        # Per node, what ``recomputed`` and ``saved_activation_bytes`` test on every plan.
        self._forward = graph.role == Role.FORWARD
        base = graph.base
        self._counts = (graph.value == Value.TENSOR) & (graph.role[base] > Role.CONSTANT) \
            & ~static[base]
        self._seen: dict[bytes, FrontierPoint] = {}  # sweeps at several multipliers share plans
        self._parts: dict[bytes, FrontierPoint] = {}  # previewed plans, not yet scored
        # The walks of the plans scored last, newest at the end, and their bytes (``events``).
        self._walks: OrderedDict[bytes, tuple] = OrderedDict()
        self._walk_bytes = 0

    def point(self, saved: np.ndarray, lam: float | None,
              offloaded: np.ndarray | None = None) -> FrontierPoint:
        """The plan handing ``saved`` to the backward, ``offloaded`` (a subset) through host
        memory, scored: bytes kept on the device, recomputation, the link's true cost
        (``offload_link.Link.cost``) and the peak."""
        saved, away, key = self._key(saved, offloaded)
        found = self._seen.get(key)
        if found is None:
            part = self._parts.pop(key, None) or self._measure(saved, away)
            found = self._seen[key] = dataclasses.replace(
                part, peak=self._peak(part.saved, part.offloaded))
        return found if found.lam == lam else dataclasses.replace(found, lam=lam)

    def preview(self, saved: np.ndarray, offloaded: np.ndarray | None = None) -> FrontierPoint:
        """``point(saved, None, offloaded)`` without its peak (``peak`` None) unless the plan
        was scored before: the bytes, recomputation and link cost, which a walk may reject a
        plan on before paying for its peak estimate (kept until ``point`` scores the plan)."""
        saved, away, key = self._key(saved, offloaded)
        found = self._seen.get(key) or self._parts.get(key)
        if found is None:
            found = self._parts[key] = self._measure(saved, away)
        return found

    @staticmethod
    def _key(saved, offloaded) -> tuple[np.ndarray, np.ndarray, bytes]:
        saved = np.sort(np.asarray(saved, dtype=np.int64))
        away = _NONE if offloaded is None else np.asarray(offloaded, dtype=np.int64)
        return saved, away, _plan_key(saved, away)

    def events(self, point: FrontierPoint):
        """``peak.phase_events`` of ``point``: the walk its estimated peak came from, kept
        from the scoring for the plans scored last (up to ``_WALK_CACHE_BYTES`` of them: the
        peak search asks for the points it starts from, scored by the frontier before it),
        else walked again."""
        walk = self._walks.get(_plan_key(point.saved, point.offloaded))
        if walk is not None:
            return walk
        return phase_events(self.graph, point.saved, self.numel,
                            offloaded=self._values(point.offloaded))

    def _values(self, away: np.ndarray):
        """The offloaded values ``away`` as the peak estimate reads them (None: none)."""
        return self.bnet.offload.link.values(away, self.nbytes) if len(away) else None

    def _measure(self, saved: np.ndarray, offloaded: np.ndarray) -> FrontierPoint:
        """The plan scored but for its peak (``peak`` None)."""
        graph = self.graph
        split = phases(graph, saved)
        # A cut may pass through a node of no weight that the backward never reads (an input
        # once the tie-break is dropped): emission would drop that save, so the plan does.
        read = graph.bwd_output.copy()
        read[graph.edge_src[split[1][graph.edge_dst]]] = True
        if not read[saved].all():
            saved = saved[read[saved]]
            split = phases(graph, saved)
        again = np.flatnonzero(split[0] & split[1] & self._forward)  # ``recomputed``
        n = graph.num_nodes
        away = _NONE if not len(offloaded) else members(n, offloaded, within=saved)
        kept = members(n, saved, but=away) if len(away) else saved
        counted = np.zeros(n, dtype=bool)  # ``saved_activation_bytes``: each storage once
        counted[graph.base[kept[self._counts[kept]]]] = True
        extra: dict = {}
        if len(away):
            moved = int(self.nbytes[away].sum())
            cost = self.bnet.offload.link.cost(moved)
            extra = dict(offloaded=away, offloaded_bytes=moved,
                         transfer_seconds=cost.transfer_seconds,
                         offload_seconds=cost.exposed_seconds,
                         link_excess_seconds=cost.excess_seconds)
        return FrontierPoint(
            saved=saved, recomputed=again, lam=None, cost_bytes=int(self.cost[saved].sum()),
            recompute_seconds=float(self.bnet.recompute_seconds[again].sum()),
            saved_bytes=int(self.nbytes[counted].sum()), peak=None, **extra)

    def _peak(self, saved: np.ndarray, away: np.ndarray) -> PeakEstimate:
        """``peak.estimate_peak`` of the plan, its walk kept for ``events``."""
        walk = phase_events(self.graph, saved, self.numel, offloaded=self._values(away))
        self._keep_walk(_plan_key(saved, away), walk)
        forward, backward, kept = walk
        return PeakEstimate(forward_peak=forward.peak(), backward_peak=backward.peak(),
                            kept_bytes=kept)


    def _keep_walk(self, key: bytes, walk: tuple) -> None:
        """Keep ``walk`` for ``events``, dropping the oldest walks beyond
        ``_WALK_CACHE_BYTES`` (the newest is always kept)."""
        size = sum(_events_bytes(events) for events in walk[:2])
        old = self._walks.pop(key, None)
        if old is not None:
            self._walk_bytes -= sum(_events_bytes(events) for events in old[:2])
        self._walks[key] = walk
        self._walk_bytes += size
        while self._walk_bytes > _WALK_CACHE_BYTES and len(self._walks) > 1:
            _, dropped = self._walks.popitem(last=False)
            self._walk_bytes -= sum(_events_bytes(events) for events in dropped[:2])


_WALK_CACHE_BYTES = 32 * 2**20
"""Bytes of walk arrays an ``Evaluator`` keeps for ``events`` (a 48-layer GPT's walk is about
0.6 MB, ResNet-18's 40 kB)."""


def _events_bytes(events) -> int:
    return sum(getattr(events, f.name).nbytes for f in dataclasses.fields(events))


def _plan_key(saved: np.ndarray, offloaded: np.ndarray) -> bytes:
    """A plan's saved (sorted) and offloaded values, as bytes."""
    return (np.asarray(saved, dtype=np.int64).tobytes() + b"|"
            + np.asarray(offloaded, dtype=np.int64).tobytes())


def sweep(bnet: BudgetNetwork, storage_w: np.ndarray, limit: int, lam_lo: float = 0.0,
          fixed: np.ndarray | None = None, lam_hi: float | None = None,
          edge_only: bool = False, solved: tuple[SweepCut, ...] = ()
          ) -> tuple[list[SweepCut], list[tuple[int, int]], int]:
    """The lower hull's cuts for ``lam >= lam_lo``, least storage first, up to the first
    whose storage weight (``storage_w``, tie-break included) reaches ``limit``; their
    ``BudgetNetwork.line``s; and the number of solves. ``fixed``: priced nodes that may not
    be recomputed. ``edge_only``: only the cuts on the way to the hull's edge across
    ``limit`` (a bisection: a hull cut left of one found below the limit keeps less and
    recomputes more, so its side is not refined). ``solved``: cuts at the ends, solved
    already (not solved again or counted)."""
    found: dict[bytes, tuple[SweepCut, int, int]] = {}
    solves = 0

    def run(lam: float, between: tuple[SweepCut, SweepCut] | None = None
            ) -> tuple[SweepCut, int, int]:
        nonlocal solves
        cut = next((c for c in solved if c.lam == lam), None)
        if cut is None:
            solves += 1
            cut = bnet.solve(lam, storage_w, fixed, between)
        return found.setdefault(cut.key, (cut, *bnet.line(cut, storage_w)))

    def between(a, b) -> None:
        (ca, wa, ra), (cb, wb, rb) = a, b
        if wa >= limit or ra <= rb or (wa, ra) == (wb, rb) or solves >= _MAX_SOLVES:
            return
        lam = (wb - wa) / (ra - rb)
        if not ca.lam < lam < cb.lam:
            return
        m = run(lam, (ca, cb))
        if m[1] + lam * m[2] >= wa + lam * ra - 0.5:
            return  # nothing below both lines: lam is a breakpoint
        if not edge_only or m[1] >= limit:
            between(a, m)
        between(m, b)

    if lam_hi is None:
        every = np.concatenate([bnet.prices, bnet.offload_prices])
        positive = every[every > 0]
        finite = storage_w[storage_w < INF]
        # Above lam_top no recomputation is worth any storage: the top cut recomputes least.
        lam_top = (float(finite.sum()) + 1.0) / float(positive.min()) if len(positive) else 1.0
        lam_hi = max(lam_top, 1.0, 2 * lam_lo)
    between(run(lam_lo), run(lam_hi))
    cuts = sorted(found.values(), key=lambda e: (e[1], -e[2]))
    return [c for c, _, _ in cuts], [(w, r) for _, w, r in cuts], solves


def members(n: int, *sets: np.ndarray, but: np.ndarray = _NONE,
             within: np.ndarray | None = None) -> np.ndarray:
    """int64, ascending and unique: the nodes (of ``n``) in any of ``sets``, not in ``but``
    and, given ``within``, in it (``np.union1d``, ``np.setdiff1d`` and ``np.intersect1d`` for
    node indices, through a mask: a tenth of their time on the frontier's small arrays)."""
    mask = np.zeros(n, dtype=bool)
    for nodes in sets:
        mask[nodes] = True
    mask[but] = False
    if within is not None:
        inside = np.zeros(n, dtype=bool)
        inside[within] = True
        mask &= inside
    return np.flatnonzero(mask).astype(np.int64)
