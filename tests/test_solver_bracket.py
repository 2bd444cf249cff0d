"""The bracketed re-solve of a parametric sweep (``NodeCutGraph._solve_between``): where the
weights that change grow on nodes attached to the source, the canonical cuts nest, and the
solve on the band between two of them gives the whole network's cut, to the node; and the
budget frontier, which brackets every solve of its sweeps, is the same plan for plan."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fusioncut import INF, NodeCutGraph


def _network(data):
    """A random DAG with source-attached switch nodes (``add_switches``' shape), a node
    weight per node and the switch prices that grow with lambda."""
    n = data.draw(st.integers(4, 24), label="n")
    pairs = [(u, v) for u in range(n) for v in range(u + 1, n)]
    edges = data.draw(st.lists(st.sampled_from(pairs), max_size=3 * n, unique=True),
                      label="edges")
    switched = data.draw(st.lists(st.integers(1, n - 1), max_size=n // 2, unique=True),
                         label="switched")
    m = len(switched)
    src = [u for u, _ in edges] + list(range(n, n + m))
    dst = [v for _, v in edges] + switched
    source_in = [0] + list(range(n, n + m))
    sink_out = [n - 1] + data.draw(st.lists(st.integers(0, n - 1), max_size=2), label="out")
    weights = np.array(data.draw(st.lists(st.sampled_from([0, 1, 2, 3, 5, 8, 13, INF]),
                                          min_size=n, max_size=n), label="weights"),
                       dtype=np.int64)
    prices = np.array(data.draw(st.lists(st.integers(0, 9), min_size=m, max_size=m),
                                label="prices"), dtype=np.int64)
    graph = NodeCutGraph(n + m, np.array(src, dtype=np.int64), np.array(dst, dtype=np.int64),
                         source_in=np.array(source_in, dtype=np.int64),
                         sink_out=np.array(sorted(set(sink_out)), dtype=np.int64))
    return graph, weights, prices


def _at(weights, prices, lam):
    return np.concatenate([weights, np.rint(lam * prices).astype(np.int64)])


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_a_bracketed_solve_is_the_whole_solve(data):
    graph, weights, prices = _network(data)
    lams = sorted(data.draw(st.lists(st.floats(0, 6, allow_nan=False), min_size=3,
                                     max_size=3, unique=True), label="lams"))
    try:
        lo, mid, hi = (graph.solve_int64(_at(weights, prices, lam)) for lam in lams)
    except ValueError:  # no finite cut at some lambda: nothing to bracket
        return
    for share in (1, 4):  # the band alone, and (when it is wide) the whole network
        between = graph._solve_between(_at(weights, prices, lams[1]), lo, hi,
                                       max_band_share=share)
        assert between.value == mid.value
        np.testing.assert_array_equal(between.cut_nodes, mid.cut_nodes)
        np.testing.assert_array_equal(between.source_side_in, mid.source_side_in)
        np.testing.assert_array_equal(between.source_side_out, mid.source_side_out)
    # The canonical cuts nest: what the band fixes was on its side already.
    assert not (lo.source_side_in & ~mid.source_side_in).any()
    assert not (mid.source_side_out & ~hi.source_side_out).any()


def test_a_bracket_out_of_order_is_refused():
    graph = NodeCutGraph(3, np.array([0, 1], dtype=np.int64), np.array([1, 2], dtype=np.int64),
                         source_in=np.array([0], dtype=np.int64),
                         sink_out=np.array([2], dtype=np.int64))
    few = graph.solve_int64(np.array([5, 1, 9], dtype=np.int64))   # cuts node 1
    many = graph.solve_int64(np.array([1, 5, 9], dtype=np.int64))  # cuts node 0
    with pytest.raises(ValueError, match="lower cut.*inside the upper"):
        graph._solve_between(np.array([5, 1, 9], dtype=np.int64), few, many)


@pytest.mark.parametrize("options", [dict(device="h100"), dict(device="cpu"),
                                     dict(device="h100", offload="auto")])
def test_the_frontier_is_the_same_with_and_without_brackets(monkeypatch, options):
    from fusioncut import budget_plans
    from models import pareto_captured, small_gpt

    def plans(front):
        limits = np.linspace(front.least.saved_bytes, front.runtime.saved_bytes, 7)
        return ([(p.saved.tolist(), p.offloaded.tolist(), p.peak.peak) for p in front.points],
                [front.for_bytes(int(b))[0].saved.tolist() for b in limits])

    calls = []
    between = budget_plans.NodeCutGraph._solve_between

    def counted(self, *args, **kwargs):  # every bracketed solve on its band alone
        calls.append(1)
        return between(self, *args, **kwargs, max_band_share=1)

    monkeypatch.setattr(budget_plans.NodeCutGraph, "_solve_between", counted)
    bracketed = plans(pareto_captured(small_gpt(), **options))
    assert calls  # the sweeps bracket their solves (the closed network's, with offload)
    monkeypatch.setattr(budget_plans.BudgetNetwork, "nested", property(lambda self: False))
    assert plans(pareto_captured(small_gpt(), **options)) == bracketed
