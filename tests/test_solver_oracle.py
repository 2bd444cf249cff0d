"""Property tests of min_cut / min_node_cut / NodeCutGraph against networkx as an oracle."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fusioncut
from fusioncut import INF, _core

ALGORITHMS = ["push_relabel", "boykov_kolmogorov", "auto"]


def oracle_cut(n, src, dst, cap, s, t):
    """(value, source_side) of networkx's minimum cut; INF edges get no capacity attribute."""
    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    for u, v, c in zip(src, dst, cap):
        if u == v:
            continue
        if c >= INF:
            if g.has_edge(u, v):
                g[u][v].pop("capacity", None)
            else:
                g.add_edge(u, v)
        elif g.has_edge(u, v):
            if "capacity" in g[u][v]:
                g[u][v]["capacity"] += int(c)
        else:
            g.add_edge(u, v, capacity=int(c))
    value, (reachable, _) = nx.minimum_cut(g, s, t)
    side = np.zeros(n, dtype=bool)
    side[list(reachable)] = True
    return value, side


@st.composite
def graphs(draw, max_nodes=10, max_edges=30, infinite=True):
    n = draw(st.integers(2, max_nodes))
    m = draw(st.integers(0, max_edges))
    node = st.integers(0, n - 1)
    caps = st.integers(0, 12)
    if infinite:
        caps = st.one_of(caps, caps, caps, st.just(INF))
    src = draw(st.lists(node, min_size=m, max_size=m))
    dst = draw(st.lists(node, min_size=m, max_size=m))
    cap = draw(st.lists(caps, min_size=m, max_size=m))
    s = draw(node)
    t = draw(node.filter(lambda x: x != s))
    return n, src, dst, cap, s, t


def assert_matches_oracle(n, src, dst, cap, s, t, algorithm):
    try:
        expected_value, expected_side = oracle_cut(n, src, dst, cap, s, t)
    except nx.NetworkXUnbounded:
        with pytest.raises(fusioncut.UnboundedCutError) as info:
            fusioncut.min_cut(n, src, dst, cap, s, t, algorithm=algorithm, check=True)
        assert_infinite_path(info.value.path, src, dst, cap, s, t)
        return
    cut = fusioncut.min_cut(n, src, dst, cap, s, t, algorithm=algorithm, check=True)
    assert cut.value == expected_value
    assert type(cut.value) is int
    np.testing.assert_array_equal(cut.source_side, expected_side)
    side = cut.source_side
    crossing = [i for i in range(len(src)) if side[src[i]] and not side[dst[i]]]
    assert cut.cut_edges.tolist() == crossing
    assert sum(cap[i] for i in crossing) == cut.value
    assert all(cap[i] < INF for i in crossing)


def assert_infinite_path(path, src, dst, cap, s, t):
    assert path[0] == s and path[-1] == t
    infinite = {(u, v) for u, v, c in zip(src, dst, cap) if c >= INF}
    assert all((u, v) in infinite for u, v in zip(path, path[1:]))


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@settings(max_examples=150, deadline=None)
@given(graph=graphs(infinite=False))
def test_cut_matches_networkx_finite(graph, algorithm):
    assert_matches_oracle(*graph, algorithm)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@settings(max_examples=150, deadline=None)
@given(graph=graphs(infinite=True))
def test_cut_matches_networkx_with_infinite_edges(graph, algorithm):
    assert_matches_oracle(*graph, algorithm)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_cut_matches_networkx_on_larger_random_graphs(seed, algorithm):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 80))
    m = int(rng.integers(n, 4 * n))
    src = rng.integers(0, n, m).tolist()
    dst = rng.integers(0, n, m).tolist()
    cap = [INF if rng.random() < 0.15 else int(c) for c in rng.integers(0, 50, m)]
    assert_matches_oracle(n, src, dst, cap, 0, n - 1, algorithm)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_node_split_networks_match_networkx(seed, algorithm):
    # Mostly infinite edges, as the partitioner's networks: min_cut's live-network route, where
    # `auto` picks Boykov-Kolmogorov, with idle vertices, zero capacities and parallel edges.
    # int64 arrays, so _solver hands them to C++ without numpy's checks.
    rng = np.random.default_rng(seed)
    k = int(rng.integers(3, 40))
    s, t = 2 * k, 2 * k + 1
    nodes = np.arange(k)
    deps = rng.integers(0, k, (2, int(rng.integers(k, 3 * k))))
    deps = deps[:, deps[0] != deps[1]]
    fed = rng.choice(k, int(rng.integers(1, k + 1)))
    drained = rng.choice(k, int(rng.integers(1, k + 1)))
    extra = rng.integers(0, 2 * k + 2, (2, int(rng.integers(0, 4))))
    src = np.concatenate([2 * nodes, 2 * deps.min(0) + 1, np.full(fed.size, s), 2 * drained + 1,
                          extra[0]])
    dst = np.concatenate([2 * nodes + 1, 2 * deps.max(0), 2 * fed, np.full(drained.size, t),
                          extra[1]])
    cap = np.concatenate([rng.integers(0, 9, k), np.full(deps.shape[1] + fed.size + drained.size,
                                                         INF), rng.integers(0, 5, extra.shape[1])])
    assert_matches_oracle(2 * k + 2, src, dst, cap.astype(np.int64), s, t, algorithm)
    # Sorted by tail, min_cut reads the out-lists straight from the input arrays.
    order = np.argsort(src, kind="stable")
    assert_matches_oracle(2 * k + 2, src[order], dst[order], cap[order].astype(np.int64), s, t,
                          algorithm)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@settings(max_examples=40, deadline=None)
@given(graph=graphs(max_nodes=8, max_edges=20, infinite=True))
def test_huge_capacities_take_the_exact_128_bit_path(graph, algorithm):
    # Capacities near 2**61 make the capacity leaving the source exceed int64 arithmetic.
    n, src, dst, cap, s, t = graph
    big = [c if c >= INF else c * (2**61 // 13) for c in cap]
    assert_matches_oracle(n, src, dst, big, s, t, algorithm)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_cut_value_beyond_int64_is_exact(algorithm):
    m = 100_000
    src = np.zeros(m + 1, dtype=np.int64)
    dst = np.ones(m + 1, dtype=np.int64)
    dst[-1], src[-1] = 2, 1
    cap = np.full(m + 1, 10**14, dtype=np.int64)
    cap[-1] = INF
    cut = fusioncut.min_cut(3, src, dst, cap, 0, 2, algorithm=algorithm, check=True)
    assert cut.value == m * 10**14 > 2**63
    assert cut.cut_edges.tolist() == list(range(m))


def oracle_node_cut(weights, src, dst, source_in, source_out, sink_in, sink_out):
    n = len(weights)
    s, t = 2 * n, 2 * n + 1
    vsrc, vdst, vcap = [], [], []
    for v, w in enumerate(weights):
        vsrc.append(2 * v), vdst.append(2 * v + 1), vcap.append(w)
    for u, v in zip(src, dst):
        vsrc.append(2 * u + 1), vdst.append(2 * v), vcap.append(INF)
    for nodes, side, from_source in [
        (source_in, 0, True), (source_out, 1, True), (sink_in, 0, False), (sink_out, 1, False)
    ]:
        for v in nodes:
            a, b = (s, 2 * v + side) if from_source else (2 * v + side, t)
            vsrc.append(a), vdst.append(b), vcap.append(INF)
    return oracle_cut(2 * n + 2, vsrc, vdst, vcap, s, t)


@st.composite
def node_graphs(draw):
    n = draw(st.integers(1, 9))
    m = draw(st.integers(0, 20))
    node = st.integers(0, n - 1)
    weights = draw(st.lists(st.one_of(st.integers(0, 9), st.integers(0, 9), st.just(INF)),
                            min_size=n, max_size=n))
    src = draw(st.lists(node, min_size=m, max_size=m))
    dst = draw(st.lists(node, min_size=m, max_size=m))
    terminals = [draw(st.lists(node, max_size=3)) for _ in range(4)]
    return weights, src, dst, terminals


def assert_node_cut_matches(cut, weights, src, dst, terminals):
    n = len(weights)
    value, side = oracle_node_cut(weights, src, dst, *terminals)
    assert cut.value == value
    np.testing.assert_array_equal(cut.source_side_in, side[0:2 * n:2])
    np.testing.assert_array_equal(cut.source_side_out, side[1:2 * n:2])
    expected = [v for v in range(n) if side[2 * v] and not side[2 * v + 1]]
    assert cut.cut_nodes.tolist() == expected
    assert sum(weights[v] for v in expected) == cut.value


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@settings(max_examples=150, deadline=None)
@given(graph=node_graphs())
def test_node_cut_matches_networkx_split_graph(graph, algorithm):
    weights, src, dst, terminals = graph
    kwargs = dict(zip(["source_in", "source_out", "sink_in", "sink_out"], terminals))
    try:
        oracle_node_cut(weights, src, dst, *terminals)
    except nx.NetworkXUnbounded:
        with pytest.raises(fusioncut.UnboundedCutError) as info:
            fusioncut.min_node_cut(weights, src, dst, algorithm=algorithm, check=True, **kwargs)
        assert_node_path(info.value.path, weights, src, dst, terminals)
        return
    cut = fusioncut.min_node_cut(weights, src, dst, algorithm=algorithm, check=True, **kwargs)
    assert_node_cut_matches(cut, weights, src, dst, terminals)


def assert_node_path(path, weights, src, dst, terminals):
    source_in, source_out, sink_in, sink_out = terminals
    assert path, "an unbounded path visits at least one node"
    assert path[0] in source_in or path[0] in source_out
    assert path[-1] in sink_in or path[-1] in sink_out
    edges = set(zip(src, dst))
    assert all((u, v) in edges for u, v in zip(path, path[1:]))


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@settings(max_examples=60, deadline=None)
@given(graph=node_graphs(), data=st.data())
def test_node_cut_graph_resolves_for_new_weights(graph, algorithm, data):
    weights, src, dst, terminals = graph
    kwargs = dict(zip(["source_in", "source_out", "sink_in", "sink_out"], terminals))
    reusable = fusioncut.NodeCutGraph(len(weights), src, dst, **kwargs)
    for _ in range(3):
        new = data.draw(st.lists(st.one_of(st.integers(0, 9), st.just(INF)),
                                 min_size=len(weights), max_size=len(weights)))
        try:
            oracle_node_cut(new, src, dst, *terminals)
        except nx.NetworkXUnbounded:
            with pytest.raises(fusioncut.UnboundedCutError):
                reusable.solve(new, algorithm=algorithm, check=True)
            continue
        assert_node_cut_matches(reusable.solve(new, algorithm=algorithm, check=True),
                                new, src, dst, terminals)


def test_same_cut_from_every_algorithm_and_run():
    rng = np.random.default_rng(7)
    n, m = 3000, 12000
    src = rng.integers(0, n, m)
    dst = rng.integers(0, n, m)
    cap = rng.integers(0, 5, m)  # many ties: many minimum cuts to choose from
    cuts = [fusioncut.min_cut(n, src, dst, cap, 0, 1, algorithm=a, check=True)
            for a in ALGORITHMS * 2]
    for cut in cuts[1:]:
        assert cut.value == cuts[0].value
        np.testing.assert_array_equal(cut.source_side, cuts[0].source_side)
        np.testing.assert_array_equal(cut.cut_edges, cuts[0].cut_edges)


def test_core_self_check_is_callable_directly():
    src = np.array([0, 1, 0], dtype=np.int64)
    dst = np.array([1, 2, 2], dtype=np.int64)
    cap = np.array([4, 3, 1], dtype=np.int64)
    r = _core.min_cut(3, src, dst, cap, 0, 2, "push_relabel", True)
    assert (r.value, r.source_side.tolist(), r.cut_edges.tolist(), r.algorithm) == (
        4, [True, True, False], [1, 2], "push_relabel")


@pytest.mark.parametrize("seed", range(6))
def test_node_cut_graph_seeded_from_the_terminal_borders_matches_networkx(seed):
    """NodeCutGraph's Boykov-Kolmogorov starts from the source- and sink-set vertices that
    border another role and finds the idle vertices' sides by a search over them alone: on
    dataflow-shaped networks with wide terminal sets (infinite weights next to the terminals)
    and idle vertices (zero weights cutting paths off), re-solved with the same pattern and
    with new ones, every cut is networkx's."""
    rng = np.random.default_rng(seed)
    n = 60
    src, dst = [], []
    for v in range(1, n):  # each node reads one to three earlier ones
        for u in rng.choice(v, size=min(v, int(rng.integers(1, 4))), replace=False):
            src.append(int(u))
            dst.append(v)
    terminals = [list(range(6)), [], list(range(n - 6, n)), list(rng.choice(n, 4))]
    kwargs = dict(zip(["source_in", "source_out", "sink_in", "sink_out"], terminals))
    graph = fusioncut.NodeCutGraph(n, src, dst, **kwargs)
    pattern = rng.choice(3, size=n, p=[0.15, 0.45, 0.4])  # zero, finite, infinite
    for round_ in range(6):
        if round_ == 3:  # a new pattern: the borders and the idle vertices change
            pattern = rng.choice(3, size=n, p=[0.25, 0.45, 0.3])
        weights = [0 if k == 0 else INF if k == 2 else int(rng.integers(1, 50))
                   for k in pattern]
        try:
            oracle_node_cut(weights, src, dst, *terminals)
        except nx.NetworkXUnbounded:
            continue
        for algorithm in ("boykov_kolmogorov", "push_relabel"):
            cut = graph.solve(weights, algorithm=algorithm, check=True)
            assert_node_cut_matches(cut, weights, src, dst, terminals)
