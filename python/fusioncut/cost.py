"""Node weights: what saving each value costs, in bytes moved, plus a tie-break.

For node ``i`` with storage base ``b = graph.base[i]`` (``i`` itself unless ``i`` is a view)::

    cost[i]   = bytes[b] * (1 if materialized[b] else unmaterialized_factor)    (Algorithm 2)
                0 for a static-lifetime input (and its views) when static inputs are free
                symint_bytes for a SymInt; INF when the value cannot be saved
    weight[i] = cost[i] * K + tie[i],   tie[i] = min(distance[i], cap) + (cap + 1) * is_view[i]
    K         = (number of saveable nodes) * (2 * cap + 1) + 1

Because K exceeds any cut's total tie, the min cut minimises bytes first; among equal-byte
cuts it saves a base rather than one of its views (views are never a place to cut unless
cheaper), then values closer to the backward. ``materialized[b]``:
the forward writes ``b`` anyway -- a graph input, a forward output (or an alias of one), the
output of an op that does not fuse onward, or a value some user (seen through aliases) cannot
fuse with. A view moves no bytes of its own: it is as materialized as its base, and saving it
keeps its base's storage, so it costs its base's bytes.

``weights`` takes the byte counts as an argument, so a caller can pass sizes computed from
other shapes (dynamic-shape re-solving) without redoing the analysis.
"""

from __future__ import annotations

import numpy as np

from fusioncut.graph import JointGraph, Role, Value
from fusioncut.ops import OpKind
from fusioncut.options import Options
from fusioncut.policy import Policy

INF = 1 << 62
"""Equal to ``fusioncut.INF`` (design.md): an edge that can never be cut."""


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


def node_costs(graph: JointGraph, policy: Policy, options: Options, *,
               nbytes: np.ndarray | None = None,
               static_input_nodes: np.ndarray | None = None) -> np.ndarray:
    """int64 (n,) byte costs of saving each node, ``INF`` where it cannot be saved.

    ``nbytes``: bytes per node (default ``graph.nbytes``, from the size hints).
    ``static_input_nodes``: bool (n,) static-lifetime inputs (parameters, buffers).
    """
    if nbytes is None:
        nbytes = graph.nbytes
    base = graph.base
    factor = np.where(materialized(graph), 1, options.unmaterialized_factor)
    cost = nbytes[base] * factor
    if options.static_inputs_free_to_save and static_input_nodes is not None:
        cost[static_input_nodes[base]] = 0
    cost[graph.value == Value.SYMINT] = options.symint_bytes
    cost[policy.unsaveable_mask()] = INF
    # Computed in, or inputs of, the backward, or dead: nothing to save.
    cost[np.isin(graph.role, (Role.BACKWARD, Role.TANGENT, Role.BWD_SEED, Role.DEAD))] = INF
    return cost


def weights(graph: JointGraph, policy: Policy, options: Options, *,
            nbytes: np.ndarray | None = None,
            static_input_nodes: np.ndarray | None = None) -> np.ndarray:
    """int64 (n,) node capacities for ``min_node_cut``: byte cost then tie-break."""
    cost = node_costs(graph, policy, options, nbytes=nbytes,
                      static_input_nodes=static_input_nodes)
    cap = options.distance_cap
    tie = distances(graph, cap) + (cap + 1) * (graph.kind == OpKind.VIEW)
    finite = cost < INF
    scale = int(np.count_nonzero(finite)) * (2 * cap + 1) + 1
    max_cost = int(cost[finite].max()) if finite.any() else 0
    if max_cost > 0 and max_cost * scale + 2 * cap + 1 >= INF:
        # Sizes so large that the exact tie-break would overflow: coarsen it (it then may
        # trade a few bytes for distance, never more than 1 / scale of the cost).
        scale = max(1, (INF - 2 * cap - 2) // max_cost)
        tie = np.minimum(tie, scale - 1)
    w = np.where(finite, cost * scale + tie, INF)
    return w.astype(np.int64)
