"""fusioncut.dynamic: Plan.solve equals decide on static traces, breakpoints, size errors."""

from __future__ import annotations

import copy
import warnings
from collections import Counter

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st

import fusioncut
from fusioncut import dynamic
from fusioncut.decision import decide

warnings.filterwarnings("ignore", category=FutureWarning)


def capture(fn, args, *, dynamic_shapes=True):
    """(joint_module, joint_inputs, num_fwd_outputs) from aot_function."""
    from functorch.compile import aot_function, default_partition, nop

    captured = []

    def record(joint_module, joint_inputs, *, num_fwd_outputs, **kwargs):
        captured.append((copy.deepcopy(joint_module), joint_inputs, num_fwd_outputs))
        return default_partition(joint_module, joint_inputs, num_fwd_outputs=num_fwd_outputs)

    aot_function(fn, fw_compiler=nop, bw_compiler=nop, partition_fn=record,
                 dynamic=dynamic_shapes)(*args)
    assert len(captured) == 1
    return captured[0]


def capture_module(module, args, *, dynamic_shapes=True):
    """(joint_module, joint_inputs, num_fwd_outputs, static_lifetime_input_indices)."""
    from functorch.compile import aot_module, default_partition, nop

    captured = []

    def record(joint_module, joint_inputs, *, num_fwd_outputs, **kwargs):
        static = kwargs.get("static_lifetime_input_indices")
        captured.append((copy.deepcopy(joint_module), joint_inputs, num_fwd_outputs, static))
        return default_partition(joint_module, joint_inputs, num_fwd_outputs=num_fwd_outputs,
                                 static_lifetime_input_indices=static)

    aot_module(module, fw_compiler=nop, bw_compiler=nop, partition_fn=record,
               dynamic=dynamic_shapes)(*args)
    assert len(captured) == 1
    return captured[0]


def node_keys(gm):
    """Node name -> (target, occurrence): the same for a static and a dynamic trace of one
    function (SymInt arithmetic has targets of its own, so it shifts no occurrence)."""
    seen: Counter = Counter()
    keys = {}
    for node in gm.graph.nodes:
        target = node.target if node.op != "placeholder" else node.name
        key = (node.op, str(target))
        keys[node.name] = (key, seen[key])
        seen[key] += 1
    return keys


def saved_tensor_keys(gm, names):
    keys = node_keys(gm)
    by_name = {n.name: n for n in gm.graph.nodes}
    return sorted(keys[x] for x in names if isinstance(by_name[x].meta.get("val"), torch.Tensor))


def static_decision(fn, args):
    gm, _, nf = capture(fn, args, dynamic_shapes=False)
    d = decide(gm, num_fwd_outputs=nf)
    return gm, d


# --- models -----------------------------------------------------------------------------------

K = 600  # length of y in `crossing`


def crossing(x, y):
    """Backward needs exp(z) (s x 4 floats, not otherwise written: 2 x 16 s bytes) or, to
    recompute it, r = x.sum(1) (s floats, written by the reduction: 4 s) and y (4 K bytes).
    The first is cheaper while 32 s < 4 s + 4 K, i.e. s < K / 7 = 85.7."""
    r = x.sum(1)
    z = r.unsqueeze(1) + y.narrow(0, 0, 4).unsqueeze(0)
    return torch.exp(z).sum()


def crossing_args(s):
    g = torch.Generator().manual_seed(s)
    return (torch.randn(s, 3, generator=g, requires_grad=True),
            torch.randn(K, generator=g, requires_grad=True))


def reduction_flip(x):
    """r = x.sum(0) has D elements from s * D: a 'reduction' (4x+ smaller, recomputing it is
    banned) exactly when s >= 4. The backward needs x and e = exp(r), not r; x is saved anyway,
    so e is recomputed from x while r may be recomputed, and from r (saved) from s = 4 on."""
    r = x.sum(0)
    return (torch.exp(r).unsqueeze(0) * x).sum()


def flip_args(s, d=8):
    g = torch.Generator().manual_seed(s)
    return (torch.randn(s, d, generator=g, requires_grad=True),)


def attention(q, k, v):
    """Causal attention scores are s x s: weights quadratic in the sequence length."""
    t = q.shape[1]
    att = (q @ k.transpose(-2, -1)) * 0.25
    mask = torch.ones(t, t, dtype=torch.bool).tril()
    att = att.masked_fill(~mask, float("-inf")).softmax(dim=-1)
    return F.gelu(att @ v).sum()


def attention_args(b, s, d=4):
    g = torch.Generator().manual_seed(b * 1000 + s)
    return tuple(torch.randn(b, s, d, generator=g, requires_grad=True) for _ in range(3))


def quadratic(x, y):
    """exp(z) for an s x s z: 2 x 4 s**2 bytes, against r = x.sum(1) and y (4 s + 4 K): the
    first is cheaper while 8 s**2 < 4 s + 4 K (+ a few 1-byte SymInts), i.e. up to s = 17."""
    r = x.sum(1)
    z = r.unsqueeze(1) + y.narrow(0, 0, x.shape[0]).unsqueeze(0)
    return torch.exp(z).sum()


@pytest.fixture(scope="module")
def quadratic_plan():
    gm, ji, nf = capture(quadratic, crossing_args(50))
    p = dynamic.plan(gm, ji, num_fwd_outputs=nf)
    return p, _symbol_with_hint(p, 50)


def strided(x, y):
    """`crossing` on every other row: sizes hold FloorDiv(s + 1, 2), not a polynomial in s;
    the crossing moves to 32 h < 4 h + 4 K with h = ceil(s / 2), i.e. up to s = 170."""
    r = x[::2].sum(1)
    z = r.unsqueeze(1) + y.narrow(0, 0, 4).unsqueeze(0)
    return torch.exp(z).sum()


@pytest.fixture(scope="module")
def crossing_plan():
    gm, ji, nf = capture(crossing, crossing_args(50))
    p = dynamic.plan(gm, ji, num_fwd_outputs=nf)
    return p, _symbol_with_hint(p, 50)


@pytest.fixture(scope="module")
def flip_plan():
    gm, ji, nf = capture(reduction_flip, flip_args(6))
    p = dynamic.plan(gm, ji, num_fwd_outputs=nf)
    return p, _symbol_with_hint(p, 6)


@pytest.fixture(scope="module")
def attention_plan():
    gm, ji, nf = capture(attention, attention_args(3, 6))
    return dynamic.plan(gm, ji, num_fwd_outputs=nf)


def _symbol_with_hint(p, hint):
    (name,) = [k for k, v in p.symbols.items() if v.hint == hint]
    return name


def _at(p, **sizes):
    out = p.hints()
    out.update(sizes)
    return out


# --- solve equals the static decision -----------------------------------------------------------


@pytest.mark.parametrize("s", [2, 85, 86, 400])
def test_solve_equals_static_decide_crossing(crossing_plan, s):
    p, sym = crossing_plan
    mine = p.solve(_at(p, **{sym: s}))
    gm, ref = static_decision(crossing, crossing_args(s))
    assert saved_tensor_keys(p.graph.gm, mine.saved) == saved_tensor_keys(
        gm, [n.name for n in ref.saved_nodes])


@pytest.mark.parametrize("s", [3, 4])
def test_solve_equals_static_decide_reduction_flip(flip_plan, s):
    p, sym = flip_plan
    mine = p.solve(_at(p, **{sym: s}))
    gm, ref = static_decision(reduction_flip, flip_args(s))
    assert saved_tensor_keys(p.graph.gm, mine.saved) == saved_tensor_keys(
        gm, [n.name for n in ref.saved_nodes])


@pytest.mark.parametrize("b,s", [(2, 3), (5, 40)])
def test_solve_equals_static_decide_attention(attention_plan, b, s):
    p = attention_plan
    (bsym,) = [k for k, v in p.symbols.items() if v.hint == 3]
    (ssym,) = [k for k, v in p.symbols.items() if v.hint == 6]
    mine = p.solve(_at(p, **{bsym: b, ssym: s}))
    gm, ref = static_decision(attention, attention_args(b, s))
    assert saved_tensor_keys(p.graph.gm, mine.saved) == saved_tensor_keys(
        gm, [n.name for n in ref.saved_nodes])


def test_solve_equals_static_decide_gpt():
    from models import GPT, GPTConfig

    torch.manual_seed(0)
    model = GPT(GPTConfig(n_layer=1, block_size=32))

    def inputs(b, t):
        g = torch.Generator().manual_seed(b * 100 + t)
        return (torch.randint(0, 32, (b, t), generator=g),
                torch.randint(0, 32, (b, t), generator=g))

    gm, ji, nf, static = capture_module(model, inputs(3, 5))
    p = dynamic.plan(gm, ji, num_fwd_outputs=nf, static_lifetime_input_indices=static)
    (bsym,) = [k for k, v in p.symbols.items() if v.hint == 3]
    (tsym,) = [k for k, v in p.symbols.items() if v.hint == 5]
    for b, t in ((2, 7), (6, 29)):
        mine = p.solve({bsym: b, tsym: t})
        sgm, _, snf, sstatic = capture_module(model, inputs(b, t), dynamic_shapes=False)
        ref = decide(sgm, num_fwd_outputs=snf, static_lifetime_input_indices=sstatic)
        assert saved_tensor_keys(p.graph.gm, mine.saved) == saved_tensor_keys(
            sgm, [n.name for n in ref.saved_nodes])


def test_solve_at_hints_equals_decide_on_the_same_graph(crossing_plan):
    p, _ = crossing_plan
    assert list(p.solve().saved_index) == list(p.reference.saved)
    assert p.solve().cut_value == p.reference.cut_value


def test_weights_equal_cost_weights_of_the_sized_graph(attention_plan):
    p = attention_plan
    sizes = {k: v.hint + 7 for k, v in p.symbols.items()}
    numel = p.numel(sizes)
    w = p.weights(sizes)
    graph = p.graph
    expect = fusioncut.cost.weights(graph, p.policy, p.options, nbytes=numel * graph.itemsize)
    assert np.array_equal(w, expect)
    # The fast path's network weights are the same numbers on the kept nodes.
    E = p._evaluate(p.sizes.values(sizes, "test"))
    fast = p._network_weights(E)
    assert np.array_equal(fast[: len(p._contracted.keep)], w[p._contracted.keep])


def test_decision_cost_and_saved_bytes(crossing_plan):
    p, sym = crossing_plan
    d = p.solve(_at(p, **{sym: 10}))  # saves exp (s x 4 floats, 2x) and SymInts (1 each)
    assert sorted(x for x in d.saved if not x.startswith("sym_size")) == ["exp"]
    symints = len(d.saved_sym_nodes)
    assert d.cost == 2 * 4 * 4 * 10 + symints
    assert d.saved_bytes == 4 * 4 * 10
    d = p.solve(_at(p, **{sym: 1000}))  # saves y and r = x.sum(1)
    assert sorted(x.name for x in d.saved_values) == ["primals_2", "sum_1"]
    assert d.cost == 4 * K + 4 * 1000 + len(d.saved_sym_nodes)
    assert d.saved_bytes == 4 * K + 4 * 1000


# --- breakpoints --------------------------------------------------------------------------------


def test_breakpoints_find_the_crossing(crossing_plan):
    p, sym = crossing_plan
    # By hand: exp costs 2 * 4 * 4 s bytes, {r, y} 4 s + 4 K (and each a few 1-byte SymInts,
    # which cannot move an integer crossing of 28 s = 4 K by a whole step here):
    # exp is cheaper while 32 s < 4 s + 4 K, i.e. up to s = 4 K // 28 = 85.
    last_exp = 4 * K // 28
    assert last_exp == 85
    ranges = p.breakpoints(sym, 2, 1000)
    assert [(a, b) for a, b, _ in ranges] == [(2, last_exp), (last_exp + 1, 1000)]
    assert "exp" in ranges[0][2].saved and "exp" not in ranges[1][2].saved
    # Static traces just below and above agree.
    for s, has_exp in ((last_exp, True), (last_exp + 1, False)):
        gm, ref = static_decision(crossing, crossing_args(s))
        assert ("exp" in [n.name for n in ref.saved_nodes]) == has_exp


def test_breakpoints_find_the_reduction_ban_flip(flip_plan):
    p, sym = flip_plan
    ranges = p.breakpoints(sym, 2, 100)
    assert [(a, b) for a, b, _ in ranges] == [(2, 3), (4, 100)]
    assert "sum_1" not in ranges[0][2].saved and "sum_1" in ranges[1][2].saved


def _brute_force(p, sym, lo, hi, fixed=None):
    out = []
    for t in range(lo, hi + 1):
        sizes = _at(p, **(fixed or {}))
        sizes[sym] = t
        key = p.solve(sizes).key()
        if out and out[-1][2] == key:
            out[-1] = (out[-1][0], t, key)
        else:
            out.append((t, t, key))
    return out


@pytest.mark.parametrize("which", ["crossing", "flip"])
def test_breakpoints_equal_brute_force(crossing_plan, flip_plan, which):
    p, sym = crossing_plan if which == "crossing" else flip_plan
    got = [(a, b, d.key()) for a, b, d in p.breakpoints(sym, 2, 300)]
    assert got == _brute_force(p, sym, 2, 300)


def test_breakpoints_quadratic_sizes(quadratic_plan):
    p, sym = quadratic_plan
    assert p.program.degree(list(p.symbols).index(sym)) == 2
    last_exp = max(s for s in range(2, 100) if 8 * s * s < 4 * s + 4 * K)
    assert last_exp == 17
    got = [(a, b, d.key()) for a, b, d in p.breakpoints(sym, 2, K - 1)]
    assert [(a, b) for a, b, _ in got] == [(2, last_exp), (last_exp + 1, K - 1)]
    assert got == _brute_force(p, sym, 2, K - 1)
    for s, has_exp in ((last_exp, True), (last_exp + 1, False)):
        gm, ref = static_decision(quadratic, crossing_args(s))
        assert ("exp" in [n.name for n in ref.saved_nodes]) == has_exp


def test_breakpoints_attention_equal_brute_force(attention_plan):
    p = attention_plan
    (bsym,) = [k for k, v in p.symbols.items() if v.hint == 3]
    (ssym,) = [k for k, v in p.symbols.items() if v.hint == 6]
    for b in (2, 9):
        got = [(a, c, d.key()) for a, c, d in p.breakpoints(ssym, 2, 300, fixed={bsym: b})]
        assert got == _brute_force(p, ssym, 2, 300, fixed={bsym: b})


def test_breakpoints_non_polynomial_sizes():
    gm, ji, nf = capture(strided, crossing_args(51))
    p = dynamic.plan(gm, ji, num_fwd_outputs=nf)
    sym = _symbol_with_hint(p, 51)
    assert p.program.depends_nonpolynomially(list(p.symbols).index(sym))
    lo = p.symbols[sym].lo  # x[::2] guards s >= 3
    got = [(a, b, d.key()) for a, b, d in p.breakpoints(sym, lo, 1000)]
    assert [(a, b) for a, b, _ in got] == [(lo, 170), (171, 1000)]
    assert got == _brute_force(p, sym, lo, 1000)
    for s, has_exp in ((170, True), (171, False)):
        sgm, ref = static_decision(strided, crossing_args(s))
        assert ("exp" in [n.name for n in ref.saved_nodes]) == has_exp
        mine = p.solve(_at(p, **{sym: s}))
        assert saved_tensor_keys(p.graph.gm, mine.saved) == saved_tensor_keys(
            sgm, [n.name for n in ref.saved_nodes])


@settings(max_examples=25, deadline=None)
@given(lo=st.integers(2, 400), width=st.integers(0, 2000))
def test_breakpoints_cover_the_range_contiguously(crossing_plan, lo, width):
    p, sym = crossing_plan
    hi = lo + width
    ranges = p.breakpoints(sym, lo, hi)
    assert ranges[0][0] == lo and ranges[-1][1] == hi
    for (a, b, d), (c, _, e) in zip(ranges, ranges[1:]):
        assert b + 1 == c and d.key() != e.key()
    for a, b, d in ranges:
        for t in (a, b):
            assert p.solve(_at(p, **{sym: t})).key() == d.key()
        assert d.sizes[sym] == a


# --- whole ranges -------------------------------------------------------------------------------


def test_check_optimal_over_ranges(crossing_plan):
    p, sym = crossing_plan
    report = dynamic.check_optimal_over_ranges(p, _at(p, **{sym: 10}))
    assert report.optimal is False
    assert report.better is not None and report.better.cost < dynamic.SizedDecision(
        p, tuple(report.counterexample.values()), report.decision.saved_index, 0).cost
    box = {name: (info.hint, info.hint) for name, info in p.symbols.items()}
    box[sym] = (2, 80)
    report = dynamic.check_optimal_over_ranges(p, _at(p, **{sym: 10}), box=box)
    assert report.optimal is True


def test_check_optimal_over_ranges_with_a_switching_ban(flip_plan):
    p, sym = flip_plan
    box = {name: (info.hint, info.hint) for name, info in p.symbols.items()}
    # At s = 3 r = x.sum(0) is recomputed; from s = 4 on that is banned: not valid there.
    box[sym] = (2, 100)
    report = dynamic.check_optimal_over_ranges(p, _at(p, **{sym: 3}), box=box)
    assert report.optimal is False and report.counterexample[sym] >= 4
    assert "recomputes sum_1" in report.detail
    box[sym] = (2, 3)
    assert dynamic.check_optimal_over_ranges(p, _at(p, **{sym: 3}), box=box).optimal is True
    # Saving r is valid everywhere but costs more than recomputing it where that is allowed.
    box[sym] = (2, 100)
    report = dynamic.check_optimal_over_ranges(p, _at(p, **{sym: 10}), box=box)
    assert report.optimal is False and report.counterexample[sym] == 2
    box[sym] = (4, 100)  # the ban holds on the whole box: certified
    assert dynamic.check_optimal_over_ranges(p, _at(p, **{sym: 10}), box=box).optimal is True


def test_check_optimal_over_ranges_two_symbols(attention_plan):
    """Batch and sequence length both range over [2, 4096]: quadratic in the sequence, the
    certificate solves the 2 x 3 tensor-product control points."""
    p = attention_plan
    box = {name: (2, 4096) for name in p.symbols}
    report = dynamic.check_optimal_over_ranges(p, box=box)
    assert report.optimal is True, report.detail
    assert report.box == box


# --- errors -------------------------------------------------------------------------------------


def test_size_errors_name_the_symbol(crossing_plan):
    p, sym = crossing_plan
    good = p.hints()
    with pytest.raises(dynamic.SizeError, match=rf"no size for symbol '{sym}'.*\[2, inf\]"):
        p.solve({k: v for k, v in good.items() if k != sym})
    with pytest.raises(dynamic.SizeError, match=rf"{sym} = -3 is negative; valid range is "
                                                 r"\[2, inf\]"):
        p.solve({**good, sym: -3})
    with pytest.raises(dynamic.SizeError, match=rf"{sym} = 1 is outside its declared range"):
        p.solve({**good, sym: 1})
    with pytest.raises(dynamic.SizeError, match=r"unknown size symbol 'zz9'.*" + sym):
        p.solve({**good, "zz9": 4})
    with pytest.raises(dynamic.SizeError, match=rf"{sym} = 2.5 is not an integer"):
        p.solve({**good, sym: 2.5})
    with pytest.raises(dynamic.SizeError, match="unknown size symbol 'zz9'"):
        p.breakpoints("zz9", 2, 10)
    with pytest.raises(dynamic.SizeError, match=rf"{sym} = 0 is outside"):
        p.breakpoints(sym, 0, 10)


def test_sizes_accept_symbols_and_sequences(crossing_plan):
    p, sym = crossing_plan
    info = p.symbols[sym]
    by_symbol = {p.symbols[k].symbol: v for k, v in p.hints().items()}
    assert p.solve(by_symbol).key() == p.solve(p.hints()).key()
    assert p.solve(list(p.hints().values())).key() == p.solve().key()
    assert p.sizes_of(crossing_args(77))[sym] == 77
    assert info.lo == 2 and info.hi is None and not info.unbacked


def test_unbacked_symbol_warns_and_uses_the_fallback():
    def f(x, n):
        k = n.item()
        torch._check_is_size(k)
        torch._check(k >= 2)
        return torch.cos(torch.sin(x).repeat(k, 1)).sum()

    import torch._dynamo.config

    with torch._dynamo.config.patch(capture_scalar_outputs=True), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gm, ji, nf = capture(f, (torch.randn(5, 4, requires_grad=True), torch.tensor(3)))
    options = fusioncut.Options(unbacked_size_hint=64)
    with pytest.warns(dynamic.UnbackedSizeWarning, match=r"symbol u\d+ has no hint.*= 64"):
        p = dynamic.plan(gm, ji, num_fwd_outputs=nf, options=options)
    (u,) = [k for k, v in p.symbols.items() if v.unbacked]
    assert p.symbols[u].hint == 64
    assert p.solve({**p.hints(), u: 7}).sizes[u] == 7


# --- emission -----------------------------------------------------------------------------------


def test_partition_for_sizes_runs_at_other_sizes():
    """The modules decided for one size are symbolic: they run, and are exact, at others."""
    from functorch.compile import aot_function, nop

    chosen = []
    reports = []

    def at_1000(p):
        sizes = _at(p, **{_symbol_with_hint(p, 50): 1000})
        chosen.append(p.solve(sizes).saved)
        return sizes

    def partition_fn(joint_module, joint_inputs, *, num_fwd_outputs, **kwargs):
        return fusioncut.partition_for_sizes(joint_module, joint_inputs,
                                           num_fwd_outputs=num_fwd_outputs, sizes=at_1000,
                                           report=reports.append, **kwargs)

    compiled = aot_function(crossing, fw_compiler=nop, bw_compiler=nop,
                            partition_fn=partition_fn, dynamic=True)
    for s in (50, 7, 123):
        x, y = crossing_args(s)
        loss = compiled(x, y)
        loss.backward()
        x2, y2 = (t.detach().clone().requires_grad_(True) for t in (x, y))
        ref = crossing(x2, y2)
        ref.backward()
        torch.testing.assert_close(loss, ref)
        torch.testing.assert_close(x.grad, x2.grad)
        torch.testing.assert_close(y.grad, y2.grad)
    assert "exp" not in chosen[0] and "sum_1" in chosen[0]
    # Saving r and y is not optimal below s = 86: the report says so, with a counterexample.
    (report,) = reports
    assert report.optimal is False and report.counterexample is not None


def test_plan_of_a_static_graph():
    gm, ji, nf = capture(crossing, crossing_args(50), dynamic_shapes=False)
    p = dynamic.plan(gm, ji, num_fwd_outputs=nf)
    assert p.symbols == {}
    assert p.solve().saved == p.solve({}).saved == ["exp"]
    with pytest.raises(dynamic.SizeError, match="unknown size symbol 's0'.*none"):
        p.solve({"s0": 3})


def test_huge_sizes_take_cost_py_coarsened_path(crossing_plan):
    p, sym = crossing_plan
    sizes = _at(p, **{sym: 10**17})
    d = p.solve(sizes)  # bytes x tie-break scale > 2**62: cost.weights verbatim
    w = p.weights(sizes)
    assert d.cut_value == int(sum(int(x) for x in w[d.saved_index]))
    assert "primals_2" in d.saved and "exp" not in d.saved
    with pytest.raises(OverflowError):
        p.solve(_at(p, **{sym: 10**19}))
