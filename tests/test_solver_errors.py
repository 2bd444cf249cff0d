"""Bad input raises a clear exception naming function, argument, index, value and range."""

from __future__ import annotations

import re

import numpy as np
import pytest

import fusioncut
from fusioncut import INF, _core

SRC, DST, CAP = [0, 1, 2], [1, 2, 3], [5, 5, 5]


def raises(exc, message, fn, *args, **kwargs):
    with pytest.raises(exc, match=re.escape(message)):
        fn(*args, **kwargs)


def test_min_cut_index_out_of_range():
    raises(IndexError, "min_cut: src[1] = 9 is out of range [0, 4)",
           fusioncut.min_cut, 4, [0, 9, 2], DST, CAP, 0, 3)
    raises(IndexError, "min_cut: dst[2] = -1 is out of range [0, 4)",
           fusioncut.min_cut, 4, SRC, [1, 2, -1], CAP, 0, 3)
    raises(IndexError, "min_cut: source = 4 is out of range [0, 4)",
           fusioncut.min_cut, 4, SRC, DST, CAP, 4, 3)
    raises(IndexError, "min_cut: sink = -1 is out of range [0, 4)",
           fusioncut.min_cut, 4, SRC, DST, CAP, 0, -1)


def test_min_cut_source_equals_sink():
    raises(ValueError, "min_cut: source and sink are both 2; they must differ",
           fusioncut.min_cut, 4, SRC, DST, CAP, 2, 2)


def test_min_cut_bad_capacities():
    raises(ValueError, "min_cut: capacity[1] = -3 is negative",
           fusioncut.min_cut, 4, SRC, DST, [1, -3, 2], 0, 3)
    raises(ValueError, "min_cut: capacity[0] = -1.0 is negative",
           fusioncut.min_cut, 4, SRC, DST, [-1.0, 1.0, 2.0], 0, 3)
    raises(ValueError, "min_cut: capacity[0] = -inf is negative",
           fusioncut.min_cut, 4, SRC, DST, [-np.inf, 1.0, 2.0], 0, 3)
    raises(ValueError, "min_cut: capacity[2] = nan is not a number",
           fusioncut.min_cut, 4, SRC, DST, [1.0, 2.0, np.nan], 0, 3)
    raises(ValueError, "min_cut: capacity[1] = 2.5 is not a whole number",
           fusioncut.min_cut, 4, SRC, DST, [1.0, 2.5, 3.0], 0, 3)
    raises(ValueError, "min_cut: capacity[0] = 9.223372036854776e+18 is out of range [0, 2**62]",
           fusioncut.min_cut, 4, SRC, DST, [float(2**63), 1.0, 1.0], 0, 3)
    raises(ValueError, f"min_cut: capacity[2] = {INF + 1} is out of range [0, 2**62]",
           fusioncut.min_cut, 4, SRC, DST, [1, 1, INF + 1], 0, 3)


def test_python_ints_beyond_int64_are_range_errors():
    raises(ValueError, f"min_cut: capacity[1] = {2**70} is out of range [0, 2**62]",
           fusioncut.min_cut, 4, SRC, DST, [1, 2**70, 1], 0, 3)
    raises(IndexError, f"min_cut: dst[0] = {2**64} is out of range [0, 4)",
           fusioncut.min_cut, 4, SRC, [2**64, 2, 3], CAP, 0, 3)
    raises(TypeError, "min_cut: capacity must be an integer array, got str 'x' at index 2",
           fusioncut.min_cut, 4, SRC, DST, np.array([1, 2, "x"], dtype=object), 0, 3)
    as_objects = [np.array(x, dtype=object) for x in (SRC, DST, CAP)]
    assert fusioncut.min_cut(4, *as_objects, 0, 3).value == 5


def test_min_cut_lengths_dtypes_shapes():
    raises(ValueError, "min_cut: dst has length 2 but src has length 3",
           fusioncut.min_cut, 4, SRC, [1, 2], CAP, 0, 3)
    raises(ValueError, "min_cut: capacity has length 4 but src has length 3",
           fusioncut.min_cut, 4, SRC, DST, [1, 2, 3, 4], 0, 3)
    raises(TypeError, "min_cut: src must be an integer array, got dtype float64",
           fusioncut.min_cut, 4, [0.0, 1.0, 2.0], DST, CAP, 0, 3)
    raises(TypeError, "min_cut: dst must be a one-dimensional array, got shape (3, 1)",
           fusioncut.min_cut, 4, SRC, [[1], [2], [3]], CAP, 0, 3)
    raises(TypeError, "min_cut: capacity must be an int64 or float array, got dtype <U1",
           fusioncut.min_cut, 4, SRC, DST, ["a", "b", "c"], 0, 3)
    raises(TypeError, "min_cut: source must be an integer, got float 0.5",
           fusioncut.min_cut, 4, SRC, DST, CAP, 0.5, 3)
    raises(ValueError, "min_cut: num_nodes = -1 is out of range [0, 2147483645]",
           fusioncut.min_cut, -1, SRC, DST, CAP, 0, 3)
    raises(ValueError, "min_cut: algorithm = 'dinic' is not one of",
           fusioncut.min_cut, 4, SRC, DST, CAP, 0, 3, algorithm="dinic")


@pytest.mark.parametrize(
    "src, dst, cap",
    [
        ([0, 9, 2], DST, CAP),
        (SRC, [1, 2, -1], CAP),
        (SRC, DST, [1, -3, 2]),
        (SRC, DST, [1, 1, INF + 1]),
        ([0, 9, 2], DST, [1, -3, 2]),  # src is checked before capacity
        (SRC, [1, 2], CAP),
        (SRC, DST, [1, 2, 3, 4]),
    ],
)
def test_int64_arrays_fail_as_lists_do(src, dst, cap):
    # int64 arrays go to _core unchecked by numpy; C++ must raise the same errors.
    def outcome(convert):
        with pytest.raises((IndexError, ValueError)) as info:
            fusioncut.min_cut(4, convert(src), convert(dst), convert(cap), 0, 3)
        return type(info.value), str(info.value)

    assert outcome(list) == outcome(lambda x: np.asarray(x, dtype=np.int64))


def test_unbounded_cut_reports_a_path():
    with pytest.raises(fusioncut.UnboundedCutError) as info:
        fusioncut.min_cut(4, [0, 1, 2, 0], [1, 2, 3, 3], [INF, INF, np.inf, 1.0], 0, 3)
    assert isinstance(info.value, ValueError)
    assert info.value.path == [0, 1, 2, 3]
    assert "0 -> 1 -> 2 -> 3" in str(info.value)
    assert str(info.value).startswith("min_cut: no finite cut")


def test_node_cut_errors():
    raises(IndexError, "min_node_cut: sink_out[1] = 7 is out of range [0, 3)",
           fusioncut.min_node_cut, [1, 1, 1], [0], [1], sink_out=[0, 7])
    raises(ValueError, "min_node_cut: source_in is a bool mask of length 2 but the graph has 3",
           fusioncut.min_node_cut, [1, 1, 1], [0], [1], source_in=[True, False])
    raises(ValueError, "min_node_cut: weights[2] = -1 is negative",
           fusioncut.min_node_cut, [1, 1, -1], [0], [1])
    raises(IndexError, "min_node_cut: dst[0] = 3 is out of range [0, 3)",
           fusioncut.min_node_cut, [1, 1, 1], [0], [3])
    graph = fusioncut.NodeCutGraph(3, [0, 1], [1, 2], source_in=[0], sink_out=[2])
    raises(ValueError, "NodeCutGraph.solve: weights has length 2 but the graph has 3 nodes",
           graph.solve, [1, 1])
    raises(ValueError, "NodeCutGraph.solve: weights[0] = 0.5 is not a whole number",
           graph.solve, [0.5, 1.0, 1.0])
    with pytest.raises(fusioncut.UnboundedCutError) as info:
        graph.solve([INF, np.inf, INF])
    assert info.value.path == [0, 1, 2]
    assert "nodes 0 -> 1 -> 2" in str(info.value)
    assert graph.solve([3, 2, INF]).cut_nodes.tolist() == [1]


def test_core_validates_defensively():
    i64 = lambda x: np.asarray(x, dtype=np.int64)  # noqa: E731
    with pytest.raises(IndexError, match=re.escape("min_cut: dst[1] = 8 is out of range [0, 4)")):
        _core.min_cut(4, i64(SRC), i64([1, 8, 3]), i64(CAP), 0, 3)
    with pytest.raises(ValueError, match=re.escape("min_cut: capacity[0] = -2 is negative")):
        _core.min_cut(4, i64(SRC), i64(DST), i64([-2, 1, 1]), 0, 3)
    with pytest.raises(ValueError, match="source and sink are both 0"):
        _core.min_cut(4, i64(SRC), i64(DST), i64(CAP), 0, 0)
    with pytest.raises(ValueError, match="capacity has length 2 but src has length 3"):
        _core.min_cut(4, i64(SRC), i64(DST), i64([1, 1]), 0, 3)
    with pytest.raises(TypeError):
        _core.min_cut(4, np.asarray(SRC, dtype=np.int32), i64(DST), i64(CAP), 0, 3)
    with pytest.raises(IndexError, match=re.escape("NodeCutGraph: sink_in[0] = 5 is out of")):
        _core.NodeCutGraph(3, i64([0]), i64([1]), i64([]), i64([]), i64([5]), i64([]))
    graph = _core.NodeCutGraph(3, i64([0]), i64([1]), i64([0]), i64([]), i64([]), i64([1]))
    with pytest.raises(ValueError, match=re.escape("NodeCutGraph.solve: weights[1] = -5")):
        graph.solve(i64([1, -5, 1]))


def test_degenerate_graphs():
    cut = fusioncut.min_cut(3, [], [], [], 0, 2)
    assert cut.value == 0 and cut.source_side.tolist() == [True, True, False]
    assert cut.cut_edges.dtype == np.int64 and cut.cut_edges.size == 0
    # self-loops, parallel edges, isolated vertices 3 and 4
    cut = fusioncut.min_cut(5, [0, 0, 0, 1, 1], [0, 1, 1, 1, 2], [9, 2, 3, 7, INF], 0, 2)
    assert cut.value == 5 and cut.cut_edges.tolist() == [1, 2]
    assert cut.source_side.tolist() == [True, False, False, True, True]
