"""Hypothesis fuzzing of the solver's entry points with hostile values: capacities and weights
near INF whose sums need 128 bits (checked exactly against networkx), and arbitrary arrays,
dtypes and int64 extremes, which must give a correct cut or a clean error naming the function
and the argument, never a crash. The hand-written hostile cases are in test_hostile_solver.py."""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import _oracle as oracle
import fusioncut
from fusioncut import INF, _core
from fusioncut._solver import ALGORITHMS

MAX_VERTICES = 2**31 - 3


def i64(x):
    return np.asarray(x, dtype=np.int64)


def networkx_value(n, src, dst, cap, s, t):
    """Exact max-flow value with Python ints (None if unbounded): the oracle."""
    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    for u, v, c in zip(src, dst, cap):
        if u == v or c == 0:
            continue
        if g.has_edge(u, v):
            old = g[u][v].get("capacity")
            if old is None or c >= INF:
                g[u][v].pop("capacity", None)
            else:
                g[u][v]["capacity"] = old + c
        elif c >= INF:
            g.add_edge(u, v)
        else:
            g.add_edge(u, v, capacity=c)
    try:
        return nx.maximum_flow_value(g, s, t)
    except nx.NetworkXUnbounded:
        return None


HUGE = [0, 1, 2, INF - 1, INF - 2, 2**61, 2**62 - 2**40, INF]


@st.composite
def big_capacity_graphs(draw):
    n = draw(st.integers(2, 7))
    m = draw(st.integers(0, 14))
    src = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    dst = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    cap = draw(st.lists(st.sampled_from(HUGE) | st.integers(0, INF), min_size=m, max_size=m))
    s = draw(st.integers(0, n - 1))
    t = draw(st.integers(0, n - 1).filter(lambda x: x != s))
    return n, src, dst, cap, s, t


class TestOverflowProperties:
    @settings(max_examples=300, deadline=None)
    @given(big_capacity_graphs(), st.sampled_from(ALGORITHMS))
    def test_flow_equals_cut_capacity_near_infinity(self, graph, algorithm):
        n, src, dst, cap, s, t = graph
        expected = networkx_value(*graph)
        if expected is None:
            with pytest.raises(fusioncut.UnboundedCutError):
                fusioncut.min_cut(*graph, algorithm=algorithm, check=True)
            return
        cut = fusioncut.min_cut(*graph, algorithm=algorithm, check=True)
        assert cut.value == expected
        assert cut.value == sum(cap[e] for e in cut.cut_edges.tolist())
        assert cut.source_side[s] and not cut.source_side[t]

    @settings(max_examples=150, deadline=None)
    @given(st.lists(st.sampled_from(HUGE), min_size=1, max_size=6), st.data())
    def test_node_cut_value_is_exact_near_infinity(self, weights, data):
        k = len(weights)
        m = data.draw(st.integers(0, 8))
        src = data.draw(st.lists(st.integers(0, k - 1), min_size=m, max_size=m))
        dst = data.draw(st.lists(st.integers(0, k - 1), min_size=m, max_size=m))
        graph = fusioncut.NodeCutGraph(k, src, dst, source_in=[0], sink_out=[k - 1])
        try:
            expected = oracle.min_node_cut(weights, src, dst, source_in=[0], sink_out=[k - 1])
        except oracle.UnboundedCutError:
            with pytest.raises(fusioncut.UnboundedCutError) as info:
                graph.solve(weights, check=True)
            path = info.value.path  # enters at 0's input, leaves at k-1's output: all INF
            assert path[0] == 0 and path[-1] == k - 1
            assert all(weights[v] == INF for v in path)
            assert all((u, v) in set(zip(src, dst)) for u, v in zip(path, path[1:]))
            return
        cut = graph.solve(weights, check=True)
        assert cut.value == expected.value == sum(weights[v] for v in cut.cut_nodes.tolist())
        np.testing.assert_array_equal(cut.cut_nodes, expected.cut_nodes)
        assert graph.solve_int64(i64(weights)).value == cut.value


def valid_min_cut_input(n, src, dst, cap, s, t):
    if not (0 <= n <= MAX_VERTICES and 0 <= s < n and 0 <= t < n and s != t):
        return False
    if not len(src) == len(dst) == len(cap):
        return False
    if any(not 0 <= x < n for x in list(src) + list(dst)):
        return False
    return all(c == math.inf or (not math.isnan(c) and 0 <= c <= INF and c == int(c))
               for c in cap)


ARGUMENT_NAMES = ("num_nodes", "source", "sink", "src", "dst", "capacity")
values = st.integers(-3, 8) | st.sampled_from([2**31, -(2**63), 2**63 - 1, INF, INF + 1])


class TestFuzz:
    @settings(max_examples=400, deadline=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(n=st.integers(-2, 8), s=values, t=values, data=st.data(),
           dtype=st.sampled_from(["int64", "int32", "float64", "object", "list"]))
    def test_min_cut_returns_a_cut_or_a_clean_error(self, n, s, t, data, dtype):
        m = data.draw(st.integers(0, 8))
        lengths = [m, m, m] if data.draw(st.booleans()) else [
            data.draw(st.integers(0, 8)) for _ in range(3)]
        src, dst = (data.draw(st.lists(values, min_size=k, max_size=k)) for k in lengths[:2])
        cap = data.draw(st.lists(values | st.sampled_from([0.5, -1.0, math.inf, math.nan]),
                                 min_size=lengths[2], max_size=lengths[2]))

        def convert(xs, floats=False):
            if dtype == "list":
                return xs
            if dtype == "object":
                return np.array(xs, dtype=object)
            if floats and any(isinstance(x, float) for x in xs):
                return np.array(xs, dtype=np.float64)
            try:
                return np.array(xs, dtype=dtype)
            except OverflowError:
                return np.array(xs, dtype=object)

        cap_array = convert(cap, floats=True)
        if np.asarray(cap_array).dtype.kind == "f":
            cap = np.asarray(cap_array).tolist()  # what numpy made of the ints (rounded)
        args = (n, convert(src), convert(dst), cap_array, s, t)
        valid = valid_min_cut_input(n, src, dst, cap, s, t)
        try:
            cut = fusioncut.min_cut(*args)
        except fusioncut.UnboundedCutError:
            assert valid
            return
        except (TypeError, ValueError, IndexError) as e:
            message = str(e)
            assert message.startswith("min_cut: "), message
            assert any(name in message for name in ARGUMENT_NAMES), message
            # Valid values are refused only for their type: float indices, float objects.
            assert not valid or dtype == "float64" or (
                dtype == "object" and any(isinstance(c, float) for c in cap)), message
            return
        assert valid
        int_cap = [INF if c == math.inf else int(c) for c in cap]
        assert cut.value == networkx_value(n, src, dst, int_cap, s, t)

    @settings(max_examples=300, deadline=None)
    @given(st.data())
    def test_core_never_crashes_on_arbitrary_int64(self, data):
        int64s = st.integers(-(2**63), 2**63 - 1) | st.integers(-2, 6)
        n = data.draw(st.integers(0, 6))
        m = data.draw(st.integers(0, 8))
        arrays = [i64(data.draw(st.lists(int64s, min_size=m, max_size=m))) for _ in range(3)]
        try:
            cut = _core.min_cut(n, *arrays, data.draw(int64s), data.draw(int64s))
        except (ValueError, IndexError) as e:
            assert str(e).startswith("min_cut: "), str(e)
            return
        assert cut.source_side.shape == (n,)
        assert cut.value == sum(int(arrays[2][e]) for e in cut.cut_edges.tolist())

    @settings(max_examples=200, deadline=None)
    @given(st.data())
    def test_node_cut_graph_never_crashes_on_arbitrary_int64(self, data):
        int64s = st.integers(-(2**63), 2**63 - 1) | st.integers(-2, 6)
        n = data.draw(st.integers(0, 6))
        lists = [i64(data.draw(st.lists(int64s, max_size=5))) for _ in range(4)]
        m = data.draw(st.integers(0, 6))
        src, dst = (i64(data.draw(st.lists(int64s, min_size=m, max_size=m))) for _ in range(2))
        try:
            graph = _core.NodeCutGraph(n, src, dst, *lists)
        except (ValueError, IndexError) as e:
            assert str(e).startswith("NodeCutGraph: "), str(e)
            return
        weights = i64(data.draw(st.lists(int64s, min_size=n, max_size=n)))
        try:
            cut = graph.solve(weights)
        except (ValueError, IndexError) as e:
            assert str(e).startswith("NodeCutGraph.solve: "), str(e)
            return
        assert cut.value == sum(int(weights[v]) for v in cut.cut_nodes.tolist())
