"""Algorithm choice, determinism, threads, and the recorded torch networks."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import fusioncut
from fusioncut import INF, _core

DATA = os.path.join(os.path.dirname(__file__), "..", "bench", "data")


def random_graph(seed, n=400, m=1600, infinite_share=0.0):
    rng = np.random.default_rng(seed)
    src = rng.integers(0, n, m)
    dst = rng.integers(0, n, m)
    cap = rng.integers(0, 20, m)
    cap[rng.random(m) < infinite_share] = INF
    return n, src, dst, cap


def test_auto_picks_boykov_kolmogorov_for_mostly_infinite_networks():
    # Node-split pairs in_i = 2i -> out_i = 2i + 1 (finite), out_i -> in_(i+1), in_(i+2) (INF).
    k = 100
    n = 2 * k
    nodes = np.arange(k)
    src = np.concatenate([2 * nodes, 2 * nodes[:-1] + 1, 2 * nodes[:-2] + 1])
    dst = np.concatenate([2 * nodes + 1, 2 * nodes[1:], 2 * nodes[2:]])
    cap = np.concatenate([np.full(k, 5), np.full(2 * k - 3, INF)])
    result = _core.min_cut(n, src, dst, cap, 0, n - 1, "auto", True)
    assert (result.value, result.algorithm) == (5, "boykov_kolmogorov")  # first or last node
    n, src, dst, cap = random_graph(1)
    assert _core.min_cut(n, src, dst, cap, 0, 1, "auto", True).algorithm == "push_relabel"


@pytest.mark.parametrize("algorithm", ["auto", "push_relabel", "boykov_kolmogorov"])
def test_float_and_int_capacities_give_the_same_cut(algorithm):
    n, src, dst, cap = random_graph(2, infinite_share=0.2)
    as_float = np.where(cap >= INF, np.inf, cap.astype(np.float64))
    a = fusioncut.min_cut(n, src, dst, cap, 0, 1, algorithm=algorithm, check=True)
    b = fusioncut.min_cut(n, src, dst, as_float, 0, 1, algorithm=algorithm, check=True)
    assert a.value == b.value
    np.testing.assert_array_equal(a.source_side, b.source_side)
    np.testing.assert_array_equal(a.cut_edges, b.cut_edges)


def test_concurrent_solves_from_threads_agree():
    graphs = [random_graph(seed, infinite_share=0.1) for seed in range(8)]
    expected = [fusioncut.min_cut(*g, 0, 1) for g in graphs]
    node_graph = fusioncut.NodeCutGraph(50, np.arange(49), np.arange(1, 50),
                                        source_in=[0], sink_out=[49])
    weights = [np.random.default_rng(s).integers(1, 9, 50) for s in range(8)]
    node_expected = [node_graph.solve(w) for w in weights]

    def work(i):
        cut = fusioncut.min_cut(*graphs[i % 8], 0, 1)
        node_cut = node_graph.solve(weights[i % 8])
        return i, cut, node_cut

    with ThreadPoolExecutor(4) as pool:
        for i, cut, node_cut in pool.map(work, range(64)):
            assert cut.value == expected[i % 8].value
            np.testing.assert_array_equal(cut.source_side, expected[i % 8].source_side)
            assert node_cut.cut_nodes.tolist() == node_expected[i % 8].cut_nodes.tolist()


def test_node_cut_graph_is_deterministic_across_resolves():
    rng = np.random.default_rng(3)
    n = 300
    src = rng.integers(0, n, 600)
    dst = rng.integers(0, n, 600)
    graph = fusioncut.NodeCutGraph(n, src, dst, source_in=np.arange(10),
                                   sink_out=np.arange(n - 10, n))
    weights = rng.integers(0, 3, n)  # many ties
    first = graph.solve(weights, check=True)
    for algorithm in ["push_relabel", "boykov_kolmogorov", "auto"]:
        again = graph.solve(weights, algorithm=algorithm, check=True)
        assert again.value == first.value
        np.testing.assert_array_equal(again.source_side_in, first.source_side_in)
        np.testing.assert_array_equal(again.source_side_out, first.source_side_out)
    fresh = fusioncut.min_node_cut(weights, src, dst, source_in=np.arange(10),
                                   sink_out=np.arange(n - 10, n))
    assert fresh.cut_nodes.tolist() == first.cut_nodes.tolist()


@pytest.mark.parametrize("algorithm", ["auto", "push_relabel", "boykov_kolmogorov"])
def test_resolves_that_keep_or_change_the_zero_finite_infinite_pattern_match_a_fresh_graph(
        algorithm):
    """NodeCutGraph keeps its reductions while every weight stays zero, finite or infinite as
    in the last successful solve (a parametric sweep): each result, with a pattern kept,
    changed, or after a solve with no finite cut, equals a fresh graph's."""
    rng = np.random.default_rng(11)
    n = 240
    src, dst = rng.integers(0, n, 700), rng.integers(0, n, 700)
    ends = dict(source_in=np.arange(8), sink_out=np.arange(n - 8, n))
    graph = fusioncut.NodeCutGraph(n, src, dst, **ends)
    pattern = rng.integers(0, 3, n)  # 0: zero, 1: finite, 2: infinite
    for step in range(40):
        if step % 5 == 4:  # a new pattern now and then
            pattern = rng.integers(0, 3, n)
        weights = np.where(pattern == 0, 0, np.where(pattern == 2, INF,
                                                     rng.integers(1, 50, n)))
        if step == 17:  # no finite cut: an infinite path from source to sink
            weights = np.full(n, INF, dtype=np.int64)
        fresh = fusioncut.NodeCutGraph(n, src, dst, **ends)
        try:
            want = fresh.solve(weights, algorithm=algorithm, check=True)
        except ValueError:
            with pytest.raises(ValueError):
                graph.solve(weights, algorithm=algorithm, check=True)
            continue
        got = graph.solve(weights, algorithm=algorithm, check=True)
        assert got.value == want.value
        np.testing.assert_array_equal(got.source_side_in, want.source_side_in)
        np.testing.assert_array_equal(got.source_side_out, want.source_side_out)


def recorded(name):
    path = os.path.join(DATA, f"{name}.npz")
    if not os.path.exists(path):
        pytest.skip(f"{path} not present")
    return np.load(path)


def split_back_into_nodes(d):
    """The node-level problem behind a recorded torch network (vertices named X_in / X_out)."""
    names, s, t = d["names"], int(d["source"]), int(d["sink"])
    node_of, side = {}, {}
    for v, name in enumerate(names):
        if v not in (s, t):
            base, suffix = name.rsplit("_", 1)
            side[v] = (node_of.setdefault(base, len(node_of)), suffix == "out")
    weights = np.full(len(node_of), INF, dtype=np.int64)
    deps, terminals = [], {"source_in": [], "source_out": [], "sink_in": [], "sink_out": []}
    for u, v, c in zip(d["src"].tolist(), d["dst"].tolist(), d["capacity"].tolist()):
        if u == s:
            terminals["source_out" if side[v][1] else "source_in"].append(side[v][0])
        elif v == t:
            terminals["sink_out" if side[u][1] else "sink_in"].append(side[u][0])
        elif side[u][0] == side[v][0] and not side[u][1] and side[v][1]:
            weights[side[u][0]] = c
        else:
            deps.append((side[u][0], side[v][0]))
    deps = np.array(deps, dtype=np.int64)
    return weights, deps[:, 0], deps[:, 1], terminals


@pytest.mark.parametrize("algorithm", ["auto", "push_relabel", "boykov_kolmogorov"])
def test_recorded_gpt_network_matches_torchs_networkx_value(algorithm):
    d = recorded("gpt12")
    cut = fusioncut.min_cut(int(d["num_nodes"]), d["src"].astype(np.int64),
                            d["dst"].astype(np.int64), d["capacity"], int(d["source"]),
                            int(d["sink"]), algorithm=algorithm, check=True)
    assert cut.value == int(d["cut_value"])
    weights, src, dst, terminals = split_back_into_nodes(d)
    node_cut = fusioncut.min_node_cut(weights, src, dst, algorithm=algorithm, check=True,
                                      **terminals)
    assert node_cut.value == int(d["cut_value"])


@pytest.mark.parametrize("algorithm", ["push_relabel", "boykov_kolmogorov"])
def test_node_cut_value_beyond_int64_is_exact(algorithm):
    # Ten parallel nodes of weight 2**61 - 1 between source and sink, behind one INF node.
    k = 10
    weights = np.full(k + 1, 2**61 - 1, dtype=np.int64)
    weights[0] = INF
    graph = fusioncut.NodeCutGraph(k + 1, np.zeros(k, dtype=np.int64), np.arange(1, k + 1),
                                   source_in=[0], sink_out=np.arange(1, k + 1))
    cut = graph.solve(weights, algorithm=algorithm, check=True)
    assert cut.value == k * (2**61 - 1) > 2**63
    assert cut.cut_nodes.tolist() == list(range(1, k + 1))


def test_core_results_are_named_structs():
    src, dst, cap = (np.array(x, dtype=np.int64) for x in ([0, 1, 0], [1, 2, 2], [4, 3, 1]))
    result = _core.min_cut(3, src, dst, cap, 0, 2, "boykov_kolmogorov", True)
    assert isinstance(result, _core.MinCutResult)
    assert (result.value, result.source_side.tolist(), result.cut_edges.tolist(),
            result.algorithm) == (4, [True, True, False], [1, 2], "boykov_kolmogorov")
    assert "value=4" in repr(result)
    graph = _core.NodeCutGraph(3, src[:2], dst[:2], np.array([0]), np.array([], np.int64),
                               np.array([], np.int64), np.array([2]))
    node = graph.solve(np.array([5, 2, 7]), "push_relabel")
    assert isinstance(node, _core.NodeCutResult)
    assert (node.value, node.cut_nodes.tolist(), node.source_side_in.tolist(),
            node.source_side_out.tolist(), node.algorithm) == (
        2, [1], [True, True, False], [True, False, False], "push_relabel")


@pytest.mark.parametrize("algorithm", ["auto", "push_relabel", "boykov_kolmogorov"])
def test_solve_int64_equals_solve(algorithm):
    rng = np.random.default_rng(5)
    n = 200
    src, dst = rng.integers(0, n, 500), rng.integers(0, n, 500)
    graph = fusioncut.NodeCutGraph(n, src, dst, source_in=np.arange(5),
                                   sink_out=np.arange(n - 5, n))
    for seed in range(5):
        weights = np.random.default_rng(seed).integers(0, 9, n)
        weights[weights == 8] = INF
        a = graph.solve(weights, algorithm=algorithm, check=True)
        b = graph.solve_int64(weights, algorithm=algorithm, check=True)
        assert isinstance(b, fusioncut.NodeCut)
        assert a.value == b.value
        np.testing.assert_array_equal(a.cut_nodes, b.cut_nodes)
        np.testing.assert_array_equal(a.source_side_in, b.source_side_in)
        np.testing.assert_array_equal(a.source_side_out, b.source_side_out)
