"""Node weights: what saving each value costs, in bytes moved, plus a tie-break.

For node ``i`` with storage base ``b = graph.base[i]`` (``i`` itself unless ``i`` is a view)::

    cost[i]   = per_byte[i] * bytes[b] + const[i]                     (finite[i]; INF otherwise)
                per_byte = 1 if materialized[b] else unmaterialized_factor     (Algorithm 2)
                           0 for a static-lifetime input (and its views) when static inputs are
                           free, and for a SymInt, whose const is symint_bytes
    weight[i] = cost[i] * K + tie[i],   tie[i] = min(distance[i], cap) + (cap + 1) * is_view[i]
    K         = (number of saveable nodes) * (2 * cap + 1) + 1

Because K exceeds any cut's total tie, the min cut minimises bytes first; among equal-byte
cuts it saves a base rather than one of its views (views are never a place to cut unless
cheaper), then values closer to the backward. ``materialized[b]``: the forward writes ``b``
anyway -- a graph input, a forward output (or an alias of one), the output of an op that does
not fuse onward, or a value some user (seen through aliases) cannot fuse with. A view moves no
bytes of its own: it is as materialized as its base, and saving it keeps its base's storage,
so it costs its base's bytes.

``cost_model`` returns these coefficients as a ``CostModel``; everything that needs weights
(the partitioner, dynamic-shape re-solving, reports) evaluates that one model at its own byte
counts instead of re-deriving the rule.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fusioncut._solver import INF
from fusioncut.graph import JointGraph, Role, Value
from fusioncut.ops import OpKind
from fusioncut.options import Options
from fusioncut.policy import Policy

UNSAVEABLE_ROLES = (Role.BACKWARD, Role.TANGENT, Role.BWD_SEED, Role.DEAD)
"""Roles of nodes with nothing to save: computed in, or inputs of, the backward, or dead."""


def materialized(graph: JointGraph) -> np.ndarray:
    """Bool (n,): whether the forward writes node i's storage to memory in any partition."""
    base = graph.base
    role = graph.role
    written = ~graph.producer_fusible()
    written |= role <= Role.CONSTANT  # inputs and constants already live in memory
    src, dst = graph.edge_src, graph.edge_dst
    # A user that is an alias of the same storage reads nothing; any other user that cannot
    # fuse its producer in forces the producer's storage to be written.
    blocking = ~graph.consumer_fusible()[dst] & (base[dst] != base[src])
    written[base[src[blocking]]] = True
    written[base[graph.fwd_output]] = True
    return written[base]


def distances(graph: JointGraph, cap: int) -> np.ndarray:
    """``min(cap, fewest forward ops from node i to a node outside the forward)``.

    0 outside the forward. A breadth-first search backwards from the non-forward nodes, cut
    off after ``cap`` levels (the tie-break does not look further), vectorised per level.
    """
    n = graph.num_nodes
    role = graph.role
    eligible = (role == Role.FORWARD) | (role == Role.PRIMAL) | (role == Role.FWD_SEED) | (
        role == Role.CONSTANT)
    dist = np.full(n, cap, dtype=np.int64)
    frontier = ~eligible & (role != Role.DEAD)
    dist[~eligible] = 0
    src, dst = graph.edge_src, graph.edge_dst
    src_eligible = eligible[src]
    unseen = eligible.copy()
    for level in range(1, cap):
        hit = src_eligible & frontier[dst]
        reached = np.zeros(n, dtype=bool)
        reached[src[hit]] = True
        reached &= unseen
        if not reached.any():
            break
        dist[reached] = level
        unseen &= ~reached
        frontier = reached
    return dist


@dataclass(frozen=True)
class CostModel:
    """The coefficients of the byte model (see the module docstring), per joint node."""

    base: np.ndarray  # int64 (n,): storage base
    per_byte: np.ndarray  # int64 (n,): multiplier of the base's bytes
    const: np.ndarray  # int64 (n,): bytes-independent cost (SymInts)
    finite: np.ndarray  # bool (n,): the value can be saved
    tie: np.ndarray  # int64 (n,): tie-break, in [0, 2 * cap + 1]
    cap: int  # Options.distance_cap

    @property
    def scale(self) -> int:
        """K: one byte outweighs the sum of every tie-break."""
        return int(np.count_nonzero(self.finite)) * (2 * self.cap + 1) + 1

    @property
    def max_exact_cost(self) -> int:
        """The largest cost whose weight ``cost * K + tie`` stays below INF; above it
        ``weights`` coarsens the tie-break."""
        return (INF - 2 * self.cap - 2) // self.scale

    def costs(self, nbytes: np.ndarray) -> np.ndarray:
        """int64 (n,) byte costs for output sizes ``nbytes`` (per node), INF where unsaveable.

        A cost at or above INF (a tensor of 2**61 bytes or more) saturates at INF - 1: the
        value is then as good as unsaveable, but never makes a cut infinite by itself.
        """
        raw = nbytes[self.base]
        cost = self.per_byte * raw + self.const
        if raw.size and float(raw.max(initial=0)) * float(self.per_byte.max(initial=0)) \
                >= INF // 2:
            exact = self.per_byte.astype(object) * raw.astype(object) + self.const
            cost = np.minimum(exact, INF - 1).astype(np.int64)
        return np.where(self.finite, cost, INF)

    def weights(self, nbytes: np.ndarray) -> np.ndarray:
        """int64 (n,) node capacities for ``min_node_cut``: byte cost then tie-break."""
        cost = self.costs(nbytes)
        finite = self.finite
        scale = self.scale
        tie = self.tie
        max_cost = int(cost[finite].max()) if finite.any() else 0
        if max_cost > self.max_exact_cost:
            # Sizes so large that the exact tie-break would overflow: coarsen it (it then may
            # trade a few bytes for distance, never more than 1 / scale of the cost).
            scale = max(1, (INF - 2 * self.cap - 2) // max_cost)
            tie = np.minimum(tie, scale - 1)
        return np.where(finite, cost * scale + tie, INF).astype(np.int64)


def cost_model(graph: JointGraph, policy: Policy, options: Options, *,
               static_input_nodes: np.ndarray | None = None) -> CostModel:
    """The byte model of ``graph`` under ``policy`` and ``options``.

    ``static_input_nodes``: bool (n,) static-lifetime inputs (parameters, buffers).
    """
    base = graph.base
    per_byte = np.where(materialized(graph), 1, options.unmaterialized_factor).astype(np.int64)
    if options.static_inputs_free_to_save and static_input_nodes is not None:
        per_byte[static_input_nodes[base]] = 0
    symint = graph.value == Value.SYMINT
    per_byte[symint] = 0
    const = np.where(symint, options.symint_bytes, 0).astype(np.int64)
    finite = ~policy.unsaveable_mask() & ~np.isin(graph.role, UNSAVEABLE_ROLES)
    cap = options.distance_cap
    tie = distances(graph, cap) + (cap + 1) * (graph.kind == OpKind.VIEW)
    return CostModel(base=base, per_byte=per_byte, const=const, finite=finite,
                     tie=tie.astype(np.int64), cap=cap)


def node_costs(graph: JointGraph, policy: Policy, options: Options, *,
               nbytes: np.ndarray | None = None,
               static_input_nodes: np.ndarray | None = None) -> np.ndarray:
    """int64 (n,) byte costs of saving each node, ``INF`` where it cannot be saved.

    ``nbytes``: bytes per node (default ``graph.nbytes``, from the size hints).
    """
    model = cost_model(graph, policy, options, static_input_nodes=static_input_nodes)
    return model.costs(graph.nbytes if nbytes is None else nbytes)


def weights(graph: JointGraph, policy: Policy, options: Options, *,
            nbytes: np.ndarray | None = None,
            static_input_nodes: np.ndarray | None = None) -> np.ndarray:
    """int64 (n,) node capacities for ``min_node_cut``: byte cost then tie-break."""
    model = cost_model(graph, policy, options, static_input_nodes=static_input_nodes)
    return model.weights(graph.nbytes if nbytes is None else nbytes)
