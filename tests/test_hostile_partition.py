"""Hostile input to the partitioner's entry points: each gets a precise error or a correct answer.

By class, as in tests/test_hostile_solver.py: types, ranges, overflow, aliasing and concurrent
use, malformed graphs (built by hand with torch.fx), and a fuzz of random traced programs.
Every error test asserts the exception type and that the message names the function, the
argument (or node) and what is valid. The entry points: ``partition``, ``decide``,
``InductorPartitioner``, ``plan``, ``Plan.solve``, ``Plan.breakpoints``,
``check_optimal_over_ranges``, ``explain`` / ``explain_joint`` and ``Options``.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import inspect
import random
import re
import threading
import time
import types
import warnings

import numpy as np
import pytest
import torch
import torch.fx as fx
from hypothesis import given, settings
from hypothesis import strategies as st

import fusioncut
from fusioncut import INF, Options, dynamic
from fusioncut.cost import CostModel
from fusioncut.dynamic import SizeError, SizeOverflowError, check_optimal_over_ranges
from fusioncut.report import explain_joint

from models import capture_joint

pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning")


def raises(exc, *needles, fn, **kwargs):
    """``fn(**kwargs)`` raises ``exc`` whose message contains every needle (plain text)."""
    with pytest.raises(exc) as info:
        fn(**kwargs)
    text = str(info.value)
    for needle in needles:
        assert needle in text, f"{needle!r} not in {text!r}"
    return info.value


def f_small(x, w):
    return (torch.sin(x @ w).cos() * 2).sum()


@pytest.fixture(scope="module")
def joint():
    """A small joint graph: 2 primals, 1 tangent, outputs [loss, grad_w, grad_x]."""
    x = torch.randn(4, 8, requires_grad=True)
    w = torch.randn(8, 8, requires_grad=True)
    return capture_joint(f_small, x, w)


def fresh(joint):
    return copy.deepcopy(joint.joint_module)


ENTRY_POINTS = {
    "partition": lambda gm, **kw: fusioncut.partition(gm, None, **kw),
    "decide": lambda gm, **kw: fusioncut.decide(gm, **kw),
    "plan": lambda gm, **kw: fusioncut.plan(gm, **kw),
    "explain_joint": lambda gm, **kw: explain_joint(gm, compare=False, **kw),
    "InductorPartitioner": lambda gm, **kw: fusioncut.InductorPartitioner()(gm, None, **kw),
}
NAMES = {"InductorPartitioner": "partition"}  # the partitioner forwards to partition


def entry_points():
    return pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))


def call(entry, gm, **kwargs):
    return ENTRY_POINTS[entry](gm, **kwargs)


# --- types -----------------------------------------------------------------------------------


class TestTypes:
    @entry_points()
    @pytest.mark.parametrize("bad", [None, "gm", 3, torch.nn.Linear(2, 2)])
    def test_joint_module_must_be_a_graph_module(self, joint, entry, bad):
        raises(TypeError, f"{NAMES.get(entry, entry)}: joint_module must be a "
               "torch.fx.GraphModule", type(bad).__name__,
               fn=lambda: call(entry, bad, num_fwd_outputs=1))

    @entry_points()
    def test_a_bare_graph_is_not_a_graph_module(self, joint, entry):
        raises(TypeError, "must be a torch.fx.GraphModule, got Graph",
               fn=lambda: call(entry, fresh(joint).graph, num_fwd_outputs=1))

    @entry_points()
    @pytest.mark.parametrize("bad", ["1", None, 1.0, True, [1]])
    def test_num_fwd_outputs_must_be_an_int(self, joint, entry, bad):
        raises(TypeError, "num_fwd_outputs must be an int in [0, 2]", repr(bad),
               fn=lambda: call(entry, fresh(joint), num_fwd_outputs=bad))

    @entry_points()
    @pytest.mark.parametrize("bad,needle", [
        ("01", "must be a sequence of ints or None, got str"),
        (5, "must be a sequence of ints or None, got int"),
        ({0: 1}, "must be a sequence of ints or None, got dict"),
        (np.zeros((1, 1), dtype=np.int64), "must be a sequence of ints or None, got ndarray"),
        (["01"], "static_lifetime_input_indices[0] = '01' is not an int"),
        ([0, 1.0], "static_lifetime_input_indices[1] = 1.0 is not an int"),
        ([True], "static_lifetime_input_indices[0] = True is not an int"),
    ])
    def test_static_indices_must_be_ints(self, joint, entry, bad, needle):
        raises(TypeError, NAMES.get(entry, entry), needle,
               fn=lambda: call(entry, fresh(joint), num_fwd_outputs=1,
                               static_lifetime_input_indices=bad))

    @pytest.mark.parametrize("entry", ["partition", "decide", "plan", "explain_joint"])
    @pytest.mark.parametrize("bad", [{}, "memory", Options])
    def test_options_must_be_options(self, joint, entry, bad):
        raises(TypeError, f"{entry}: options must be a fusioncut.Options",
               fn=lambda: call(entry, fresh(joint), num_fwd_outputs=1, options=bad))

    @pytest.mark.parametrize("fn", [fusioncut.partition, fusioncut.partition_for_sizes])
    @pytest.mark.parametrize("hook", ["report", "range_report"])
    def test_hooks_must_be_callable_and_are_checked_before_the_work(self, joint, fn, hook,
                                                                     monkeypatch):
        if fn is fusioncut.partition_for_sizes and hook == "range_report":
            hook = "report"  # partition_for_sizes' report is the range report
        monkeypatch.setattr("fusioncut.partitioner.decide_graph", None)  # never reached
        raises(TypeError, f"partition: {hook} must be a callable or None, got int",
               fn=lambda: fn(fresh(joint), None, num_fwd_outputs=1, **{hook: 5}))

    @pytest.mark.parametrize("bad", [{}, "memory", 1])
    def test_inductor_partitioner_options_must_be_options(self, bad):
        raises(TypeError, "InductorPartitioner: options", "is not a fusioncut.Options",
               fn=lambda: fusioncut.InductorPartitioner(options=bad))

    @pytest.mark.parametrize("field,value,valid", [
        ("mode", None, "one of 'runtime', 'memory'"),
        ("mode", "fast", "one of 'runtime', 'memory'"),
        ("algorithm", 3, "one of 'auto', 'push_relabel', 'boykov_kolmogorov'"),
        ("reduction_ratio", "4", "a number > 1"),
        ("reduction_ratio", True, "a number > 1"),
        ("unmaterialized_factor", 2.0, "an integer in [1, 1024]"),
        ("unmaterialized_factor", True, "an integer in [1, 1024]"),
        ("unmaterialized_factor", "2", "an integer in [1, 1024]"),
        ("symint_bytes", 1.5, "an integer in [0, 4294967296]"),
        ("distance_cap", "3", "an integer in [0, 1024]"),
        ("unbacked_size_hint", None, "an integer in [1, 1099511627776]"),
        ("static_inputs_free_to_save", 1, "True or False"),
        ("annotations_override_bans", "yes", "True or False"),
        ("ban_materialized_in_backward", 0, "None, True or False"),
    ])
    def test_options_fields_name_field_value_and_valid_range(self, field, value, valid):
        raises(ValueError, f"Options: {field} = {value!r} is invalid; expected {valid}",
               fn=lambda: Options(**{field: value}))

    def test_options_are_frozen(self):
        with pytest.raises(dataclasses.FrozenInstanceError):
            Options().unmaterialized_factor = 2**50

    @pytest.mark.parametrize("sizes", [8, 8.0, "s0", b"s0", object()])
    def test_plan_solve_sizes_must_be_a_mapping_or_sequence(self, crossing, sizes):
        p, _ = crossing
        raises(SizeError, "Plan.solve: sizes must be a mapping {symbol: int}, a sequence of 3 "
               "ints", type(sizes).__name__, fn=lambda: p.solve(sizes))

    @pytest.mark.parametrize("value", ["5", 5.0, None, True, np.bool_(True), [5]])
    def test_plan_solve_size_values_must_be_ints(self, crossing, value):
        p, sym = crossing
        raises(SizeError, f"Plan.solve: size {sym} = {value!r} is not an integer; valid range "
               "is [2, inf]", fn=lambda: p.solve({**p.hints(), sym: value}))

    def test_plan_solve_accepts_integer_likes(self, crossing):
        p, sym = crossing
        want = p.solve({**p.hints(), sym: 7}).key()
        for v in (np.int64(7), np.uint8(7), torch.tensor(7)):
            assert p.solve({**p.hints(), sym: v}).key() == want

    @pytest.mark.parametrize("args,needle", [
        (("2", 10), "size {sym} = '2' is not an integer; valid range is [2, inf] (lo of"),
        ((2, 10.0), "size {sym} = 10.0 is not an integer; valid range is [2, inf] (hi of"),
        ((True, 10), "size {sym} = True is not an integer"),
        ((2, None), "size {sym} = None is not an integer"),
    ])
    def test_breakpoints_bounds_must_be_ints(self, crossing, args, needle):
        p, sym = crossing
        raises(SizeError, "Plan.breakpoints: " + needle.format(sym=sym),
               fn=lambda: p.breakpoints(sym, *args))

    @pytest.mark.parametrize("symbol", [5, None, "zz9"])
    def test_breakpoints_symbol_must_be_known(self, crossing, symbol):
        p, _ = crossing
        raises(SizeError, "Plan.breakpoints: unknown size symbol", "the plan's symbols are",
               fn=lambda: p.breakpoints(symbol, 2, 10))

    @pytest.mark.parametrize("fixed,needle", [
        (5, "fixed must be a mapping {symbol: int} or None, got int"),
        ([("s0", 3)], "fixed must be a mapping {symbol: int} or None, got list"),
        ({"zz9": 3}, "unknown size symbol 'zz9'"),
    ])
    def test_breakpoints_fixed_must_be_a_mapping_of_known_symbols(self, crossing, fixed, needle):
        p, sym = crossing
        raises(SizeError, "Plan.breakpoints: ", needle, fn=lambda: p.breakpoints(sym, 2, 10,
                                                                               fixed=fixed))

    def test_breakpoints_fixed_values_are_checked(self, crossing):
        p, sym = crossing
        other = next(k for k in p.symbols if k != sym)
        raises(SizeError, f"size {other} = 'x' is not an integer", "(in fixed)",
               fn=lambda: p.breakpoints(sym, 2, 10, fixed={other: "x"}))

    @pytest.mark.parametrize("kwargs,exc,needle", [
        (dict(upper="x"), SizeError, "upper = 'x' is invalid; expected an int in [1, 2**62 - 1]"),
        (dict(upper=1.5), SizeError, "upper = 1.5 is invalid"),
        (dict(upper=True), SizeError, "upper = True is invalid"),
        (dict(box=5), SizeError, "box must be a mapping {symbol: (lo, hi)} or None, got int"),
        (dict(box={"S": 5}), SizeError, "box['S'] = 5 is invalid; expected (lo, hi), ints"),
        (dict(box={"S": ("a", 5)}), SizeError, "box['S'] = ('a', 5) is invalid"),
        (dict(box={"S": (2, 3, 4)}), SizeError, "box['S'] = (2, 3, 4) is invalid"),
        (dict(box={"zz9": (2, 3)}), SizeError, "unknown size symbol 'zz9'"),
        (dict(sizes=8), SizeError, "Plan.solve: sizes must be a mapping"),
    ])
    def test_check_optimal_over_ranges_arguments(self, crossing, kwargs, exc, needle):
        p, sym = crossing
        if "box" in kwargs and isinstance(kwargs["box"], dict):
            kwargs = {"box": {(sym if k == "S" else k): v for k, v in kwargs["box"].items()}}
            needle = needle.replace("'S'", repr(sym))
        raises(exc, "check_optimal_over_ranges" if "sizes" not in kwargs else "", needle,
               fn=lambda: check_optimal_over_ranges(p, **kwargs))

    @pytest.mark.parametrize("bad", [5, None, "plan"])
    def test_check_optimal_over_ranges_needs_a_plan(self, bad):
        raises(TypeError, "check_optimal_over_ranges: plan must be a fusioncut.Plan",
               type(bad).__name__, fn=lambda: check_optimal_over_ranges(bad))

    def test_explain_rejects_non_callables_and_bad_flags(self):
        raises(TypeError, "explain: fn_or_module must be an nn.Module or a callable, got int",
               fn=lambda: fusioncut.explain(5))
        x = torch.randn(3, requires_grad=True)
        raises(TypeError, "explain: compare must be True or False, got 'no'",
               fn=lambda: fusioncut.explain(lambda a: a.sin().sum(), x, compare="no"))
        raises(TypeError, "explain: options must be a fusioncut.Options, got dict",
               fn=lambda: fusioncut.explain(lambda a: a.sin().sum(), x, options={}))
        raises(ValueError, "explain: AOTAutograd produced no joint graph",
               fn=lambda: fusioncut.explain(lambda a: a.sin().sum(), torch.randn(3)))


# --- ranges ----------------------------------------------------------------------------------


class TestRanges:
    @entry_points()
    @pytest.mark.parametrize("bad", [-1, 4, 99])
    def test_num_fwd_outputs_within_the_outputs(self, joint, entry, bad):
        raises(ValueError, f"num_fwd_outputs = {bad} is out of range [0, 2] (the joint graph "
               "has 3 outputs)", fn=lambda: call(entry, fresh(joint), num_fwd_outputs=bad))

    @entry_points()
    @pytest.mark.parametrize("bad,k", [([99], 0), ([-1], 0), ([0, 2], 1), ([2**70], 0)])
    def test_static_indices_within_the_primals(self, joint, entry, bad, k):
        raises(ValueError, f"{NAMES.get(entry, entry)}: static_lifetime_input_indices[{k}] = "
               f"{bad[k]} is out of range [0, 2) (the joint graph's primal inputs)",
               fn=lambda: call(entry, fresh(joint), num_fwd_outputs=1,
                               static_lifetime_input_indices=bad))

    def test_static_indices_as_integer_arrays_and_tuples_decide_the_same(self, joint):
        gm = fresh(joint)
        want = fusioncut.decide(gm, num_fwd_outputs=1, static_lifetime_input_indices=[1]).saved
        for given in (np.array([1]), (1,), np.array([1], dtype=np.uint8), [1, 1], {1}):
            got = fusioncut.decide(gm, num_fwd_outputs=1, static_lifetime_input_indices=given)
            assert np.array_equal(got.saved, want)

    @pytest.mark.parametrize("field,value,valid", [
        ("unmaterialized_factor", 0, "[1, 1024]"),
        ("unmaterialized_factor", 1025, "[1, 1024]"),
        ("unmaterialized_factor", -2, "[1, 1024]"),
        ("symint_bytes", -1, "[0, 4294967296]"),
        ("symint_bytes", 2**32 + 1, "[0, 4294967296]"),
        ("distance_cap", -1, "[0, 1024]"),
        ("distance_cap", 1025, "[0, 1024]"),
        ("unbacked_size_hint", 0, "[1, 1099511627776]"),
        ("unbacked_size_hint", 2**40 + 1, "[1, 1099511627776]"),
    ])
    def test_options_integer_ranges(self, field, value, valid):
        raises(ValueError, f"Options: {field} = {value} is invalid; expected an integer in "
               f"{valid}", fn=lambda: Options(**{field: value}))

    @pytest.mark.parametrize("value", [1, 0.5, 0, -1, float("nan"), -float("inf")])
    def test_options_reduction_ratio_above_one(self, value):
        raises(ValueError, f"Options: reduction_ratio = {value!r} is invalid; expected a "
               "number > 1", fn=lambda: Options(reduction_ratio=value))

    @pytest.mark.parametrize("field,value", [
        ("unmaterialized_factor", 1), ("unmaterialized_factor", 1024), ("symint_bytes", 0),
        ("symint_bytes", 2**32), ("distance_cap", 0), ("distance_cap", 1024),
        ("unbacked_size_hint", 1), ("unbacked_size_hint", 2**40),
        ("reduction_ratio", float("inf")), ("reduction_ratio", 1.0000001),
        ("reduction_ratio", 10**300),
    ])
    def test_options_bounds_are_inclusive_and_decide(self, joint, field, value):
        options = Options(**{field: value})
        d = fusioncut.decide(fresh(joint), num_fwd_outputs=1, options=options)
        assert (d.weights >= 0).all() and (d.weights <= INF).all()

    def test_plan_solve_size_ranges(self, crossing):
        p, sym = crossing
        good = p.hints()
        raises(SizeError, f"Plan.solve: size {sym} = -3 is negative; valid range is [2, inf]",
               fn=lambda: p.solve({**good, sym: -3}))
        raises(SizeError, f"Plan.solve: size {sym} = 1 is outside its declared range [2, inf]",
               fn=lambda: p.solve({**good, sym: 1}))
        raises(SizeError, f"Plan.solve: no size for symbol '{sym}' (valid range [2, inf]",
               fn=lambda: p.solve({k: v for k, v in good.items() if k != sym}))
        raises(SizeError, "Plan.solve: got 1 sizes for 3 symbols", fn=lambda: p.solve([5]))
        raises(SizeError, "Plan.solve: unknown size symbol '7'",
               fn=lambda: p.solve({**good, 7: 3}))

    def test_breakpoints_ranges(self, crossing):
        p, sym = crossing
        raises(SizeError, f"Plan.breakpoints: lo = 10 > hi = 2 for {sym} (valid range [2, inf])",
               fn=lambda: p.breakpoints(sym, 10, 2))
        raises(SizeError, f"size {sym} = 1 is outside its declared range [2, inf] (lo of the "
               "sweep)", fn=lambda: p.breakpoints(sym, 1, 10))

    @pytest.mark.parametrize("pair", [(10, 2), (0, 10), (1, 3), (2, 2**62)])
    def test_check_optimal_over_ranges_box_inside_the_declared_range(self, crossing, pair):
        p, sym = crossing
        raises(SizeError, f"check_optimal_over_ranges: box[{sym!r}] = {pair!r} is invalid",
               f"2 <= lo <= hi <= {2**62 - 1}",
               fn=lambda: check_optimal_over_ranges(p, box={sym: pair}))

    @pytest.mark.parametrize("upper", [0, -1, 2**62])
    def test_check_optimal_over_ranges_upper(self, crossing, upper):
        p, _ = crossing
        raises(SizeError, f"upper = {upper} is invalid; expected an int in [1, 2**62 - 1]",
               fn=lambda: check_optimal_over_ranges(p, upper=upper))


# --- overflow --------------------------------------------------------------------------------


def scaled(gm: fx.GraphModule, factor: int) -> fx.GraphModule:
    """``gm`` with every tensor value ``factor`` times larger (a leading dimension, meta
    tensors): the same graph at sizes no machine holds."""
    gm = copy.deepcopy(gm)
    for node in gm.graph.nodes:
        val = node.meta.get("val")
        if isinstance(val, torch.Tensor):
            node.meta["val"] = torch.empty((factor, *val.shape), dtype=val.dtype, device="meta")
    return gm


def exact_cost(d) -> int:
    """Bytes the decision moves, in Python ints (no int64 anywhere)."""
    g, c = d.graph, d.costs
    return sum(int(c.per_byte[i]) * int(g.nbytes[g.base[i]]) + int(c.const[i]) for i in d.saved)


def f_recompute(x, w):
    """A graph whose best cut saves an intermediate in runtime mode (the mm output, banned)
    and a pointwise chain recomputed in the backward."""
    h = torch.sigmoid(x @ w)
    return (torch.tanh(h) * h.exp()).sum()


@pytest.fixture(scope="module")
def joint_mm():
    return capture_joint(f_recompute, torch.randn(4, 8, requires_grad=True),
                         torch.randn(8, 8, requires_grad=True))


@pytest.fixture(scope="module")
def joint_crossing():
    """crossing_fn traced statically at 50 rows: saves exp(z), a value the forward would not
    otherwise write (its bytes count unmaterialized_factor times)."""
    return capture_joint(crossing_fn, torch.randn(50, 3, requires_grad=True),
                         torch.randn(600, requires_grad=True))


class TestOverflow:
    @pytest.mark.parametrize("field,value,shown", [
        ("unmaterialized_factor", 2**50, str(2**50)),
        ("unmaterialized_factor", 2**63 - 1, str(2**63 - 1)),
        ("unmaterialized_factor", 10**30, "an int of 100 bits"),
        ("symint_bytes", 2**80, "an int of 81 bits"),
        ("distance_cap", -(2**70), "an int of 71 bits"),
        ("unbacked_size_hint", 10**5000, "an int of 16610 bits"),
        ("reduction_ratio", 10**400, "an int of 1329 bits"),
        ("reduction_ratio", 10**5000, "an int of 16610 bits"),
    ], ids=lambda v: v if isinstance(v, str) else f"{v.bit_length()}bits")
    def test_options_refuse_values_the_arithmetic_cannot_hold(self, field, value, shown):
        e = raises(ValueError, f"Options: {field} = {shown} is invalid; expected",
                   fn=lambda: Options(**{field: value}))
        assert len(str(e)) < 200

    @pytest.mark.parametrize("graph", ["joint_mm", "joint_crossing"])
    @pytest.mark.parametrize("mode", ["runtime", "memory"])
    @pytest.mark.parametrize("factor", [1, 2, 1024])
    def test_scaled_sizes_scale_the_optimal_cost_exactly(self, request, graph, mode, factor):
        """Every tensor k times larger: the optimal byte cost is exactly k times larger, up to
        the largest tensors torch can describe (2**62-byte weights), and no weight is negative
        or above INF."""
        gm = request.getfixturevalue(graph).joint_module
        options = Options(mode=mode, unmaterialized_factor=factor)
        base = fusioncut.decide(gm, num_fwd_outputs=1, options=options)
        assert len(base.saved) and exact_cost(base) > 0
        if graph == "joint_crossing" and factor == 2:
            assert "exp" in [n.name for n in base.saved_nodes]  # a factor-weighted value
        largest = max(int(x) for x in base.graph.nbytes)
        k = 1
        while largest * k * 2 * factor < INF:
            k *= 2
            d = fusioncut.decide(scaled(gm, k), num_fwd_outputs=1, options=options)
            assert (d.weights >= 0).all() and (d.weights <= INF).all(), k
            assert exact_cost(d) == k * exact_cost(base), (k, d.saved_nodes, base.saved_nodes)
        assert k >= 2**30

    def test_values_of_2_62_bytes_saturate_below_infinity_and_are_avoided(self, joint):
        """Tensors of 2**62 bytes (x factor 1024: far beyond int64) cost INF - 1, the
        documented saturation: finite, so no cut becomes infinite, and never chosen over a
        small value; plan() agrees with decide() at the same sizes."""
        gm = fresh(joint)
        nodes = {n.name: n for n in gm.graph.nodes}
        nodes["sin"].meta["val"] = torch.empty(2**62 - 1, device="meta", dtype=torch.bool)
        nodes["cos"].meta["val"] = torch.empty(2**59, device="meta", dtype=torch.float64)
        for options in (Options(), Options(mode="memory", unmaterialized_factor=1024)):
            d = fusioncut.decide(gm, num_fwd_outputs=1, options=options)
            finite = d.costs.finite
            assert (d.weights[finite] < INF).all() and (d.weights >= 0).all()
            assert {"sin", "cos"}.isdisjoint(n.name for n in d.saved_nodes)
            p = fusioncut.plan(gm, num_fwd_outputs=1, options=options)
            assert np.array_equal(p.solve().saved_index, d.saved)

    def test_an_element_count_int64_cannot_hold_names_the_node(self, joint):
        gm = fresh(joint)
        big = torch.empty(2**62, device="meta", dtype=torch.bool)
        next(n for n in gm.graph.nodes if n.name == "sin").meta["val"] = (big,) * 4
        for entry in ("partition", "decide", "plan", "explain_joint"):
            raises(ValueError, "node 'sin' holds about 2**64 elements; element counts must be "
                   "below 2**63", fn=lambda: call(entry, gm, num_fwd_outputs=1))

    @settings(max_examples=300, deadline=None)
    @given(data=st.data())
    def test_cost_model_weights_never_wrap(self, data):
        """CostModel.weights for any byte counts int64 holds: in [0, INF], finite values below
        INF, strictly increasing in the exact (Python int) cost until it saturates at INF - 1."""
        n = data.draw(st.integers(1, 12))
        cap = data.draw(st.integers(0, 1024))
        factor = data.draw(st.sampled_from([1, 2, 1024]))
        per_byte = np.array(data.draw(st.lists(st.sampled_from([0, 1, factor]), min_size=n,
                                               max_size=n)), dtype=np.int64)
        const = np.array(data.draw(st.lists(st.integers(0, 2**32), min_size=n, max_size=n)),
                         dtype=np.int64)
        finite = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))
        tie = np.array(data.draw(st.lists(st.integers(0, 2 * cap + 1), min_size=n,
                                          max_size=n)), dtype=np.int64)
        nbytes = np.array(data.draw(st.lists(st.one_of(st.integers(0, 2**20),
                                                       st.integers(2**55, 2**63 - 1)),
                                             min_size=n, max_size=n)), dtype=np.int64)
        model = CostModel(base=np.arange(n), per_byte=per_byte, const=const, finite=finite,
                          tie=tie, cap=cap)
        w = model.weights(nbytes)
        assert w.dtype == np.int64 and (w >= 0).all() and (w <= INF).all()
        assert (w[~finite] == INF).all() and (w[finite] < INF).all()
        exact = [min(int(per_byte[i]) * int(nbytes[i]) + int(const[i]), INF - 1)
                 for i in range(n)]
        idx = np.flatnonzero(finite)
        for a in idx:
            for b in idx:
                if exact[a] < exact[b]:
                    assert w[a] < w[b], (exact[a], exact[b], w[a], w[b])

    def test_plan_solve_refuses_sizes_beyond_exact_weights(self, crossing):
        p, sym = crossing
        for value, shown in ((2**62, str(2**62)), (10**19, str(10**19)),
                             (10**30, "an int of 100 bits")):
            e = raises(SizeOverflowError, f"Plan.solve: size {sym} = {shown} is too large; "
                       "valid range is [2, 2**62 - 1]",
                       fn=lambda: p.solve({**p.hints(), sym: value}))
            assert isinstance(e, OverflowError) and isinstance(e, ValueError)
        other = next(k for k in p.symbols if k != sym)
        raises(SizeOverflowError, "Plan.solve: sizes", "give element counts",
               "valid sizes keep every tensor below 2**62",
               fn=lambda: p.solve({**p.hints(), sym: 2**40, other: 2**40}))

    def test_plan_solve_near_the_limit_matches_the_cost_model(self, crossing):
        """Up to where Plan.solve refuses, every decision's cut value is the sum of
        cost.weights of the sized graph over its saved set, and no weight wraps."""
        p, sym = crossing
        for e in range(1, 62):
            sizes = {**p.hints(), sym: 2**e}
            try:
                d = p.solve(sizes)
            except SizeOverflowError:
                assert e >= 58
                break
            w = p.weights(sizes)
            assert (w >= 0).all() and (w <= INF).all()
            assert d.cut_value == int(sum(int(x) for x in w[d.saved_index]))
        assert e >= 50

    def test_breakpoints_names_the_largest_valid_hi(self, crossing):
        p, sym = crossing
        e = raises(SizeOverflowError, f"Plan.breakpoints: hi = {10**18} for {sym} is too large",
                   "valid range [2, ", fn=lambda: p.breakpoints(sym, 2, 10**18))
        top = int(re.search(r"valid range \[2, (\d+)\]", str(e)).group(1))
        segments = p.breakpoints(sym, 2, top)
        assert segments[0][0] == 2 and segments[-1][1] == top
        for a, b, d in segments:
            for t in {a, b, (a + b) // 2}:
                best = p.solve({**p.hints(), sym: t})
                assert best.cost == dynamic.SizedDecision(p, best.values, d.saved_index, 0).cost
        raises(SizeOverflowError, f"size {sym} = an int of 100 bits is too large; valid range "
               "is [2, 2**62 - 1] (hi of the sweep)", fn=lambda: p.breakpoints(sym, 2, 10**30))

    def test_check_optimal_over_ranges_leaves_too_large_sizes_open(self, crossing):
        p, _ = crossing
        report = check_optimal_over_ranges(p, upper=2**62 - 1)
        assert report.optimal in (False, None)
        if report.optimal is None:
            assert "too large" in report.detail


# --- aliasing and concurrent use ---------------------------------------------------------------


def graph_state(gm):
    """What a partitioner must leave alone: the code, each node's args and meta entries."""
    return (gm.code, [(n.name, n.op, str(n.target), repr(n.args), repr(n.kwargs),
                       {k: id(v) for k, v in n.meta.items()}) for n in gm.graph.nodes])


class TestAliasing:
    @pytest.mark.parametrize("mode", ["runtime", "memory"])
    def test_the_same_graph_module_twice_gives_the_same_modules_and_is_not_modified(
            self, joint_mm, mode):
        gm = copy.deepcopy(joint_mm.joint_module)
        before = graph_state(gm)
        options = Options(mode=mode)
        fw1, bw1 = fusioncut.partition(gm, None, num_fwd_outputs=1, options=options)
        fw2, bw2 = fusioncut.partition(gm, None, num_fwd_outputs=1, options=options)
        assert graph_state(gm) == before
        assert fw1.code == fw2.code and bw1.code == bw2.code
        d1 = fusioncut.decide(gm, num_fwd_outputs=1, options=options)
        p = fusioncut.plan(gm, num_fwd_outputs=1, options=options)
        explain_joint(gm, num_fwd_outputs=1, options=options, compare=False)
        assert graph_state(gm) == before
        assert np.array_equal(p.solve().saved_index, d1.saved)

    def test_mutated_meta_is_read_afresh(self, joint_mm):
        """Nothing is cached on the module: new sizes in meta give the decision at those sizes
        (exactly the decision of a module traced at them)."""
        gm = copy.deepcopy(joint_mm.joint_module)
        before = exact_cost(fusioncut.decide(gm, num_fwd_outputs=1))
        for node in gm.graph.nodes:
            val = node.meta.get("val")
            if isinstance(val, torch.Tensor):
                node.meta["val"] = torch.empty((1024, *val.shape), dtype=val.dtype,
                                               device="meta")
        assert exact_cost(fusioncut.decide(gm, num_fwd_outputs=1)) == 1024 * before

    def test_plan_partition_refuses_a_graph_edited_after_plan(self, crossing_module):
        gm, p = crossing_module
        p.partition()  # fine as analysed
        nodes = {n.name: n for n in gm.graph.nodes}
        exp = nodes["exp"]
        with gm.graph.inserting_after(exp):
            neg = gm.graph.call_function(torch.ops.aten.neg.default, (exp,))
        neg.meta["val"] = exp.meta["val"]
        try:
            exp.replace_all_uses_with(neg, delete_user_cb=lambda user: user is not neg)
            raises(ValueError, "Plan.partition: the joint graph's nodes or edges changed after "
                   "plan() analysed it", fn=lambda: p.partition())
        finally:
            neg.replace_all_uses_with(exp)
            gm.graph.erase_node(neg)
        p.partition()  # restored: fine again

    def test_plan_keeps_its_own_copy_of_the_static_indices(self, joint):
        gm = fresh(joint)
        static = [1]
        p = fusioncut.plan(gm, num_fwd_outputs=1, static_lifetime_input_indices=static)
        static.append(99)
        p.partition()
        assert p.static_lifetime_input_indices == [1]

    def test_concurrent_partitions_of_one_module_agree(self, joint_mm):
        """partition keeps no state on the module or between calls: threads partitioning the
        same GraphModule at once (the solver releases the GIL) get the serial answer."""
        gm = copy.deepcopy(joint_mm.joint_module)
        before = graph_state(gm)
        want = {mode: fusioncut.decide(gm, num_fwd_outputs=1, options=Options(mode=mode)).saved
                for mode in ("runtime", "memory")}
        errors: list[BaseException] = []
        got: list[tuple[str, np.ndarray]] = []

        def work(mode):
            try:
                for _ in range(5):
                    d = fusioncut.decide(gm, num_fwd_outputs=1, options=Options(mode=mode))
                    fusioncut.partition(gm, None, num_fwd_outputs=1, options=Options(mode=mode))
                    got.append((mode, d.saved))
            except BaseException as e:  # noqa: BLE001 (reported below)
                errors.append(e)

        threads = [threading.Thread(target=work, args=(m,)) for m in ("runtime", "memory") * 3]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        assert not errors, errors
        assert len(got) == 30
        for mode, saved in got:
            assert np.array_equal(saved, want[mode])
        assert graph_state(gm) == before


# --- malformed graphs ---------------------------------------------------------------------------


def _nodes(gm):
    return {n.name: n for n in gm.graph.nodes}


def cycle(gm, other):
    _nodes(gm)["sin"].args = (_nodes(gm)["cos"],)


def self_loop(gm, other):
    _nodes(gm)["sin"].args = (_nodes(gm)["sin"],)


def kwargs_cycle(gm, other):
    _nodes(gm)["sin"].kwargs = {"input": _nodes(gm)["cos"]}


def use_before_definition(gm, other):
    d = _nodes(gm)
    d["mm"].args = (d["primals_1"], d["cos_1"])


def call_module(gm, other):
    gm.add_submodule("lin", torch.nn.Linear(8, 8))
    d = _nodes(gm)
    with gm.graph.inserting_after(d["mm"]):
        gm.graph.call_module("lin", (d["mm"],))


def call_method(gm, other):
    d = _nodes(gm)
    with gm.graph.inserting_after(d["mm"]):
        gm.graph.call_method("relu", (d["mm"],))


def no_output(gm, other):
    gm.graph.erase_node(_nodes(gm)["output"])


def two_outputs(gm, other):
    gm.graph.output((_nodes(gm)["sum_1"],))


def output_not_last(gm, other):
    d = _nodes(gm)
    d["mm"].prepend(d["output"])


def foreign_argument(gm, other):
    _nodes(gm)["sin"].args = (_nodes(other)["mm"],)


def foreign_output(gm, other):
    d = _nodes(gm)
    d["output"].args = ([_nodes(other)["sum_1"], d["mm_2"], d["mm_1"]],)


def uncallable_target(gm, other):
    _nodes(gm)["sin"].target = "sin"


def missing_attribute(gm, other):
    d = _nodes(gm)
    with gm.graph.inserting_before(d["mm"]), warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # fx warns about the missing attribute
        g = gm.graph.get_attr("no_such_buffer")
    g.meta["val"] = torch.empty(4, 8)
    d["mul"].args = (d["cos"], g)


MALFORMED = {
    cycle: "node 'sin' uses 'cos', which comes after it in the graph",
    self_loop: "node 'sin' uses itself (a cycle)",
    kwargs_cycle: "node 'sin' uses 'cos', which comes after it in the graph",
    use_before_definition: "node 'mm' uses 'cos_1', which comes after it in the graph",
    call_module: "node 'lin' is a call_module node; a joint graph holds only placeholder, "
                 "get_attr, call_function, output nodes",
    call_method: "node 'relu' is a call_method node",
    no_output: "the joint graph has 0 output nodes; it must have exactly one",
    two_outputs: "the joint graph has 2 output nodes; it must have exactly one",
    output_not_last: "the joint graph's output node 'output' is not its last node",
    foreign_argument: "node 'sin' uses 'mm', which is not a node of this graph",
    foreign_output: "node 'output' uses 'sum_1', which is not a node of this graph",
    uncallable_target: "node 'sin' calls 'sin', which is not callable",
    missing_attribute: "get_attr node 'no_such_buffer' reads 'no_such_buffer', which the "
                       "GraphModule does not have",
}


class TestMalformedGraphs:
    @pytest.mark.parametrize("edit", list(MALFORMED), ids=lambda f: f.__name__)
    @entry_points()
    def test_malformed_graph_is_a_value_error_naming_the_node(self, joint, edit, entry):
        gm, other = fresh(joint), fresh(joint)
        edit(gm, other)
        raises(ValueError, f"{NAMES.get(entry, entry)}: {MALFORMED[edit]}",
               fn=lambda: call(entry, gm, num_fwd_outputs=1))

    @pytest.mark.parametrize("edit", [cycle, use_before_definition, foreign_argument],
                             ids=lambda f: f.__name__)
    def test_explain_joint_checks_before_copying(self, joint, edit, monkeypatch):
        """explain_joint deep-copies the graph for each partitioner; a malformed graph is
        refused before (deepcopy of a cycle used to end in a KeyError)."""
        gm, other = fresh(joint), fresh(joint)
        edit(gm, other)

        def no_copy(*a, **k):
            raise AssertionError("deepcopy before the check")

        module = importlib.import_module("fusioncut.report.explain")
        monkeypatch.setattr(module, "copy", types.SimpleNamespace(deepcopy=no_copy))
        raises(ValueError, "explain_joint: node", fn=lambda: explain_joint(
            gm, num_fwd_outputs=1))

    @settings(max_examples=60, deadline=None)
    @given(data=st.data())
    def test_random_rewiring_gives_an_error_or_a_partition(self, joint, data):
        """Rewire random arguments to random nodes (earlier, later, itself, another graph's):
        a graph out of order raises ValueError naming the node; one in order partitions, or
        raises PartitionError or (a forward output fed by a tangent) a ValueError naming the
        output, never an error from deep inside emission."""
        gm, other = fresh(joint), fresh(joint)
        nodes = [n for n in gm.graph.nodes if n.op == "call_function"]
        pool = list(gm.graph.nodes) + [n for n in other.graph.nodes if n.op != "output"]
        for _ in range(data.draw(st.integers(1, 3))):
            node = data.draw(st.sampled_from(nodes))
            args = list(node.args)
            slots = [k for k, a in enumerate(args) if isinstance(a, fx.Node)]
            if not slots:
                continue
            args[data.draw(st.sampled_from(slots))] = data.draw(st.sampled_from(pool))
            node.args = tuple(args)
        order = {n: k for k, n in enumerate(gm.graph.nodes)}
        valid = all(x in order and order[x] < order[n]
                    for n in gm.graph.nodes for x in n.all_input_nodes)
        for entry in ("partition", "decide"):
            if valid:
                try:
                    call(entry, gm, num_fwd_outputs=1)
                except ValueError as e:  # a contradiction the front door names, not emit's
                    assert isinstance(e, fusioncut.PartitionError) or str(e).startswith(
                        f"{entry}: forward output "), e
            else:
                with pytest.raises(ValueError, match=f"{entry}: node '"):
                    call(entry, gm, num_fwd_outputs=1)


# --- dynamic-shape fixtures ---------------------------------------------------------------------


def crossing_fn(x, y):
    r = x.sum(1)
    z = r.unsqueeze(1) + y.narrow(0, 0, 4).unsqueeze(0)
    return torch.exp(z).sum()


def _capture_dynamic(fn, args):
    from functorch.compile import aot_function, default_partition, nop

    captured = []

    def record(joint_module, joint_inputs, *, num_fwd_outputs, **kwargs):
        captured.append((copy.deepcopy(joint_module), num_fwd_outputs))
        return default_partition(joint_module, joint_inputs, num_fwd_outputs=num_fwd_outputs)

    aot_function(fn, fw_compiler=nop, bw_compiler=nop, partition_fn=record, dynamic=True)(*args)
    return captured[0]


@pytest.fixture(scope="module")
def crossing_module():
    gm, nf = _capture_dynamic(crossing_fn, (torch.randn(50, 3, requires_grad=True),
                                            torch.randn(600, requires_grad=True)))
    return gm, fusioncut.plan(gm, num_fwd_outputs=nf)


@pytest.fixture(scope="module")
def crossing(crossing_module):
    """(Plan, the symbol of x's first dimension): three symbols, ranges [2, inf]."""
    _, p = crossing_module
    (sym,) = [k for k, v in p.symbols.items() if v.hint == 50]
    return p, sym


# --- a frontier's own targets ------------------------------------------------------------------


@pytest.fixture(scope="module")
def frontier(joint):
    return fusioncut.pareto(fresh(joint), num_fwd_outputs=joint.num_fwd_outputs)


BAD_LIMITS = [-1, 0.5, float("nan"), float("inf"), True, None, "1024", 2**62 + 1]


@pytest.mark.parametrize("method", ["best_within", "for_bytes", "for_peak"])
@pytest.mark.parametrize("limit", BAD_LIMITS)
def test_frontier_byte_targets_outside_range_name_method_and_range(frontier, method, limit):
    raises(ValueError, f"Frontier.{method}: limit = ", "expected an integer in [0, 2**62]",
           fn=getattr(frontier, method), limit=limit)


@pytest.mark.parametrize("b", [-0.1, 1.5, float("nan"), True, None, "0.5"])
def test_frontier_for_budget_outside_0_1_is_named(frontier, b):
    raises(ValueError, "Frontier.for_budget: b = ", "expected a number in [0, 1]",
           fn=frontier.for_budget, b=b)


@pytest.mark.parametrize("margin", [-0.1, 11, float("nan"), None])
def test_frontier_for_peak_margin_outside_range_is_named(frontier, margin):
    raises(ValueError, "Frontier.for_peak: margin = ", "expected a number in [0, 10]",
           fn=frontier.for_peak, limit=10**6, margin=margin)


@pytest.mark.parametrize("method", ["walk_gap", "gap_previews"])
@pytest.mark.parametrize("k", [0, -1, "1", 1.0, None, True, 10**6])
def test_frontier_gaps_outside_range_are_named(frontier, method, k):
    raises(ValueError, f"Frontier.{method}: k = ", "(the gap before anchor k)",
           fn=getattr(frontier, method), k=k)


def test_frontier_targets_take_numpy_numbers_as_builtins(frontier):
    limit = frontier.runtime.saved_bytes
    assert frontier.for_bytes(np.int64(limit)) == frontier.for_bytes(limit)
    assert frontier.for_peak(np.int64(10**6)) == frontier.for_peak(10**6)
    assert frontier.for_budget(np.float32(0.5)) is frontier.for_budget(0.5)


# --- docstrings ---------------------------------------------------------------------------------


PUBLIC = {
    "partition": fusioncut.partition, "partition_for_sizes": fusioncut.partition_for_sizes,
    "decide": fusioncut.decide, "InductorPartitioner": fusioncut.InductorPartitioner,
    "plan": fusioncut.plan, "Plan.solve": dynamic.Plan.solve,
    "Plan.breakpoints": dynamic.Plan.breakpoints,
    "check_optimal_over_ranges": check_optimal_over_ranges, "explain": fusioncut.explain,
    "explain_joint": explain_joint, "Options": Options, "annotate": fusioncut.annotate,
    "AnnotatingPartitioner": fusioncut.AnnotatingPartitioner, "capture": fusioncut.capture,
    "pareto": fusioncut.pareto,
}


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_public_entry_points_document_what_they_reject(name):
    doc = inspect.getdoc(PUBLIC[name]) or ""
    assert re.search(r"^Rejects\b", doc, re.M), f"{name}: no 'Rejects' paragraph"


def test_solver_entry_points_document_what_they_raise():
    from fusioncut.cli import main

    for fn in (fusioncut.min_cut, fusioncut.min_node_cut, fusioncut.NodeCutGraph, main):
        doc = inspect.getdoc(fn) or ""
        assert re.search(r"\b(Rejects|Raises|raises)\b", doc), fn


# --- fuzz: random traced programs -----------------------------------------------------------------


def _random_program(rng: random.Random):
    """A random composition of ops on (4, 8) values: pointwise chains, matmuls, reductions
    broadcast back, views, cat + narrow, softmax and layer norm; the loss sums a few values."""
    steps = []
    for _ in range(rng.randint(2, 9)):
        op = rng.choice(["sin", "cos", "tanh", "sigmoid", "relu", "exp", "mul", "add", "sub",
                         "matmul", "sum_bcast", "mean_bcast", "transpose2", "reshape",
                         "cat_narrow", "softmax", "layer_norm", "square", "gelu", "where"])
        steps.append((op, rng.random(), rng.random()))
    outs = sorted(rng.sample(range(len(steps) + 2), k=min(2, len(steps) + 2)))

    def fn(x, w):
        vals = [x, x @ w]
        for op, a, b in steps:
            u = vals[int(a * len(vals))]
            v = vals[int(b * len(vals))]
            if op in ("sin", "cos", "tanh", "sigmoid", "relu"):
                out = getattr(torch, op)(u)
            elif op == "exp":
                out = torch.exp(u.clamp(-5, 5))
            elif op == "mul":
                out = u * v
            elif op == "add":
                out = u + v
            elif op == "sub":
                out = u - 0.5 * v
            elif op == "matmul":
                out = u @ w
            elif op == "sum_bcast":
                out = u * u.sum(1, keepdim=True)
            elif op == "mean_bcast":
                out = u - u.mean(0, keepdim=True)
            elif op == "transpose2":
                out = u.t().contiguous().t() * 1.5
            elif op == "reshape":
                out = u.reshape(8, 4).reshape(4, 8) + 1
            elif op == "cat_narrow":
                out = torch.cat([u, v], 0).narrow(0, 2, 4)
            elif op == "softmax":
                out = torch.softmax(u, -1)
            elif op == "layer_norm":
                out = torch.nn.functional.layer_norm(u, (8,))
            elif op == "square":
                out = u * u
            elif op == "gelu":
                out = torch.nn.functional.gelu(u)
            else:
                out = torch.where(u > 0, u, v)
            vals.append(out)
        return sum(vals[k % len(vals)].sum() for k in outs)

    return fn


def test_fuzz_random_programs_partition_to_eager_gradients():
    """Seeded random programs through aot_function + fusioncut.partition in both modes: no
    crash, and loss and gradients equal eager. Runs for a few seconds."""
    from functorch.compile import aot_function, nop

    deadline = time.perf_counter() + 6.0
    count = 0
    for seed in range(10_000):
        if time.perf_counter() > deadline and count >= 8:
            break
        rng = random.Random(seed)
        fn = _random_program(rng)
        mode = ("runtime", "memory")[seed % 2]
        g = torch.Generator().manual_seed(seed)
        x = torch.randn(4, 8, generator=g, requires_grad=True)
        w = (torch.randn(8, 8, generator=g) / 3).requires_grad_(True)
        partition_fn = lambda *a, **k: fusioncut.partition(*a, options=Options(mode=mode), **k)
        compiled = aot_function(fn, fw_compiler=nop, bw_compiler=nop, partition_fn=partition_fn)
        with warnings.catch_warnings():
            warnings.simplefilter("error", fusioncut.FallbackWarning)
            loss = compiled(x, w)
        gx, gw = torch.autograd.grad(loss, (x, w), allow_unused=True, materialize_grads=True)
        x2, w2 = (t.detach().clone().requires_grad_(True) for t in (x, w))
        ref = fn(x2, w2)
        rx, rw = torch.autograd.grad(ref, (x2, w2), allow_unused=True, materialize_grads=True)
        torch.testing.assert_close(loss, ref, msg=f"seed {seed}")
        torch.testing.assert_close(gx, rx, msg=f"seed {seed}")
        torch.testing.assert_close(gw, rw, msg=f"seed {seed}")
        count += 1
    assert count >= 8
