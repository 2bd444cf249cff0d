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

``budget_reach`` takes it from there: every minimum cut at a breakpoint, the knapsack between
neighbouring cuts, and the search above a hull edge.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from fusioncut._solver import INF, NodeCutGraph
from fusioncut.cost import CostModel
from fusioncut.graph import JointGraph, Role, Value
from fusioncut.network import FlowNetwork, priced_network
from fusioncut.peak import PeakEstimate, estimate_peak, phases, recomputed
from fusioncut.policy import BUDGET_LIFTS, Policy
from fusioncut.recompute import RecomputeModel

__all__ = ["BudgetNetwork", "Evaluator", "FrontierPoint", "SweepCut", "budget_network",
           "saved_activation_bytes", "storage_bytes", "sweep"]

_MAX_SOLVES = 400


@dataclass(frozen=True)
class FrontierPoint:
    """One plan of the frontier."""

    saved: np.ndarray  # int64 joint-node indices, ascending
    recomputed: np.ndarray  # int64 forward nodes the backward computes again, ascending
    lam: float | None  # the price scale at which the cut is minimal; None: not a sweep cut
    cost_bytes: int  # bytes moved by saving (the byte model, no tie-break)
    recompute_seconds: float  # estimated seconds of recomputation
    saved_bytes: int  # activation storage kept for the backward (each storage once)
    peak: PeakEstimate

    def step_seconds(self, device) -> float:
        """Estimated seconds the plan adds to a step: bytes moved plus recomputation."""
        return self.cost_bytes / device.bandwidth + self.recompute_seconds


@dataclass(frozen=True)
class SweepCut:
    saved: np.ndarray
    side_in: np.ndarray  # bool (n,): in-vertex on the source side
    side_out: np.ndarray
    lam: float


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

    def at(self, weights: np.ndarray, prices: np.ndarray, seconds: np.ndarray) -> BudgetNetwork:
        """The same network (and solver) with weights, prices and recompute seconds at other
        sizes."""
        return dataclasses.replace(self, weights=weights, prices=prices,
                                   recompute_seconds=seconds)

    def solve(self, lam: float, weights: np.ndarray, fixed: np.ndarray | None = None) -> SweepCut:
        """The minimum cut at ``lam`` with saving weights ``weights``; ``fixed`` (bool over
        ``priced``) forbids recomputing those nodes."""
        aux = np.minimum(np.rint(lam * self.prices.astype(np.float64)), INF // 4)
        if fixed is not None:
            aux[fixed] = INF
        cut = self.solver.solve_int64(np.concatenate([weights, aux.astype(np.int64)]),
                                      function="fusioncut.budget")
        n = self.graph.num_nodes
        nodes = cut.cut_nodes
        return SweepCut(saved=np.sort(nodes[nodes < n]), side_in=cut.source_side_in[:n],
                    side_out=cut.source_side_out[:n], lam=lam)


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
    return int(nbytes[np.unique(base[keep])].sum())


class Evaluator:
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
        # A cut may pass through a node of no weight that the backward never reads (an input
        # once the tie-break is dropped): emission would drop that save, so the plan does.
        read = graph.bwd_output.copy()
        read[graph.edge_src[split[1][graph.edge_dst]]] = True
        if not read[saved].all():
            saved = saved[read[saved]]
            split = phases(graph, saved)
        again = recomputed(graph, saved, split)
        return FrontierPoint(
            saved=saved, recomputed=again, lam=lam, cost_bytes=int(self.cost[saved].sum()),
            recompute_seconds=float(self.bnet.recompute_seconds[again].sum()),
            saved_bytes=saved_activation_bytes(graph, saved, self.static, self.nbytes),
            peak=estimate_peak(graph, saved, numel=self.numel, split=split))


def sweep(bnet: BudgetNetwork, storage_w: np.ndarray, limit: int, lam_lo: float = 0.0,
          fixed: np.ndarray | None = None, lam_hi: float | None = None
          ) -> tuple[list[SweepCut], int]:
    """The lower hull's cuts for ``lam >= lam_lo``, least storage first, up to the first
    whose storage weight (``storage_w``, tie-break included) reaches ``limit``; and the
    number of solves. ``fixed``: priced nodes that may not be recomputed."""
    graph = bnet.graph
    price_of = np.zeros(graph.num_nodes, dtype=np.int64)
    price_of[bnet.priced] = bnet.prices
    found: dict[bytes, tuple[SweepCut, int, int]] = {}
    solves = 0

    def run(lam: float) -> tuple[SweepCut, int, int]:
        nonlocal solves
        solves += 1
        cut = bnet.solve(lam, storage_w, fixed)
        entry = (cut, int(storage_w[cut.saved].sum()), int(price_of[~cut.side_in].sum()))
        return found.setdefault(cut.saved.tobytes(), entry)

    def between(a, b) -> None:
        (ca, wa, ra), (cb, wb, rb) = a, b
        if wa >= limit or ra <= rb or (wa, ra) == (wb, rb) or solves >= _MAX_SOLVES:
            return
        lam = (wb - wa) / (ra - rb)
        if not ca.lam < lam < cb.lam:
            return
        m = run(lam)
        if m[1] + lam * m[2] >= wa + lam * ra - 0.5:
            return  # nothing below both lines: lam is a breakpoint
        between(a, m)
        between(m, b)

    positive = bnet.prices[bnet.prices > 0]
    finite = storage_w[storage_w < INF]
    # Above lam_top no recomputation is worth any storage: the top cut recomputes least.
    lam_top = (float(finite.sum()) + 1.0) / float(positive.min()) if len(positive) else 1.0
    if lam_hi is None:
        lam_hi = max(lam_top, 1.0, 2 * lam_lo)
    between(run(lam_lo), run(lam_hi))
    cuts = sorted(found.values(), key=lambda e: (e[1], -e[2]))
    return [c for c, _, _ in cuts], solves
