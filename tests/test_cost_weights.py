"""Node weights: bytes, 1x when materialized anyway, 2x otherwise, and the tie-break."""

from __future__ import annotations

import numpy as np
import torch

from fusioncut.cost import INF, distances, materialized, node_costs, weights
from fusioncut.graph import JointGraph, Role, Value
from fusioncut.ops import OpKind
from fusioncut.options import Options
from fusioncut.policy import analyze

from test_policy_annotations import capture, leaves


def setup(fn, *args, options=Options()):
    gm, n = capture(fn, *args)
    graph = JointGraph.from_fx(gm, n)
    return graph, analyze(graph, options), {x.name: i for i, x in enumerate(graph.nodes)}


def test_cost_tanh_chain_one_or_two_times_bytes_views_look_through():
    graph, policy, at = setup(lambda x: x.tanh().tanh(), *leaves((32,)))
    cost = node_costs(graph, policy, Options())
    b = 32 * 4
    assert cost[at["primals_1"]] == b  # input: already in memory
    assert cost[at["tanh"]] == 2 * b  # fused away unless saved
    assert cost[at["tanh_1"]] == b  # forward output: written anyway
    assert cost[at["detach"]] == 2 * b  # a view costs what its base costs
    assert cost[at["detach_2"]] == b
    assert cost[at["tangents_1"]] >= INF and cost[at["tanh_backward"]] >= INF


def test_cost_unfusible_user_materializes_and_static_inputs_are_free():
    graph, policy, at = setup(lambda x, w: x.cos() @ w, *leaves((4, 8), (8, 8)))
    mat = materialized(graph)
    assert mat[at["cos"]] and mat[at["mm"]]
    static = np.zeros(graph.num_nodes, dtype=bool)
    static[at["primals_2"]] = True
    cost = node_costs(graph, policy, Options(), static_input_nodes=static)
    assert cost[at["cos"]] == 4 * 8 * 4 and cost[at["primals_2"]] == 0
    cost = node_costs(graph, policy, Options(static_inputs_free_to_save=False),
                      static_input_nodes=static)
    assert cost[at["primals_2"]] == 8 * 8 * 4


def test_cost_takes_substituted_sizes():
    graph, policy, at = setup(lambda x: x.tanh().tanh(), *leaves((32,)))
    doubled = node_costs(graph, policy, Options(), nbytes=graph.nbytes * 2)
    base = node_costs(graph, policy, Options())
    finite = base < INF
    assert (doubled[finite] == 2 * base[finite]).all()


def test_cost_unsaveable_values_are_infinite():
    torch.manual_seed(0)
    graph, policy, at = setup(
        lambda x: torch.nn.functional.dropout(x.cos(), 0.5, training=True), *leaves((8,)))
    i = at["native_dropout"]
    assert graph.value[i] == Value.MULTI
    assert weights(graph, policy, Options())[i] >= INF
    assert str(policy.unsaveable[i]) == "not a tensor or SymInt: tuple"


def test_cost_tie_break_orders_bytes_first_then_views_then_distance():
    graph, policy, at = setup(lambda a, b: (a + b).cos().cos(), *leaves((16,), (16,)))
    opts = Options()
    w = weights(graph, policy, opts)
    cost = node_costs(graph, policy, opts)
    finite = np.flatnonzero(cost < INF)
    # Lexicographic: a strictly cheaper node always has a strictly smaller weight.
    order = finite[np.argsort(cost[finite], kind="stable")]
    for lo, hi in zip(order, order[1:]):
        if cost[lo] < cost[hi]:
            assert w[lo] < w[hi]
    # Equal bytes: a base beats a view, then the node closer to the backward wins.
    graph, policy, _ = setup(lambda x: (x.exp() * 2).view(4, 4).t().sin().cos(), *leaves((16,)))
    w = weights(graph, policy, opts)
    cost = node_costs(graph, policy, opts)
    dist = distances(graph, opts.distance_cap)
    is_view = graph.kind == OpKind.VIEW
    checked = 0
    for i in np.flatnonzero(cost < INF):
        for j in np.flatnonzero(cost < INF):
            if cost[i] == cost[j] and (is_view[i], dist[i]) < (is_view[j], dist[j]):
                assert w[i] < w[j]
                checked += 1
    assert checked > 0


def test_cost_distances_count_forward_ops_to_the_backward():
    graph, policy, at = setup(lambda a: a.exp().sin().cos(), *leaves((8,)))
    dist = distances(graph, 32)
    assert dist[at["tangents_1"]] == 0
    assert graph.role[at["cos"]] == Role.FORWARD
    assert dist[at["sin"]] == 1  # its users include backward ops
    assert dist[at["primals_1"]] == 2


def test_cost_huge_sizes_never_reach_infinity():
    graph, policy, at = setup(lambda x: x.tanh().tanh(), *leaves((32,)))
    w = weights(graph, policy, Options(), nbytes=graph.nbytes * (1 << 50))
    finite = node_costs(graph, policy, Options()) < INF
    assert (w[finite] < INF).all() and (w[finite] > 0).all()
