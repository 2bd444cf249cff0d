"""The flow network of a joint graph: which node sides are tied to which terminal.

One vertex pair per node (paper section 3.3; the solver splits ``v`` into ``v_in -> v_out``
with capacity ``weights[v]``), every data dependency ``u -> v`` an infinite edge
``u_out -> v_in``, and infinite terminal edges::

    source_in   graph inputs and banned forward nodes: never recomputed
    sink_in     tangents, nodes that depend on them, and nodes annotated to be recomputed:
                the backward computes them itself
    sink_out    backward outputs that do not depend on a tangent: they must be available in
                the backward, saved or recomputed

``flow_network`` builds it from the rules (``policy``); ``contract_backward`` folds the
backward into the sink for re-solving (dynamic shapes): every minimum cut has the backward's
vertices on the sink side, so the canonical cut (the smallest sink side) is unchanged while
the network roughly halves. ``add_switches`` appends one auxiliary node per ban that may
switch on and off (the reduction rule under other sizes). ``add_chains`` puts a second arc in
series after a node, so that a cut through it says which of two fates (kept on the device or
offloaded to the host) the value takes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fusioncut._solver import INF
from fusioncut.graph import JointGraph, Role
from fusioncut.policy import Policy

BACKWARD_ROLES = (Role.BACKWARD, Role.TANGENT, Role.BWD_SEED)
"""Nodes the backward computes or receives: their in-vertex is tied to the sink."""


@dataclass
class FlowNetwork:
    """A node-split network over ``num_nodes`` nodes (edge arrays and terminal masks)."""

    src: np.ndarray  # int64 (m,)
    dst: np.ndarray  # int64 (m,)
    source_in: np.ndarray  # bool (n,)
    sink_in: np.ndarray  # bool (n,)
    sink_out: np.ndarray  # bool (n,)

    @property
    def num_nodes(self) -> int:
        return len(self.source_in)

    def copy(self) -> FlowNetwork:
        return FlowNetwork(self.src, self.dst, self.source_in.copy(), self.sink_in.copy(),
                           self.sink_out.copy())


def in_backward(graph: JointGraph) -> np.ndarray:
    """bool (n,): nodes computed in, or received by, the backward."""
    return np.isin(graph.role, BACKWARD_ROLES)


def flow_network(graph: JointGraph, policy: Policy) -> FlowNetwork:
    """The network ``decide`` solves: bans to the source, the backward and recompute
    annotations to the sink."""
    sink_in = in_backward(graph) | policy.recompute_mask()
    # A backward output computable from forward inputs alone: available, saved or recomputed.
    sink_out = graph.bwd_output & ~sink_in
    return FlowNetwork(graph.edge_src, graph.edge_dst, policy.banned_mask(), sink_in, sink_out)


@dataclass
class ContractedNetwork:
    """``FlowNetwork`` with the backward folded into the sink: node ``k`` is joint node
    ``keep[k]``; ``pos[i]`` is joint node ``i``'s index, or -1 when it was folded."""

    keep: np.ndarray  # int64 (r,)
    pos: np.ndarray  # int64 (n,)
    network: FlowNetwork  # over the r kept nodes, edges sorted by src
    user_ptr: np.ndarray  # int64 (r + 1,): CSR of network.src

    @property
    def num_nodes(self) -> int:
        return len(self.keep)


def contract_backward(graph: JointGraph, net: FlowNetwork) -> ContractedNetwork:
    """Fold the backward's nodes into the sink. A kept node with a backward user gets a
    ``sink_out`` edge instead. The caller guarantees the folded nodes cannot be saved."""
    n = graph.num_nodes
    folded = in_backward(graph)
    if not net.sink_in[folded].all():
        raise ValueError("contract_backward: a backward node is not tied to the sink")
    keep = np.flatnonzero(~folded)
    pos = np.full(n, -1, dtype=np.int64)
    pos[keep] = np.arange(len(keep))
    src, dst = net.src, net.dst
    inner = ~folded[src] & ~folded[dst]
    to_sink = ~folded[src] & folded[dst]
    sink_out = net.sink_out[keep].copy()
    sink_out[pos[src[to_sink]]] = True
    e_src, e_dst = pos[src[inner]], pos[dst[inner]]
    order = np.argsort(e_src, kind="stable")
    e_src, e_dst = e_src[order], e_dst[order]
    user_ptr = np.searchsorted(e_src, np.arange(len(keep) + 1))
    reduced = FlowNetwork(e_src, e_dst, net.source_in[keep].copy(), net.sink_in[keep].copy(),
                          sink_out)
    return ContractedNetwork(keep=keep, pos=pos, network=reduced, user_ptr=user_ptr)


def add_switches(net: FlowNetwork, nodes: np.ndarray) -> FlowNetwork:
    """``net`` plus one auxiliary node ``a_k`` per ``nodes[k]``: ``a_k`` is tied to the source
    and has the edge ``a_k -> nodes[k]``. Weight INF on ``a_k`` bans ``nodes[k]`` (its
    in-vertex joins the source); weight 0 lifts the ban (``a_k``'s out-vertex then sits on
    ``nodes[k]``'s side and adds nothing to any cut). The switched nodes' own ``source_in``
    edges are removed."""
    r, m = net.num_nodes, len(nodes)
    source_in = net.source_in.copy()
    source_in[nodes] = False
    none = np.zeros(m, dtype=bool)
    return FlowNetwork(
        src=np.concatenate([net.src, np.arange(r, r + m, dtype=np.int64)]),
        dst=np.concatenate([net.dst, np.asarray(nodes, dtype=np.int64)]),
        source_in=np.concatenate([source_in, np.ones(m, dtype=bool)]),
        sink_in=np.concatenate([net.sink_in, none]),
        sink_out=np.concatenate([net.sink_out, none]),
    )


def priced_network(graph: JointGraph, net: FlowNetwork, costly: np.ndarray,
                   byte_eq: np.ndarray, scale: int) -> tuple[FlowNetwork, np.ndarray, np.ndarray]:
    """``net`` with a price on recomputing each ``costly`` forward node ``net`` lets the
    backward recompute: ``(network, priced nodes, prices)``. ``byte_eq[v]``: recomputing ``v``
    in byte-equivalents (``RecomputeModel.byte_equivalents``); a price is that times ``scale``
    (the cost model's K), on a switch node (``add_switches``) whose weight is cut exactly when
    ``v`` is recomputed."""
    priced = np.flatnonzero((graph.role == Role.FORWARD) & ~net.source_in & ~net.sink_in
                            & costly)
    return add_switches(net, priced), priced, prices_of(byte_eq[priced], scale)


def prices_of(byte_eq: np.ndarray, scale: int) -> np.ndarray:
    """int64 switch weights for recompute costs in byte-equivalents: ``byte_eq * scale``,
    saturated at INF / 4 (a recomputation then as good as forbidden, never a cut of INF)."""
    cap = (INF // 4) // max(scale, 1)
    return (np.minimum(byte_eq, cap) * scale).astype(np.int64)


def recomputed(contracted: ContractedNetwork, saved: np.ndarray) -> np.ndarray:
    """bool over kept nodes: the node's in-vertex reaches the sink without crossing a saved
    node, i.e. the backward recomputes it. One reverse pass: kept nodes are in graph order,
    which is topological."""
    r = contracted.num_nodes
    net = contracted.network
    is_saved = np.zeros(r, dtype=bool)
    is_saved[saved] = True
    ptr, dst = contracted.user_ptr.tolist(), net.dst.tolist()
    sink_in, sink_out = net.sink_in.tolist(), net.sink_out.tolist()
    saved_l = is_saved.tolist()
    in_reach = [False] * r
    for k in range(r - 1, -1, -1):
        out = sink_out[k] or any(in_reach[u] for u in dst[ptr[k]:ptr[k + 1]])
        in_reach[k] = sink_in[k] or (out and not saved_l[k])
    return np.asarray(in_reach, dtype=bool)


def add_chains(net: FlowNetwork, nodes: np.ndarray) -> FlowNetwork:
    """``net`` plus one auxiliary node ``c_k`` in series after each ``nodes[k]`` (appended
    after ``net``'s nodes): every edge out of ``nodes[k]`` leaves ``c_k`` instead, the edge
    ``nodes[k] -> c_k`` joins them and ``nodes[k]``'s ``sink_out`` moves to ``c_k``. A cut that
    hands ``v = nodes[k]`` to the backward then cuts exactly one of ``v_in -> v_out`` (``v``
    kept on the device) or ``c_in -> c_out`` (``v`` sent to host memory), whichever weighs
    less; users on either side read the same value, so nothing else changes."""
    r, m = net.num_nodes, len(nodes)
    nodes = np.asarray(nodes, dtype=np.int64)
    chain_of = np.full(r, -1, dtype=np.int64)
    chain_of[nodes] = np.arange(r, r + m, dtype=np.int64)
    src = np.where(chain_of[net.src] >= 0, chain_of[net.src], net.src)
    sink_out = net.sink_out.copy()
    sink_out[nodes] = False
    none = np.zeros(m, dtype=bool)
    return FlowNetwork(
        src=np.concatenate([src, nodes]),
        dst=np.concatenate([net.dst, chain_of[nodes]]),
        source_in=np.concatenate([net.source_in, none]),
        sink_in=np.concatenate([net.sink_in, none]),
        sink_out=np.concatenate([sink_out, net.sink_out[nodes]]),
    )
