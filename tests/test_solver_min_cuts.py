"""Every minimum node cut at once (``NodeCutGraph.solve_components``, Picard-Queyranne):
the closures of the residual components' DAG are exactly the minimum cuts, against a
brute-force enumeration of every cut of small graphs."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fusioncut import INF, NodeCutGraph

ALGORITHMS = ("push_relabel", "boykov_kolmogorov")


def _all_min_cuts(n, src, dst, weights, source_in, sink_in, sink_out):
    """Brute force: every side assignment of the 2n split vertices with a finite cut, the
    minimum value, and the set of (in-sides, out-sides) reaching it."""
    best, cuts = None, set()
    for bits in itertools.product((0, 1), repeat=2 * n):
        side_in, side_out = bits[:n], bits[n:]
        if any(side_in[v] == 0 for v in source_in) or any(side_in[v] for v in sink_in) \
                or any(side_out[v] for v in sink_out):
            continue
        if any(side_out[u] and not side_in[v] for u, v in zip(src, dst)):
            continue  # an infinite dependency crosses
        value = 0
        for v in range(n):
            if side_in[v] and not side_out[v]:
                value = INF if weights[v] >= INF or value >= INF else value + weights[v]
        if value >= INF:
            continue
        if best is None or value < best:
            best, cuts = value, set()
        if value == best:
            cuts.add(bits)
    return best, cuts


def _closures(comps, n):
    """Every side assignment a closure of the component DAG gives."""
    count = comps.count
    forces = [set() for _ in range(count)]
    for t, h in zip(comps.dag_tail.tolist(), comps.dag_head.tolist()):
        forces[t].add(h)
    out = set()
    for chosen in itertools.product((0, 1), repeat=count):
        if any(chosen[t] and not chosen[h] for t in range(count) for h in forces[t]):
            continue

        def side(c):
            return 1 if c == -1 else 0 if c == -2 else chosen[c]

        out.add(tuple(side(c) for c in comps.component_in.tolist())
                + tuple(side(c) for c in comps.component_out.tolist()))
    return out


def _check(n, src, dst, weights, source_in, sink_in, sink_out, algorithm):
    graph = NodeCutGraph(n, np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64),
                         source_in=np.asarray(source_in, dtype=np.int64),
                         sink_in=np.asarray(sink_in, dtype=np.int64),
                         sink_out=np.asarray(sink_out, dtype=np.int64))
    best, cuts = _all_min_cuts(n, src, dst, weights, source_in, sink_in, sink_out)
    w = np.asarray(weights, dtype=np.int64)
    if best is None:
        return
    cut, comps = graph.solve_components(w, algorithm=algorithm, check=True)
    assert cut.value == best
    assert _closures(comps, n) == cuts
    assert np.all(comps.dag_tail > comps.dag_head)  # ids fall along every arc


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_min_cuts_of_a_chain_are_every_link(algorithm):
    # s -> 0 -> 1 -> 2 -> 3 -> t, equal weights: any one node is a minimum cut.
    n = 4
    _check(n, [0, 1, 2], [1, 2, 3], [5, 5, 5, 5], [0], [], [3], algorithm)
    graph = NodeCutGraph(n, np.array([0, 1, 2]), np.array([1, 2, 3]), source_in=[0],
                         sink_out=[3])
    _, comps = graph.solve_components(np.full(4, 5, dtype=np.int64), algorithm=algorithm)
    assert comps.count == 3  # the three links between the four cuts


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_min_cuts_are_the_closures_of_the_residual_components(data):
    n = data.draw(st.integers(1, 5))
    pairs = [(u, v) for u in range(n) for v in range(n) if u < v]
    edges = data.draw(st.lists(st.sampled_from(pairs), unique=True, max_size=len(pairs))) \
        if pairs else []
    weights = data.draw(st.lists(st.sampled_from([0, 1, 2, 3, INF]), min_size=n, max_size=n))
    source_in = data.draw(st.lists(st.integers(0, n - 1), unique=True, max_size=2))
    sink_in = data.draw(st.lists(st.integers(0, n - 1), unique=True, max_size=1))
    sink_out = data.draw(st.lists(st.integers(0, n - 1), unique=True, min_size=1, max_size=2))
    algorithm = data.draw(st.sampled_from(ALGORITHMS))
    src = [u for u, _ in edges]
    dst = [v for _, v in edges]
    try:
        _check(n, src, dst, weights, source_in, sink_in, sink_out, algorithm)
    except ValueError as e:  # no finite cut: the brute force found none either
        assert "no finite cut" in str(e)


def test_solve_components_refuses_what_solve_refuses():
    graph = NodeCutGraph(3, np.array([0, 1]), np.array([1, 2]), source_in=[0], sink_out=[2])
    with pytest.raises(ValueError, match=r"budget: weights\[1\] = -1"):
        graph.solve_components(np.array([1, -1, 1], dtype=np.int64), function="budget")
    with pytest.raises(TypeError, match="C-contiguous int64"):
        graph.solve_components(np.array([1.0, 1.0, 1.0]))
    with pytest.raises(ValueError, match="weights has length 2"):
        graph.solve_components(np.array([1, 1], dtype=np.int64))
    with pytest.raises(ValueError, match="no finite cut"):
        graph.solve_components(np.full(3, INF, dtype=np.int64))


def test_solve_components_on_the_128_bit_path():
    """Weights whose total reaches INF take the 128-bit flow; its residual is the one read."""
    n = 4
    w = np.array([INF - 1, INF - 1, 3, 3], dtype=np.int64)
    graph = NodeCutGraph(n, np.array([0, 1, 2]), np.array([2, 3, 3]), source_in=[0, 1],
                         sink_out=[3])
    cut, comps = graph.solve_components(w, check=True)
    assert cut.value == 3
    best, cuts = _all_min_cuts(n, [0, 1, 2], [2, 3, 3], w.tolist(), [0, 1], [], [3])
    assert best == 3 and _closures(comps, n) == cuts
