"""Memory budgets: the frontier between step time and activation memory, as a parametric cut.

Under a budget, the heuristic bans of ``policy`` (``BUDGET_LIFTS``: compute-intensive, not
fusible, reduction, materialized in backward) become prices: recomputing node ``v`` costs
``r(v)`` seconds on the device (``recompute.py``), charged by an auxiliary node tied to the
source with an edge into ``v`` (``network.add_switches``). Random, collective, mutating,
effectful, opaque and higher-order ops, graph inputs and ``MUST_SAVE`` stay banned;
``MUST_RECOMPUTE`` stays tied to the sink. With saving priced by ``cost.CostModel`` (bytes
moved) and ``lam`` scaling every recompute price::

    minimise  W(S) + lam * R(S)          W: bytes x K + tie of the saved nodes
                                         R: recompute seconds x bandwidth x K

Only arcs out of the source depend on ``lam``, and they grow with it, so the minimum cuts are
nested (Gallo, Grigoriadis and Tarjan 1989): as ``lam`` falls from 1 to 0 the source side
shrinks, ``W`` (bytes saved) never grows and ``R`` (recomputation) never shrinks. ``sweep``
finds every distinct cut on ``[0, 1]`` by intersecting the cut lines (Eisner and Severance):
two solves per breakpoint. One more solve at ``lam = 0`` with every saved byte counted once
(storage, not traffic) gives the least activation memory.

Plans in reach between two neighbouring cuts. At a breakpoint both cuts are minimal, and so is
the smaller cut plus any union of the connected components of their difference (each
component's capacity change is zero, or one of the two would not be minimal): a model of N
identical layers flips layer by layer. ``refine`` orders a gap's components by memory freed per
second of recomputation and adds their prefixes as plans.

The frontier starts with the runtime plan (``decide``'s own choice: budget 1) and keeps each
further plan only if it holds less activation memory than every plan before it and no higher
an estimated peak (``peak.py``): along the frontier saved bytes and peak fall while
recomputation grows. A budget picks the first plan (the least recomputation) that fits:

    memory_budget = b        saved bytes <= least + b * (runtime plan's - least)
    memory_budget_bytes = N  saved bytes <= N
    peak_memory_bytes = N    estimated peak <= N

A target below the least plan gives the least plan and a ``BudgetWarning`` naming the gap.
"""

from __future__ import annotations

import dataclasses
import warnings
from dataclasses import dataclass

import numpy as np

from fusioncut._solver import INF, NodeCutGraph
from fusioncut.cost import CostModel
from fusioncut.device import Device
from fusioncut.graph import JointGraph, Role, Value
from fusioncut.network import FlowNetwork, priced_network
from fusioncut.peak import PeakEstimate, estimate_peak, phases, recomputed
from fusioncut.policy import BUDGET_LIFTS, Policy
from fusioncut.recompute import RecomputeModel

__all__ = ["BudgetChoice", "BudgetWarning", "Frontier", "FrontierPoint", "budget_network", "choose",
           "frontier"]

_MAX_SOLVES = 400
_MAX_STEPS_PER_GAP = 48


class BudgetWarning(UserWarning):
    """A memory target no plan meets: fusioncut used the least-memory plan it found."""


@dataclass(frozen=True)
class BudgetChoice:
    """How a memory target chose the plan: the frontier, its point, the miss (bytes)."""

    target: str  # e.g. "memory_budget = 0.3"
    frontier: Frontier
    point: FrontierPoint
    gap: int  # bytes by which the least plan misses the target (0 when it fits)


def choose(front: Frontier, *, memory_budget: float | None = None,
           memory_budget_bytes: int | None = None, peak_memory_bytes: int | None = None,
           stacklevel: int = 3) -> BudgetChoice:
    """The frontier's plan for one memory target (exactly one must be given); warns
    ``BudgetWarning`` naming the gap when no plan meets it."""
    if memory_budget is not None:
        point, gap = front.for_budget(memory_budget), 0
        target = f"memory_budget = {memory_budget:g}"
    elif memory_budget_bytes is not None:
        point, gap = front.for_bytes(memory_budget_bytes)
        target = f"memory_budget_bytes = {memory_budget_bytes}"
    else:
        point, gap = front.for_peak(peak_memory_bytes)
        target = f"peak_memory_bytes = {peak_memory_bytes}"
    if gap:
        what = "estimated peak" if memory_budget_bytes is None else "saved bytes"
        warnings.warn(BudgetWarning(
            f"fusioncut: {target} is below the least any plan reaches; using the least-memory "
            f"plan ({what} {gap} bytes over the target)"), stacklevel=stacklevel)
    return BudgetChoice(target=target, frontier=front, point=point, gap=gap)


@dataclass(frozen=True)
class FrontierPoint:
    """One plan of the frontier."""

    saved: np.ndarray  # int64 joint-node indices, ascending
    recomputed: np.ndarray  # int64 forward nodes the backward computes again, ascending
    lam: float | None  # the price scale at which the cut is minimal; None: the runtime plan
    cost_bytes: int  # bytes moved by saving (the byte model, no tie-break)
    recompute_seconds: float  # estimated seconds of recomputation
    saved_bytes: int  # activation storage kept for the backward (each storage once)
    peak: PeakEstimate

    def step_seconds(self, device: Device) -> float:
        """Estimated seconds the plan adds to a step: bytes moved plus recomputation."""
        return self.cost_bytes / device.bandwidth + self.recompute_seconds


@dataclass(frozen=True)
class _Cut:
    saved: np.ndarray
    side_in: np.ndarray  # bool (n,): in-vertex on the source side
    side_out: np.ndarray
    lam: float | None


@dataclass
class BudgetNetwork:
    """The network with recompute prices, built once and re-solved per ``lam``."""

    graph: JointGraph
    network: FlowNetwork  # joint nodes, then one price node per entry of ``priced``
    priced: np.ndarray  # int64 joint nodes whose recomputation has a price
    weights: np.ndarray  # int64 (n,): saving weights, tie-break included
    prices: np.ndarray  # int64 (len(priced),): recompute price x K at lam = 1
    recompute_seconds: np.ndarray  # float64 (n,)
    solver: NodeCutGraph

    def at(self, weights: np.ndarray, prices: np.ndarray, seconds: np.ndarray) -> BudgetNetwork:
        """The same network (and solver) with weights, prices and recompute seconds at other
        sizes."""
        return dataclasses.replace(self, weights=weights, prices=prices,
                                   recompute_seconds=seconds)

    def solve(self, lam: float, weights: np.ndarray | None = None) -> _Cut:
        """The minimum cut at ``lam`` (``weights`` replaces the saving weights)."""
        w = self.weights if weights is None else weights
        aux = np.minimum(np.rint(lam * self.prices.astype(np.float64)), INF // 4)
        cut = self.solver.solve_int64(np.concatenate([w, aux.astype(np.int64)]),
                                      function="fusioncut.budget")
        n = self.graph.num_nodes
        nodes = cut.cut_nodes
        return _Cut(saved=np.sort(nodes[nodes < n]), side_in=cut.source_side_in[:n],
                    side_out=cut.source_side_out[:n], lam=lam if weights is None else None)


def budget_network(graph: JointGraph, policy: Policy, costs: CostModel, base: FlowNetwork,
                   model: RecomputeModel) -> BudgetNetwork:
    """``base`` (decide's network) with the bans a budget lifts turned into prices."""
    hard = np.fromiter((r is not None and r.kind not in BUDGET_LIFTS for r in policy.ban),
                       dtype=bool, count=graph.num_nodes)
    lifted = FlowNetwork(base.src, base.dst, base.source_in & hard, base.sink_in, base.sink_out)
    net, priced, prices = priced_network(graph, lifted, model.costly,
                                         model.byte_equivalents(graph), costs.scale)
    solver = NodeCutGraph(net.num_nodes, net.src, net.dst, source_in=net.source_in,
                          sink_in=net.sink_in, sink_out=net.sink_out)
    return BudgetNetwork(graph=graph, network=net, priced=priced,
                         weights=costs.weights(graph.nbytes), prices=prices,
                         recompute_seconds=model.seconds(graph), solver=solver)


def saved_activation_bytes(graph: JointGraph, saved: np.ndarray, static: np.ndarray,
                           nbytes: np.ndarray | None = None) -> int:
    """Storage the backward keeps: each saved tensor's base once, graph inputs and static
    inputs excluded (they are alive anyway)."""
    base = graph.base[saved]
    keep = (graph.value[saved] == Value.TENSOR) & (graph.role[base] > Role.CONSTANT) \
        & ~static[base]
    nbytes = graph.nbytes if nbytes is None else nbytes
    return int(nbytes[np.unique(base[keep])].sum())


class Frontier:
    """Plans from the runtime plan (``points[0]``) to the least activation memory.

    The sweep's cuts are evaluated at once; the plans between two neighbouring cuts
    (``refine``) only when a target falls between them or when ``points`` is read.
    """

    def __init__(self, graph: JointGraph, device: Device, anchors: list[FrontierPoint],
                 cuts: list[_Cut | None], refiner, candidates: int, solves: int,
                 dropped: list[FrontierPoint]):
        self.graph = graph
        self.device = device
        self.anchors = anchors  # runtime plan, then the kept cuts (monotone)
        self._cuts = cuts  # the cut behind each anchor (None for the runtime plan)
        self._refiner = refiner
        self._gaps: dict[int, list[FrontierPoint]] = {}
        self.candidates = candidates  # distinct cuts the sweep found
        self.solves = solves
        self.dropped = dropped  # cuts that hold more memory or peak higher than one before

    @property
    def points(self) -> list[FrontierPoint]:
        """Every plan, the refined gaps included, from the runtime plan down."""
        out = [self.anchors[0]]
        for k in range(1, len(self.anchors)):
            out += self._gap(k)
            out.append(self.anchors[k])
        return out

    @property
    def least(self) -> FrontierPoint:
        return self.anchors[-1]

    @property
    def runtime(self) -> FrontierPoint:
        return self.anchors[0]

    def _gap(self, k: int) -> list[FrontierPoint]:
        """The refined plans strictly between anchors k - 1 and k."""
        if k not in self._gaps:
            upper, lower = self._cuts[k - 1], self._cuts[k]
            hi, lo = self.anchors[k - 1], self.anchors[k]
            kept: list[FrontierPoint] = []
            if upper is not None and lower is not None and upper.lam is not None \
                    and lower.lam is not None:
                last = hi
                for q in self._refiner(upper, lower):
                    if lo.saved_bytes < q.saved_bytes < last.saved_bytes and \
                            lo.peak.peak <= q.peak.peak <= last.peak.peak:
                        kept.append(q)
                        last = q
            self._gaps[k] = kept
        return self._gaps[k]

    def _first(self, fits) -> FrontierPoint:
        """The first plan (least recomputation) that ``fits``, refining one gap at most."""
        for k, anchor in enumerate(self.anchors):
            if fits(anchor):
                if k > 0:
                    for q in self._gap(k):
                        if fits(q):
                            return q
                return anchor
        return self.anchors[-1]

    def for_budget(self, b: float) -> FrontierPoint:
        """The plan for ``memory_budget = b`` (PyTorch's meaning: 0 the least memory, 1 the
        runtime plan)."""
        lo, hi = self.least.saved_bytes, self.runtime.saved_bytes
        target = lo + b * (hi - lo)
        return self._first(lambda p: p.saved_bytes <= target + 0.5)

    def for_bytes(self, limit: int) -> tuple[FrontierPoint, int]:
        """The plan that recomputes least among those saving at most ``limit`` bytes, and
        by how many bytes it misses (0 when it fits)."""
        point = self._first(lambda p: p.saved_bytes <= limit)
        return point, max(0, point.saved_bytes - limit)

    def for_peak(self, limit: int) -> tuple[FrontierPoint, int]:
        """The plan that recomputes least among those whose estimated peak fits ``limit``,
        and by how many bytes it misses."""
        point = self._first(lambda p: p.peak.peak <= limit)
        return point, max(0, point.peak.peak - limit)


class _Evaluator:
    """Turns saved sets into ``FrontierPoint``s (recomputation, bytes, peak) at element
    counts ``numel`` (the size hints by default)."""

    def __init__(self, graph, bnet, costs, static, numel=None):
        self.graph, self.bnet, self.static = graph, bnet, static
        self.numel = graph.numel if numel is None else numel
        self.nbytes = self.numel * graph.itemsize
        self.cost = costs.costs(self.nbytes)

    def point(self, saved: np.ndarray, lam: float | None) -> FrontierPoint:
        graph = self.graph
        saved = np.sort(np.asarray(saved, dtype=np.int64))
        split = phases(graph, saved)
        again = recomputed(graph, saved, split)
        return FrontierPoint(
            saved=saved, recomputed=again, lam=lam, cost_bytes=int(self.cost[saved].sum()),
            recompute_seconds=float(self.bnet.recompute_seconds[again].sum()),
            saved_bytes=saved_activation_bytes(graph, saved, self.static, self.nbytes),
            peak=estimate_peak(graph, saved, numel=self.numel, split=split))


def sweep(bnet: BudgetNetwork, costs: CostModel, nbytes: np.ndarray | None = None
          ) -> tuple[list[_Cut], int]:
    """Every distinct minimum cut for ``lam`` in [0, 1], largest ``lam`` first, then the
    least-storage cut; and the number of solves."""
    graph = bnet.graph
    W = bnet.weights
    price_of = np.zeros(graph.num_nodes, dtype=np.int64)
    price_of[bnet.priced] = bnet.prices
    found: dict[bytes, _Cut] = {}
    solves = 0

    def run(lam: float, weights=None) -> _Cut:
        nonlocal solves
        solves += 1
        cut = bnet.solve(lam, weights)
        found.setdefault(cut.saved.tobytes(), cut)
        return cut

    def line(cut: _Cut) -> tuple[int, int]:
        return int(W[cut.saved].sum()), int(price_of[~cut.side_in].sum())

    def between(a: _Cut, b: _Cut) -> None:
        wa, ra = line(a)
        wb, rb = line(b)
        if (wa, ra) == (wb, rb) or ra <= rb or solves >= _MAX_SOLVES:
            return
        lam = (wb - wa) / (ra - rb)
        if not a.lam < lam < b.lam:
            return
        m = run(lam)
        wm, rm = line(m)
        if wm + lam * rm >= wa + lam * ra - 0.5:
            return  # nothing below both lines: lam is a breakpoint
        between(a, m)
        between(m, b)

    top = run(1.0)
    bottom = run(0.0)
    between(bottom, top)
    nbytes = graph.nbytes if nbytes is None else nbytes
    storage = np.where(costs.finite, (costs.per_byte > 0) * nbytes[costs.base]
                       * costs.scale + costs.tie, INF).astype(np.int64)
    run(0.0, storage)
    cuts = sorted(found.values(), key=lambda c: -(c.lam if c.lam is not None else -1.0))
    return cuts, solves


def refine(graph: JointGraph, upper: _Cut, lower: _Cut, bnet: BudgetNetwork,
           evaluate: _Evaluator) -> list[FrontierPoint]:
    """Plans between two nested cuts (``lower`` inside ``upper``): ``lower``'s side on a
    growing set of the connected components of their difference, the components that free
    the most memory per second of recomputation first. At most ``_MAX_STEPS_PER_GAP``
    plans (components are grouped when there are more)."""
    n = graph.num_nodes
    d_in = upper.side_in != lower.side_in
    d_out = upper.side_out != lower.side_out
    if not (d_in.any() or d_out.any()):
        return []
    # Vertices: in-vertex v, out-vertex n + v. Arcs inside the difference join components.
    parent = list(range(2 * n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    both = np.flatnonzero(d_in & d_out)
    for v in both.tolist():
        parent[find(n + v)] = find(v)
    src, dst = graph.edge_src, graph.edge_dst
    joined = d_out[src] & d_in[dst]
    for u, v in zip(src[joined].tolist(), dst[joined].tolist()):
        a, b = find(n + u), find(v)
        if a != b:
            parent[a] = b
    verts = np.concatenate([np.flatnonzero(d_in), n + np.flatnonzero(d_out)])
    roots = np.array([find(int(x)) for x in verts])
    labels, comp = np.unique(roots, return_inverse=True)
    if len(labels) < 2:
        return []
    # Per component: bytes freed (saved by upper, not by lower) and seconds of recompute added.
    node_of = verts % n
    node_comp = np.full(n, -1, dtype=np.int64)
    node_comp[node_of] = comp
    nodes = np.flatnonzero(node_comp >= 0)
    saved_up = upper.side_in[nodes] & ~upper.side_out[nodes]
    saved_lo = lower.side_in[nodes] & ~lower.side_out[nodes]
    tensor = graph.value[nodes] == Value.TENSOR
    nbytes = graph.nbytes[graph.base[nodes]].astype(np.float64)
    freed = np.bincount(node_comp[nodes], weights=nbytes * tensor * (saved_up.astype(float)
                        - saved_lo), minlength=len(labels))
    again = (upper.side_in[nodes] & ~lower.side_in[nodes]
             & (graph.role[nodes] == Role.FORWARD))
    seconds = np.bincount(node_comp[nodes], weights=bnet.recompute_seconds[nodes] * again,
                          minlength=len(labels))
    order = np.argsort(-(freed + 1.0) / (seconds + 1e-15), kind="stable")
    groups = np.array_split(order, min(len(order), _MAX_STEPS_PER_GAP))
    side_in, side_out = upper.side_in.copy(), upper.side_out.copy()
    out: list[FrontierPoint] = []
    for group in groups[:-1]:  # the last prefix is ``lower`` itself
        members = np.isin(comp, group)
        for v, is_out in zip(node_of[members].tolist(), (verts[members] >= n).tolist()):
            if is_out:
                side_out[v] = lower.side_out[v]
            else:
                side_in[v] = lower.side_in[v]
        saved = np.flatnonzero(side_in & ~side_out)
        out.append(evaluate.point(saved, None))
    return out


def frontier(graph: JointGraph, runtime_saved: np.ndarray, bnet: BudgetNetwork,
             costs: CostModel, static: np.ndarray, device: Device,
             numel: np.ndarray | None = None) -> Frontier:
    """The runtime plan, then every cut of the sweep that holds less memory and no higher an
    estimated peak than all before it (see the module docstring); ``bnet`` and ``numel``
    must describe the same sizes."""
    evaluate = _Evaluator(graph, bnet, costs, static, numel)
    cuts, solves = sweep(bnet, costs, evaluate.nbytes)
    runtime = evaluate.point(runtime_saved, None)
    anchors, behind, dropped = [runtime], [None], []
    for cut in cuts:
        if np.array_equal(cut.saved, runtime.saved):
            behind[0] = cut  # the runtime plan is also the sweep's cut at lam = 1
            continue
        p = evaluate.point(cut.saved, cut.lam)
        last = anchors[-1]
        if p.saved_bytes < last.saved_bytes and p.peak.peak <= last.peak.peak:
            anchors.append(p)
            behind.append(cut)
        else:
            dropped.append(p)
    return Frontier(graph, device, anchors, behind,
                    lambda upper, lower: refine(graph, upper, lower, bnet, evaluate),
                    candidates=len(cuts), solves=solves, dropped=dropped)
