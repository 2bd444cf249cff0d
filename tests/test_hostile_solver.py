"""Hostile input to the solver's public entry points (min_cut, min_node_cut, NodeCutGraph and
its solve / solve_int64, and _core's own): wrong types, out-of-range values, overflow near INF
and the int32 limits, aliased and oddly laid-out arrays, and arrays that other threads write to
during a solve. Every rejection is checked for its exception type and for a message that names
the function, the argument and its valid range. Hypothesis fuzzing of the same entry points is
in test_solver_fuzz.py."""

from __future__ import annotations

import json
import os
import re
import resource
import subprocess
import sys
import time

import numpy as np
import pytest

import fusioncut
from fusioncut import INF, _core

HERE = os.path.dirname(os.path.abspath(__file__))
SRC, DST, CAP = [0, 1, 2], [1, 2, 3], [5, 7, 6]  # the path 0 -> 1 -> 2 -> 3: cut 5 (edge 0)
MAX_VERTICES = 2**31 - 3
MAX_NODES = (2**31 - 3) // 2
MAX_EDGES = 2**30 - 1
PHYSICAL_MEMORY = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")


def raises(exc, message, fn, *args, **kwargs):
    """fn(*args, **kwargs) raises exc with `message` (literal text) in its message."""
    with pytest.raises(exc, match=re.escape(message)) as info:
        fn(*args, **kwargs)
    return info.value


def i64(x):
    return np.asarray(x, dtype=np.int64)


def path_graph():
    return fusioncut.NodeCutGraph(3, [0, 1], [1, 2], source_in=[0], sink_out=[2])


def max_rss_bytes() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


class TestTypes:
    @pytest.mark.parametrize("argument", ["num_nodes", "source", "sink"])
    @pytest.mark.parametrize("value", [1.5, True, np.bool_(False), "3", None, np.float64(2.0)])
    def test_min_cut_scalars_must_be_integers(self, argument, value):
        args = {"num_nodes": 4, "source": 0, "sink": 3, argument: value}
        raises(TypeError, f"min_cut: {argument} must be an integer, got",
               fusioncut.min_cut, args["num_nodes"], SRC, DST, CAP, args["source"],
               args["sink"])

    @pytest.mark.parametrize("argument", ["src", "dst"])
    @pytest.mark.parametrize("dtype", [np.float64, np.bool_, np.complex128, "U2", "datetime64[s]"])
    def test_index_arrays_must_have_an_integer_dtype(self, argument, dtype):
        arrays = {"src": SRC, "dst": DST, argument: np.array([0, 1, 1]).astype(dtype)}
        raises(TypeError, f"min_cut: {argument} must be an integer array, got dtype",
               fusioncut.min_cut, 4, arrays["src"], arrays["dst"], CAP, 0, 3)

    @pytest.mark.parametrize("dtype", [np.bool_, np.complex128, "U2", "datetime64[s]"])
    def test_capacity_must_be_integer_or_float(self, dtype):
        raises(TypeError, "min_cut: capacity must be an int64 or float array, got dtype",
               fusioncut.min_cut, 4, SRC, DST, np.array([1, 1, 1]).astype(dtype), 0, 3)

    def test_object_arrays_name_the_first_non_integer(self):
        raises(TypeError, "min_cut: src must be an integer array, got float 1.0 at index 1",
               fusioncut.min_cut, 4, np.array([0, 1.0, 2], dtype=object), DST, CAP, 0, 3)
        raises(TypeError, "min_cut: capacity must be an integer array, got bool True at index 0",
               fusioncut.min_cut, 4, SRC, DST, np.array([True, 1, 1], dtype=object), 0, 3)
        raises(TypeError, "min_node_cut: weights must be an integer array, got NoneType None",
               fusioncut.min_node_cut, np.array([1, None], dtype=object), [0], [1])

    @pytest.mark.parametrize("shape", [(3, 1), (1, 3), ()])
    def test_arrays_must_be_one_dimensional(self, shape):
        bad = np.zeros(shape, dtype=np.int64)
        raises(TypeError, "min_cut: dst must be a one-dimensional array, got shape",
               fusioncut.min_cut, 4, SRC, bad, CAP, 0, 3)
        raises(TypeError, "NodeCutGraph: sink_in must be a one-dimensional array, got shape",
               fusioncut.NodeCutGraph, 3, [0], [1], sink_in=bad)
        raises(TypeError, "NodeCutGraph.solve: weights must be a one-dimensional array",
               path_graph().solve, bad)

    def test_core_rejects_more_dimensions_by_name(self):
        raises(TypeError, "min_cut: capacity must be one-dimensional, got 2 dimensions",
               _core.min_cut, 4, i64(SRC), i64(DST), i64([CAP]), 0, 3)
        raises(TypeError, "NodeCutGraph: source_out must be one-dimensional, got 2 dimensions",
               _core.NodeCutGraph, 3, i64([0]), i64([1]), i64([]), i64([[1]]), i64([]), i64([]))
        graph = _core.NodeCutGraph(3, i64([0]), i64([1]), i64([0]), i64([]), i64([]), i64([1]))
        raises(TypeError, "Plan.solve: weights must be one-dimensional, got 2 dimensions",
               graph.solve, i64([[1, 1, 1]]), "auto", False, "Plan.solve")

    def test_core_takes_exactly_c_contiguous_int64(self):
        for bad in (np.array(SRC, dtype=np.int32), i64(SRC * 2)[::2], i64(SRC).astype(">i8"),
                    SRC):
            with pytest.raises(TypeError, match="incompatible function arguments"):
                _core.min_cut(4, bad, i64(DST), i64(CAP), 0, 3)

    def test_node_cut_scalars_and_terminals(self):
        raises(TypeError, "NodeCutGraph: num_nodes must be an integer, got float 3.0",
               fusioncut.NodeCutGraph, 3.0, [0], [1])
        raises(TypeError, "NodeCutGraph: source_in must be an integer array, got dtype float64",
               fusioncut.NodeCutGraph, 3, [0], [1], source_in=[0.0])
        raises(TypeError, "NodeCutGraph.solve: weights must be an int64 or float array, got "
               "dtype <U1", path_graph().solve, ["a", "b", "c"])

    @pytest.mark.parametrize("weights", [[1, 2, 3], np.array([1, 2, 3], dtype=np.int32),
                                         np.array([1, 2, 3, 4, 5, 6])[::2],
                                         np.array([1.0, 2.0, 3.0])])
    def test_solve_int64_takes_only_c_contiguous_int64(self, weights):
        raises(TypeError, "NodeCutGraph.solve: weights must be a C-contiguous int64 numpy array "
               "for solve_int64 (solve() converts anything else), got",
               path_graph().solve_int64, weights)

    def test_algorithm_must_be_a_known_name(self):
        raises(ValueError, "min_cut: algorithm = 3 is not one of 'auto', 'push_relabel', "
               "'boykov_kolmogorov'", fusioncut.min_cut, 4, SRC, DST, CAP, 0, 3, algorithm=3)
        raises(ValueError, "NodeCutGraph.solve: algorithm = 'dinic' is not one of",
               path_graph().solve_int64, i64([1, 1, 1]), algorithm="dinic")

    def test_results_are_read_only(self):
        cut = _core.min_cut(4, i64(SRC), i64(DST), i64(CAP), 0, 3)
        node_cut = _core.NodeCutGraph(3, i64([0]), i64([1]), i64([0]), i64([]), i64([]),
                                      i64([1])).solve(i64([1, 1, 1]))
        for result, field in [(cut, "value"), (cut, "source_side"), (cut, "cut_edges"),
                              (cut, "algorithm"), (node_cut, "cut_nodes"),
                              (node_cut, "source_side_in"), (node_cut, "algorithm")]:
            with pytest.raises(AttributeError):
                setattr(result, field, 0)


class TestRanges:
    @pytest.mark.parametrize("n", [-1, MAX_VERTICES + 1, 2**31, 2**63, 2**100])
    def test_num_nodes(self, n):
        raises(ValueError, f"min_cut: num_nodes = {n} is out of range [0, {MAX_VERTICES}]",
               fusioncut.min_cut, n, SRC, DST, CAP, 0, 3)

    @pytest.mark.parametrize("n", [-1, MAX_NODES + 1, 2**31])
    def test_node_count(self, n):
        raises(ValueError, f"NodeCutGraph: num_nodes = {n} is out of range [0, {MAX_NODES}]",
               fusioncut.NodeCutGraph, n, [], [])

    def test_core_num_nodes(self):
        raises(ValueError, f"min_cut: num_nodes = {MAX_VERTICES + 1} is out of range "
               f"[0, {MAX_VERTICES}]", _core.min_cut, MAX_VERTICES + 1, i64([]), i64([]),
               i64([]), 0, 1)
        raises(ValueError, f"NodeCutGraph: num_nodes = -2 is out of range [0, {MAX_NODES}]",
               _core.NodeCutGraph, -2, i64([]), i64([]), i64([]), i64([]), i64([]), i64([]))

    @pytest.mark.parametrize("argument, value", [("source", 4), ("source", -1), ("sink", 9),
                                                 ("sink", -(2**62))])
    def test_terminals(self, argument, value):
        args = {"source": 0, "sink": 3, argument: value}
        raises(IndexError, f"min_cut: {argument} = {value} is out of range [0, 4)",
               fusioncut.min_cut, 4, SRC, DST, CAP, args["source"], args["sink"])
        raises(IndexError, f"min_cut: {argument} = {value} is out of range [0, 4)",
               _core.min_cut, 4, i64(SRC), i64(DST), i64(CAP), args["source"], args["sink"])

    @pytest.mark.parametrize("argument", ["src", "dst"])
    @pytest.mark.parametrize("value", [-1, 4, 2**31, -(2**63), 2**63 - 1])
    @pytest.mark.parametrize("convert", [list, i64])
    def test_edge_indices(self, argument, value, convert):
        arrays = {"src": list(SRC), "dst": list(DST)}
        arrays[argument][2] = value
        raises(IndexError, f"min_cut: {argument}[2] = {value} is out of range [0, 4)",
               fusioncut.min_cut, 4, convert(arrays["src"]), convert(arrays["dst"]), CAP, 0, 3)

    def test_unsigned_indices_beyond_int64(self):
        raises(IndexError, f"min_cut: dst[1] = {2**64 - 1} is out of range [0, 4)",
               fusioncut.min_cut, 4, SRC, np.array([1, 2**64 - 1, 3], dtype=np.uint64), CAP,
               0, 3)

    @pytest.mark.parametrize("value, text", [
        (-1, "capacity[1] = -1 is negative; valid range is [0, 2**62]"),
        (-(2**63), f"capacity[1] = {-(2**63)} is negative; valid range is [0, 2**62]"),
        (INF + 1, f"capacity[1] = {INF + 1} is out of range [0, 2**62]"),
        (2**63 - 1, f"capacity[1] = {2**63 - 1} is out of range [0, 2**62]"),
    ])
    def test_capacities(self, value, text):
        cap = [1, value, 1]
        raises(ValueError, f"min_cut: {text}", fusioncut.min_cut, 4, SRC, DST, cap, 0, 3)
        raises(ValueError, f"min_cut: {text}", _core.min_cut, 4, i64(SRC), i64(DST), i64(cap),
               0, 3)

    @pytest.mark.parametrize("value, text", [
        (np.nan, "capacity[1] = nan is not a number"),
        (-np.inf, "capacity[1] = -inf is negative; valid range is [0, 2**62] or inf"),
        (0.5, "capacity[1] = 0.5 is not a whole number"),
        (2.0**63, "capacity[1] = 9.223372036854776e+18 is out of range [0, 2**62]"),
    ])
    def test_float_capacities(self, value, text):
        raises(ValueError, f"min_cut: {text}", fusioncut.min_cut, 4, SRC, DST,
               [1.0, value, 1.0], 0, 3)

    @pytest.mark.parametrize("solve", ["solve", "solve_int64"])
    def test_weights(self, solve):
        graph = path_graph()
        raises(ValueError, "NodeCutGraph.solve: weights[1] = -5 is negative; valid range is "
               "[0, 2**62]", getattr(graph, solve), i64([1, -5, 1]))
        raises(ValueError, f"NodeCutGraph.solve: weights[2] = {INF + 1} is out of range "
               "[0, 2**62]", getattr(graph, solve), i64([1, 1, INF + 1]))
        raises(ValueError, "NodeCutGraph.solve: weights has length 2 but the graph has 3 nodes",
               getattr(graph, solve), i64([1, 1]))

    def test_solve_int64_names_the_callers_function(self):
        raises(ValueError, "Plan.solve: weights[0] = -1 is negative",
               path_graph().solve_int64, i64([-1, 1, 1]), function="Plan.solve")

    def test_node_indices_and_masks(self):
        raises(IndexError, "min_node_cut: src[0] = 3 is out of range [0, 3)",
               fusioncut.min_node_cut, [1, 1, 1], [3], [1])
        raises(IndexError, "NodeCutGraph: source_out[1] = -1 is out of range [0, 3)",
               fusioncut.NodeCutGraph, 3, [0], [1], source_out=[0, -1])
        raises(ValueError, "NodeCutGraph: sink_out is a bool mask of length 4 but the graph "
               "has 3 nodes", fusioncut.NodeCutGraph, 3, [0], [1], sink_out=[True] * 4)
        raises(IndexError, "NodeCutGraph: sink_in[0] = 7 is out of range [0, 3)",
               _core.NodeCutGraph, 3, i64([0]), i64([1]), i64([]), i64([]), i64([7]), i64([]))

    def test_lengths(self):
        raises(ValueError, "min_cut: dst has length 2 but src has length 3",
               fusioncut.min_cut, 4, SRC, [1, 2], CAP, 0, 3)
        raises(ValueError, "min_cut: capacity has length 4 but src has length 3",
               _core.min_cut, 4, i64(SRC), i64(DST), i64(CAP + [1]), 0, 3)
        raises(ValueError, "NodeCutGraph: dst has length 1 but src has length 2",
               fusioncut.NodeCutGraph, 3, [0, 1], [1])


class TestOverflow:
    @pytest.mark.parametrize("algorithm", ["push_relabel", "boykov_kolmogorov"])
    def test_many_parallel_near_infinite_edges_sum_exactly(self, algorithm):
        m = 20_000
        cut = fusioncut.min_cut(2, np.zeros(m, dtype=np.int64), np.ones(m, dtype=np.int64),
                                np.full(m, INF - 1), 0, 1, algorithm=algorithm, check=True)
        assert cut.value == m * (INF - 1) and type(cut.value) is int
        assert cut.cut_edges.size == m

    @pytest.mark.parametrize("algorithm", ["push_relabel", "boykov_kolmogorov"])
    def test_node_weights_near_infinite_sum_exactly(self, algorithm):
        k = 5_000
        cut = fusioncut.min_node_cut(np.full(k, INF - 3), [], [], source_in=np.arange(k),
                                     sink_out=np.arange(k), algorithm=algorithm, check=True)
        assert cut.value == k * (INF - 3)
        assert cut.cut_nodes.tolist() == list(range(k))

    def test_infinite_is_exactly_two_to_the_62(self):
        # INF - 1 can be cut; INF cannot; the float 2.0**62 is INF, the float below it is not.
        assert fusioncut.min_cut(2, [0], [1], [INF - 1], 0, 1).value == INF - 1
        with pytest.raises(fusioncut.UnboundedCutError):
            fusioncut.min_cut(2, [0], [1], [INF], 0, 1)
        with pytest.raises(fusioncut.UnboundedCutError):
            fusioncut.min_cut(2, [0], [1], [2.0**62], 0, 1)
        below = np.nextafter(2.0**62, 0)
        assert fusioncut.min_cut(2, [0], [1], [below], 0, 1).value == int(below)

    @pytest.mark.parametrize("total", [INF - 1, INF, INF + 1])
    def test_source_capacity_around_infinity_picks_64_or_128_bits(self, total):
        # Below INF the flow runs in 64 bits; from INF on in 128; both must be exact.
        half = total // 2
        src, dst = [0, 0, 1, 2], [1, 2, 3, 3]
        cap = [half, total - half, INF, INF]
        cut = fusioncut.min_cut(4, src, dst, cap, 0, 3, check=True)
        assert cut.value == total

    def test_num_nodes_near_the_int32_limit_is_refused_before_allocating(self):
        needed = 72 * MAX_VERTICES
        if PHYSICAL_MEMORY >= needed:
            pytest.skip("this machine could hold the solve")
        before, start = max_rss_bytes(), time.perf_counter()
        raises(MemoryError, f"min_cut: num_nodes = {MAX_VERTICES} and 1 edges (the length of "
               "src) need about 144.0 GiB of working memory (72 bytes each and 128 an edge), "
               "more than this machine's", fusioncut.min_cut, MAX_VERTICES, [0], [1], [1], 0, 1)
        raises(MemoryError, f"NodeCutGraph: num_nodes = {MAX_NODES} and 0 edges (len(src) + "
               "the terminal lists' lengths) need about", fusioncut.NodeCutGraph, MAX_NODES,
               [], [])
        assert time.perf_counter() - start < 5
        assert max_rss_bytes() - before < 200 * 2**20  # nothing large was allocated

    def test_edge_counts_beyond_the_limit_are_refused_before_converting(self):
        before = max_rss_bytes()
        huge = np.broadcast_to(np.int64(0), (MAX_EDGES + 1,))  # no memory behind it
        for call in (lambda: fusioncut.min_cut(2, huge, huge, huge, 0, 1),
                     lambda: fusioncut.NodeCutGraph(2, huge, huge)):
            raises(ValueError, f"src has length {MAX_EDGES + 1}; at most {MAX_EDGES} edges are "
                   "supported", call)
        assert max_rss_bytes() - before < 200 * 2**20

    def test_large_contiguous_edge_arrays_hit_the_memory_check_not_the_kernel(self):
        m = MAX_EDGES
        if PHYSICAL_MEMORY >= 128 * m:
            pytest.skip("this machine could hold the solve")
        before = max_rss_bytes()
        try:
            zeros = np.zeros(m, dtype=np.int64)  # calloc: 8 GiB of address space, no pages
        except MemoryError:
            pytest.skip("no 8 GiB of address space for the zero-page array")
        raises(MemoryError, f"min_cut: num_nodes = 2 and {m} edges (the length of src) need",
               _core.min_cut, 2, zeros, zeros, zeros, 0, 1)
        assert max_rss_bytes() - before < 200 * 2**20


class TestAliasing:
    def expected(self):
        return fusioncut.min_cut(4, SRC, DST, CAP, 0, 3)

    def assert_same(self, cut, expected=None):
        expected = expected or self.expected()
        assert cut.value == expected.value
        np.testing.assert_array_equal(cut.source_side, expected.source_side)
        np.testing.assert_array_equal(cut.cut_edges, expected.cut_edges)

    def test_src_and_dst_the_same_array(self):
        a = i64([0, 1, 2])
        cut = fusioncut.min_cut(4, a, a, i64(CAP), 0, 3)  # three self-loops
        assert cut.value == 0 and cut.cut_edges.size == 0
        assert cut.source_side.tolist() == [True, True, True, False]  # only the sink reaches it

    def test_capacity_the_same_array_as_src(self):
        a = i64([0, 1, 2, 0])
        cut = fusioncut.min_cut(4, a, i64([1, 2, 3, 3]), a, 0, 3)  # capacities 0, 1, 2, 0
        assert cut.value == 0 and cut.cut_edges.tolist() == [0, 3]

    def test_weights_the_same_array_as_src(self):
        a = i64([1, 2, 0])
        graph = fusioncut.NodeCutGraph(3, a, i64([2, 0, 1]), source_in=[0], sink_out=[2])
        for solve in (graph.solve, graph.solve_int64):
            cut = solve(a)
            assert cut.value == fusioncut.min_node_cut([1, 2, 0], [1, 2, 0], [2, 0, 1],
                                                       source_in=[0], sink_out=[2]).value

    @pytest.mark.parametrize("layout", ["strided", "reversed", "column", "readonly",
                                        "big_endian", "int8", "uint16", "fortran"])
    def test_array_layouts_give_the_same_cut(self, layout):
        def lay(x, dtype=np.int64):
            a = np.asarray(x, dtype=dtype)
            if layout == "strided":
                return np.repeat(a, 3)[::3]
            if layout == "column":
                return np.stack([a, a + 1], axis=1)[:, 0]
            if layout == "readonly":
                a = a.copy()
                a.setflags(write=False)
                return a
            if layout == "big_endian":
                return a.astype(a.dtype.newbyteorder(">"))
            if layout in ("int8", "uint16"):
                return a.astype(layout)
            if layout == "fortran":
                return np.asfortranarray(a)
            return a
        if layout == "reversed":  # edges in the opposite order: the same cut, edges renumbered
            cut = fusioncut.min_cut(4, i64(SRC)[::-1], i64(DST)[::-1], i64(CAP)[::-1], 0, 3)
            assert cut.value == 5 and cut.cut_edges.tolist() == [2]
            return
        self.assert_same(fusioncut.min_cut(4, lay(SRC), lay(DST), lay(CAP), 0, 3))
        self.assert_same(fusioncut.min_cut(4, lay(SRC), lay(DST), lay(CAP, np.float64), 0, 3))
        graph = fusioncut.NodeCutGraph(3, lay([0, 1]), lay([1, 2]), source_in=lay([0]),
                                       sink_out=lay([2]))
        assert graph.solve(lay([4, 2, 3])).cut_nodes.tolist() == [1]

    @pytest.mark.parametrize("convert", [tuple, list, lambda x: np.array(x, dtype=object),
                                         lambda x: memoryview(i64(x))])
    def test_sequences(self, convert):
        self.assert_same(fusioncut.min_cut(4, convert(SRC), convert(DST), convert(CAP), 0, 3))

    def test_object_arrays_with_huge_ints(self):
        raises(ValueError, f"min_cut: capacity[1] = {2**70} is out of range [0, 2**62]",
               fusioncut.min_cut, 4, SRC, DST, np.array([1, 2**70, 1], dtype=object), 0, 3)
        raises(IndexError, f"min_cut: src[0] = {-(2**80)} is out of range [0, 4)",
               fusioncut.min_cut, 4, np.array([-(2**80), 1, 2], dtype=object), DST, CAP, 0, 3)
        raises(ValueError, f"NodeCutGraph.solve: weights[0] = {2**64} is out of range",
               path_graph().solve, np.array([2**64, 1, 1], dtype=object))
        self.assert_same(fusioncut.min_cut(4, SRC, DST, np.array(CAP, dtype=object), 0, 3))

    def test_results_own_their_arrays(self):
        src, dst, cap = i64(SRC), i64(DST), i64(CAP)
        first = fusioncut.min_cut(4, src, dst, cap, 0, 3)
        first.source_side[:] = False
        first.cut_edges[:] = 99
        src[0] = 1  # the caller's arrays change after the solve: the result does not
        self.assert_same(fusioncut.min_cut(4, i64(SRC), dst, cap, 0, 3))
        graph = path_graph()
        a = graph.solve_int64(i64([1, 9, 9]))
        b = graph.solve_int64(i64([9, 9, 1]))  # reuses the thread's weight buffer
        assert (a.cut_nodes.tolist(), b.cut_nodes.tolist()) == ([0], [2])
        assert a.source_side_in.tolist() == [True, False, False]


class TestConcurrentMutation:
    def test_solves_survive_other_threads_writing_bad_values(self):
        # A subprocess: a crash (the old behaviour: a segfault or heap corruption) fails this
        # test instead of killing pytest.
        script = os.path.join(HERE, "_mutate_during_solve.py")
        proc = subprocess.run([sys.executable, script, "--solves-per-mode", "80"],
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, (proc.returncode, proc.stdout[-3000:], proc.stderr[-3000:])
        modes = [json.loads(line) for line in proc.stdout.splitlines()
                 if line.startswith("{")]
        assert len(modes) == 5
        assert sum(m["solves"] for m in modes) >= 300
        # The mutators were seen (clean errors) and solves got through between them.
        assert sum(m["errors"] for m in modes) > 0
        assert sum(m["ok"] for m in modes) > 0
