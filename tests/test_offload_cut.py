"""The three-way cut (keep / recompute / offload) under a memory target with
``Options(offload="auto")``: a chain is exactly the cheaper of two fates, plans train like eager
with values offloaded (on the CPU the copy is ``prims.device_put(x, cpu)``), the emitted graphs
move exactly the chosen values, nothing the rule blocks goes, MUST_CPU_OFFLOAD is never kept on
the device, the frontier stays monotone, the link's excess is charged, the peak knows when
offloaded values leave and come back, torch's flag is honoured under torch.compile, and the
decision is the same in every process."""

from __future__ import annotations

import dataclasses
import functools
import json
import logging
import warnings

import numpy as np
import pytest
import torch
from functorch.compile import aot_function, make_boxed_func
from hypothesis import given, settings
from hypothesis import strategies as st
from torch.utils.checkpoint import (
    CheckpointPolicy,
    checkpoint,
    create_selective_checkpoint_contexts,
)

import fusioncut
from fusioncut import _torch_compat, _torch_offload, budget_link, budget_reach
from fusioncut._solver import min_node_cut
from fusioncut.budget import BudgetWarning
from fusioncut.cli import main
from fusioncut.device import PRESETS
from fusioncut.models import GPT, gpt_config, gpt_inputs
from fusioncut.network import FlowNetwork, add_chains
from fusioncut.offload import Overlap, exposed_seconds
from fusioncut.offload_link import Link, link
from fusioncut.options import Options
from fusioncut.peak import estimate_peak
from fusioncut.peak_offload import OffloadedValues, reload_times
from fusioncut.report import capture
from fusioncut.report.charts import plot_pareto
from fusioncut.report.pareto import format_pareto, pareto_dict
from models import (
    OffloadMlp,
    decide_captured,
    last_lines_across_processes,
    offload_mlp,
    pareto_captured,
    small_gpt,
)

pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning")

DEVICE_PUT = torch.ops.prims.device_put.default
H100 = PRESETS["h100"]
# A device whose host link is as fast as its memory: offloading is cheap, so the cut uses it.
FAST_LINK = dataclasses.replace(H100, name="fast-link", host_bandwidth=H100.bandwidth,
                                offload_hidden=0.5)
# ... and one where recomputing anything is dear besides.
DEAR_RECOMPUTE = dataclasses.replace(FAST_LINK, name="dear-recompute", kernel_overhead=1e-3,
                                     pointwise_op_time=1e-9, transcendental_op_time=1e-9)


def _moved(gm: torch.fx.GraphModule) -> set[str]:
    return {n.args[0].name.replace("cpu_offload_", "")
            for n in gm.graph.find_nodes(op="call_function", target=DEVICE_PUT)}


def _run(fn, args, options):
    """Train one step under aot_function with ``options``: the decision, the modules and the
    gradients next to eager's."""
    box: dict = {}
    for a in args:
        a.grad = None

    def partition(joint, inputs, **kwargs):
        box["d"] = fusioncut.decide(joint, num_fwd_outputs=kwargs["num_fwd_outputs"],
                                    options=options)
        return fusioncut.partition(joint, inputs, options=options, **kwargs)

    def compiler(name):
        return lambda gm, _: box.setdefault(name, gm) and make_boxed_func(gm)

    with warnings.catch_warnings():
        warnings.simplefilter("error", fusioncut.FallbackWarning)
        aot_function(fn, compiler("fw"), compiler("bw"), partition_fn=partition)(*args).backward()
    leaves = [a for a in args if a.requires_grad]
    grads = [a.grad for a in leaves]
    for a in leaves:
        a.grad = None
    fn(*args).backward()
    return box, grads, [a.grad for a in leaves]


# --- the network ----------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 7).flatmap(lambda n: st.tuples(
    st.just(n),
    st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), min_size=n, max_size=3 * n),
    st.lists(st.integers(1, 50), min_size=n, max_size=n),
    st.lists(st.integers(1, 50), min_size=n, max_size=n),
    st.lists(st.booleans(), min_size=n, max_size=n))))
def test_a_chain_cuts_the_cheaper_of_keeping_and_offloading(case):
    n, edges, keep, off, chained = case
    src = np.array([a for a, b in edges if a < b] + list(range(n - 1)), dtype=np.int64)
    dst = np.array([b for a, b in edges if a < b] + list(range(1, n)), dtype=np.int64)
    source_in = np.zeros(n, bool)
    source_in[0] = True
    sink_in = np.zeros(n, bool)
    sink_in[-1] = True
    net = FlowNetwork(src, dst, source_in, sink_in, np.zeros(n, bool))
    nodes = np.flatnonzero(np.array(chained[:n - 1] + [False]))
    both = add_chains(net, nodes)
    w = np.array(keep, dtype=np.int64)
    cheaper = w.copy()
    cheaper[nodes] = np.minimum(w[nodes], np.array(off)[nodes])
    plain = min_node_cut(cheaper, net.src, net.dst, source_in=net.source_in,
                         sink_in=net.sink_in, sink_out=net.sink_out)
    cut = min_node_cut(np.concatenate([w, np.array(off, dtype=np.int64)[nodes]]), both.src,
                       both.dst, source_in=both.source_in, sink_in=both.sink_in,
                       sink_out=both.sink_out)
    assert cut.value == plain.value  # one min cut, each chained value at its cheaper fate
    for k, v in enumerate(nodes.tolist()):
        if n + k in cut.cut_nodes.tolist():
            assert off[v] <= keep[v]
        elif v in cut.cut_nodes.tolist():
            assert keep[v] <= off[v]


# --- decisions and emission -----------------------------------------------------------------


def test_offloaded_plans_train_like_eager_and_move_exactly_the_chosen_values():
    torch.manual_seed(0)
    args = [torch.randn(512, 32), torch.randn(32, 32, requires_grad=True),
            torch.randn(32, 32, requires_grad=True)]
    box, grads, eager = _run(offload_mlp, args, Options(device=DEAR_RECOMPUTE, offload="auto",
                                                 memory_budget=0.3))
    torch.testing.assert_close(grads, eager)
    d = box["d"]
    offloaded = {n.name for n in d.offloaded_nodes}
    assert offloaded and offloaded <= {n.name for n in d.saved_nodes}
    assert all(d.offload.blocked[i] is None for i in d.offloaded)
    assert _moved(box["fw"]) == offloaded
    reloads = box["bw"].graph.find_nodes(op="call_function", target=DEVICE_PUT)
    assert {n.args[0].name for n in reloads} == {f"cpu_offload_{v}" for v in offloaded}
    # Offloading lowers the peak where recomputing is dear.
    point, front = d.budget.point, d.budget.frontier
    assert point.peak.peak < front.runtime.peak.peak and point.offloaded_bytes > 0
    assert point.offload_seconds > 0 and point.recompute_seconds < 1e-3


def test_gpt_plans_at_every_budget_train_like_eager_with_offloading():
    cfg = gpt_config("demo", n_layer=1, d_model=32, n_head=2, block_size=16, vocab=64)
    torch.manual_seed(0)
    model = GPT(cfg)
    idx, targets = gpt_inputs(cfg, batch=2)
    params = dict(model.named_parameters())
    fn = lambda *ps: torch.func.functional_call(  # noqa: E731
        model, dict(zip(params, ps[:-2])), ps[-2:])
    for budget in (0.0, 0.5):
        args = [p.detach().clone().requires_grad_(True) for p in params.values()]
        args += [idx, targets]
        box, grads, eager = _run(fn, args, Options(device=FAST_LINK, offload="auto",
                                                   memory_budget=budget))
        torch.testing.assert_close(grads, eager)
        assert _moved(box["fw"]) == {n.name for n in box["d"].offloaded_nodes}


def test_nothing_the_rule_blocks_is_offloaded():
    def fn(x, w):
        a = torch.mm(x, w)
        b = x.t() * 2.0  # not contiguous
        r = torch.rand_like(a)
        return (torch.nn.functional.dropout(a, 0.5, True) * b.t() * r).sin().sum(), \
            a.view(-1).cos()

    torch.manual_seed(0)
    cap = capture(fn, torch.randn(8, 8, requires_grad=True), torch.randn(8, 8, requires_grad=True),
                  via="aot")
    for budget in (0.0, 0.3):
        d = decide_captured(cap, device=FAST_LINK, offload="auto", memory_budget=budget)
        assert all(d.offload.blocked[i] is None for i in d.offloaded)
        names = {n.name for n in d.offloaded_nodes}
        assert not names & {"t", "mul", "rand_like", "getitem", "getitem_1", "cos", "view"}


def _sac_block(x, w):
    return torch.mm(torch.mm(x, w).relu(), w).sin()


def _must_policy(ctx, op, *args, **kwargs):
    return CheckpointPolicy.MUST_CPU_OFFLOAD if op == torch.ops.aten.mm.default else \
        CheckpointPolicy.PREFER_RECOMPUTE


def test_must_cpu_offload_is_never_kept_on_the_device_and_prefer_may_be_overridden():
    context = functools.partial(create_selective_checkpoint_contexts, _must_policy)
    fn = lambda x, w: checkpoint(_sac_block, x, w, use_reentrant=False,  # noqa: E731
                                 context_fn=context).sum()
    torch.manual_seed(0)
    args = [torch.randn(16, 16, requires_grad=True) for _ in range(2)]
    for budget in (0.0, 0.5):
        box, grads, eager = _run(fn, args, Options(device=H100, offload="auto",
                                                   memory_budget=budget))
        torch.testing.assert_close(grads, eager)
        d = box["d"]
        mms = {n.name for n in d.saved_nodes if n.target == torch.ops.aten.mm.default}
        assert mms and mms <= {n.name for n in d.offloaded_nodes}  # saved: offloaded
    # PREFER_CPU_OFFLOAD is a preference: on a device whose link is dear the cut keeps it.
    prefer = lambda ctx, op, *a, **k: CheckpointPolicy.PREFER_CPU_OFFLOAD  # noqa: E731
    fn = lambda x, w: checkpoint(  # noqa: E731
        _sac_block, x, w, use_reentrant=False,
        context_fn=functools.partial(create_selective_checkpoint_contexts, prefer)).sum()
    slow = dataclasses.replace(H100, name="slow-link", host_bandwidth=1.0)
    box, grads, eager = _run(fn, args, Options(device=slow, offload="auto", memory_budget=0.9))
    torch.testing.assert_close(grads, eager)
    assert len(box["d"].saved) and len(box["d"].offloaded) == 0
    box, _, _ = _run(fn, args, Options(device=slow, offload="tagged", memory_budget=0.9))
    assert len(box["d"].offloaded)  # "tagged" offloads what the annotations ask for


def test_auto_without_a_target_offloads_what_annotations_ask_for():
    cap = small_gpt()
    plain = decide_captured(cap)
    for options in (dict(offload="auto"), dict(offload="auto", device=FAST_LINK)):
        d = decide_captured(cap, **options)
        assert d.saved.tolist() == plain.saved.tolist() and len(d.offloaded) == 0
        assert d.budget is None


def test_a_device_without_a_host_link_offloads_nothing_and_says_so(caplog):
    cap = small_gpt()
    with caplog.at_level(logging.WARNING, logger="fusioncut"):
        d = decide_captured(cap, device="cpu", offload="auto", memory_budget=0.0)
    alone = decide_captured(cap, device="cpu", memory_budget=0.0)
    assert len(d.offloaded) == 0 and d.saved.tolist() == alone.saved.tolist()
    assert any("has no host link" in r.getMessage() for r in caplog.records)


def test_a_peak_target_reaches_below_what_recomputation_alone_reaches():
    cap = small_gpt()
    least = pareto_captured(cap, device=FAST_LINK).least.peak.peak
    with warnings.catch_warnings():
        warnings.simplefilter("error", BudgetWarning)
        d = decide_captured(cap, device=FAST_LINK, offload="auto", peak_memory_bytes=least - 1,
                    peak_margin=0.0)
    assert d.budget.point.peak.peak <= least - 1 and len(d.offloaded)
    with pytest.warns(BudgetWarning, match="below the least any plan reaches"):
        decide_captured(cap, device=FAST_LINK, peak_memory_bytes=least - 1, peak_margin=0.0)


# --- the frontier ---------------------------------------------------------------------------


def _check_monotone(front):
    points = front.points
    for a, b in zip(points, points[1:]):
        assert b.saved_bytes < a.saved_bytes
        assert b.peak.peak <= a.peak.peak
        assert b.seconds >= a.seconds - 1e-15
    for p in points:
        assert set(p.offloaded.tolist()) <= set(p.saved.tolist())
        assert p.offload_seconds >= 0 and p.link_excess_seconds >= 0
    return points


@settings(max_examples=8, deadline=None)
@given(host=st.sampled_from([H100.host_bandwidth, H100.bandwidth / 4, H100.bandwidth]),
       hidden=st.sampled_from([0.0, 0.5, 0.9, 1.0]),
       stream=st.booleans(), prefetch=st.booleans(), sink=st.booleans())
def test_three_way_frontier_is_monotone_in_device_bytes_peak_and_step_time(
        host, hidden, stream, prefetch, sink):
    device = dataclasses.replace(H100, name="link", host_bandwidth=host, offload_hidden=hidden)
    with _torch_compat.functorch_config().patch(activation_offload_separate_stream=stream,
                                                activation_reload_prefetch=prefetch,
                                                activation_offload_sink_wait=sink):
        front = pareto_captured(small_gpt(), device=device, offload="auto")
        points = _check_monotone(front)
    plain = pareto_captured(small_gpt(), device=device)
    # Offloading only adds plans: its least plan peaks no higher (a plan holding fewer bytes
    # but peaking no lower buys nothing and is not a point).
    assert points[-1].peak.peak <= plain.least.peak.peak
    assert points[0].saved_bytes == plain.runtime.saved_bytes


def test_a_byte_budget_between_cuts_whose_lines_do_not_cross_gets_a_plan():
    """A gap between two cuts whose lines do not cross (a restricted problem's neighbouring
    cuts, as ``best_within`` solves above a hull edge) holds no plan, and a byte budget over it
    still gets one: ``memory_budget_bytes`` on the bench's 12-layer GPT with offloading used to
    raise AttributeError ('_Gap' object has no attribute 'base') at 22 of 41 budgets."""
    front = pareto_captured(small_gpt(), device=H100, offload="auto")
    gen = front.generator.parts[0]
    empty = budget_reach._Gap(gen, gen.cuts[1], gen.cuts[1])  # one cut twice: no breakpoint
    assert empty.best(front.runtime.saved_bytes) == -1 and empty.spread(48) == []
    torch.manual_seed(0)
    cfg = gpt_config("demo", n_layer=12, d_model=64, n_head=4, block_size=64, vocab=128)
    cap = capture(GPT(cfg), *gpt_inputs(cfg, batch=4), via="aot")
    front = pareto_captured(cap, device=H100, offload="auto")
    least, runtime = front.least.saved_bytes, front.runtime.saved_bytes
    limit = least + (runtime - least) * 22 // 40
    plan, missed = front.for_bytes(limit)
    assert missed == 0 and plan.saved_bytes <= limit


def test_an_over_subscribed_link_is_charged_and_raises_the_offload_price():
    cap = small_gpt()
    # A link that hides 100% in both directions but under almost no compute: every hidden
    # transfer is excess.
    with _torch_compat.functorch_config().patch(activation_offload_separate_stream=True,
                                                activation_reload_prefetch=True,
                                                activation_offload_sink_wait=True):
        device = dataclasses.replace(FAST_LINK, offload_hidden=1.0, host_bandwidth=1e9)
        front = pareto_captured(cap, device=device, offload="auto")
        _check_monotone(front)
    gen = front.generator
    assert len(getattr(gen, "parts", [])) >= 2  # re-solved with a raised offload price
    link_ = gen.bnet.offload.link
    every = [p for part in gen.parts for p in part.points] + front.plans
    over = [p for p in every if p.oversubscribed]
    assert over, "the plans should over-subscribe this link"
    for p in every:
        cost = link_.cost(p.offloaded_bytes)
        assert p.offload_seconds == pytest.approx(cost.exposed_seconds)
        assert p.link_excess_seconds == pytest.approx(cost.excess_seconds)
    for p in over:
        assert p.offload_seconds >= p.link_excess_seconds > 0  # charged, never "hidden"
    # The raised price finds plans that offload only what the link carries.
    raised = [part for part in gen.parts if 0 < part.bnet.mu < float("inf")]
    assert any(p.offloaded_bytes and not p.oversubscribed for part in raised
               for p in part.points)
    assert gen.parts[-1].bnet.mu == float("inf")  # and the plans recomputation alone reaches


def test_link_cost_charges_what_the_compute_cannot_hide():
    graph = decide_captured(small_gpt()).graph
    settings_ = _torch_offload.OffloadSettings(True, True, False, True, 50.0)
    seconds = np.full(graph.num_nodes, 1e-6)
    lk = link(graph, H100, seconds, settings_)
    assert lk.overlap == Overlap(forward=True, backward=True) and lk.directions() == 2
    small, large = lk.cost(2**20), lk.cost(2**40)
    t = 2**20 / H100.host_bandwidth
    assert small.exposed_seconds == pytest.approx(0.2 * t) and small.excess_seconds == 0
    assert small.exposed_seconds == pytest.approx(float(exposed_seconds(2**20, H100,
                                                                        lk.overlap)))
    big = 2**40 / H100.host_bandwidth
    assert large.excess_seconds == pytest.approx(1.8 * big - lk.forward_seconds
                                                 - lk.backward_seconds)
    assert large.exposed_seconds == pytest.approx(0.2 * big + large.excess_seconds)
    sync = link(graph, H100, seconds, settings_._replace(separate_stream=False))
    assert sync.directions() == 0 and sync.cost(2**20).exposed_seconds == pytest.approx(2 * t)
    assert np.all(lk.prices(np.array([2**20]), 1.0) > lk.prices(np.array([2**20]), 0.0))
    with pytest.raises(ValueError, match="device 'cpu' has no host link"):
        link(graph, PRESETS["cpu"], seconds, settings_)
    assert isinstance(lk, Link)


def test_a_link_that_hides_everything_still_prices_each_transfer():
    # offload_hidden = 1 (what calibrate reports when compute covers a copy): an overlapped
    # direction still exposes the copy's device memory traffic, so offloading is cheap, never
    # free, and the frontier offloads (at a price of 0 every cut offloaded everything it could
    # and no plan offloaded).
    graph = decide_captured(small_gpt()).graph
    settings_ = _torch_offload.OffloadSettings(True, True, False, True, 50.0)
    whole = dataclasses.replace(H100, offload_hidden=1.0)
    lk = link(graph, whole, np.full(graph.num_nodes, 1e-3), settings_)
    floor = 2 * 2**20 / whole.bandwidth
    assert lk.cost(2**20).exposed_seconds == pytest.approx(floor)
    assert float(exposed_seconds(2**20, whole, lk.overlap)) == pytest.approx(floor)
    assert lk.prices(np.array([2**20]), 0.0)[0] == pytest.approx(floor)
    # Below the floor's reach (H100's 0.9) the price is the exposed tenth, as before.
    assert float(exposed_seconds(2**20, H100, lk.overlap)) == pytest.approx(
        0.2 * 2**20 / H100.host_bandwidth)
    with _torch_compat.functorch_config().patch(activation_offload_separate_stream=True,
                                                activation_reload_prefetch=True):
        front = pareto_captured(small_gpt(), device=whole, offload="auto")
    points = _check_monotone(front)
    assert any(p.offloaded_bytes for p in points)
    assert all(p.offload_seconds > 0 for p in points if p.offloaded_bytes)


def test_the_link_multipliers_step_by_quarters_below_one_direction():
    # A link that over-subscribes at mu = 0 by a little fits well below mu = 1: the ladder
    # sweeps 0.25 and 0.5 first, then whole multipliers up to the overlapped directions.
    assert budget_link._ladder(2) == [0.25, 0.5, 1.0, 2.0]
    assert budget_link._ladder(1) == [0.25, 0.5, 1.0]
    assert budget_link._ladder(0) == []


# --- the peak -------------------------------------------------------------------------------


def test_offloaded_values_leave_after_their_last_forward_use_and_return_at_their_reload():
    cap = capture(offload_mlp, torch.randn(512, 32), torch.randn(32, 32, requires_grad=True),
                  torch.randn(32, 32, requires_grad=True), via="aot")
    d = decide_captured(cap, offload="auto")
    graph, saved = d.graph, d.saved
    away = saved[d.offload.allowed_mask()[saved]]  # every saved value the rule lets go
    assert len(away)
    on_device = estimate_peak(graph, saved)
    first_use = estimate_peak(graph, saved, offloaded=OffloadedValues(away))
    held = estimate_peak(graph, saved, offloaded=OffloadedValues(away, hold_forward=True))
    early = estimate_peak(graph, saved, offloaded=OffloadedValues(
        away, lead_seconds=np.full(len(away), 1.0), node_seconds=np.full(graph.num_nodes, 1e-9)))
    assert first_use.kept_bytes < on_device.kept_bytes
    assert first_use.forward_peak < on_device.forward_peak and first_use.peak <= on_device.peak
    assert held.forward_peak == on_device.forward_peak  # sink_wait holds the device copies
    assert early.backward_peak >= first_use.backward_peak  # reloaded at the backward's start
    assert early.backward_peak == on_device.backward_peak


def test_reload_times_follow_torchs_prefetch_queue():
    order = np.arange(6)
    seconds = np.array([1.0, 1.0, 1.0, 1.0, 1.0, 1.0])
    # Two reloads first used at times 5 and 4, each needing 1.5 s of compute before its use.
    values = OffloadedValues(np.array([7, 8]), lead_seconds=np.array([1.5, 1.5]),
                             node_seconds=np.r_[seconds, 0, 0])
    # torch walks back from the end: node 5 is used by the first reload (no credit for its own
    # user), node 4 and 3 cover it (placed before 3); the second reload queued behind it is
    # credited from node 2 on: nodes 2 and 1 cover it (placed before 1).
    assert reload_times(np.array([5, 4]), order, values).tolist() == [3, 1]
    assert reload_times(np.array([5, 4]), order, OffloadedValues(np.array([7, 8]))).tolist() \
        == [5, 4]
    tight = dataclasses.replace(values, lead_seconds=np.array([10.0, 0.5]))
    assert reload_times(np.array([5, 4]), order, tight).tolist() == [-1, -1]


# --- torch.compile and processes ------------------------------------------------------------

_RECORDED: dict = {}


class _Recording(fusioncut.InductorPartitioner):
    def __call__(self, gm, joint_inputs, **kwargs):
        options = dataclasses.replace(self.options, offload="auto")
        d = fusioncut.decide(gm, num_fwd_outputs=kwargs["num_fwd_outputs"], options=options)
        _RECORDED["offloaded"] = {n.name for n in d.offloaded_nodes}
        fw, bw = super().__call__(gm, joint_inputs, **kwargs)
        _RECORDED["moved"] = _moved(fw)  # before Inductor's passes edit the graph
        return fw, bw


@pytest.mark.parametrize("target", [dict(memory_budget=0.0), dict(peak_memory_bytes=1)],
                         ids=["budget 0", "peak below reach"])
def test_a_cpu_graph_without_a_named_device_offloads_nothing_and_says_why(target, caplog):
    """Its values are in host memory already: a copy there frees nothing (measured: a 4-layer
    Llama's peak rose from 2.82 to 3.74 MiB with the "h100" pricing's offloads)."""
    cap = capture(offload_mlp, torch.randn(512, 32), torch.randn(32, 32, requires_grad=True),
                  torch.randn(32, 32, requires_grad=True), via="aot")
    with caplog.at_level(logging.WARNING, logger="fusioncut"), warnings.catch_warnings():
        warnings.simplefilter("ignore", BudgetWarning)
        unnamed = decide_captured(cap, offload="auto", **target)
        named = decide_captured(cap, offload="auto", device="h100", **target)
        never = decide_captured(cap, offload="never", **target)
    assert len(unnamed.offloaded) == 0 and len(named.offloaded) > 0
    assert np.array_equal(np.sort(unnamed.saved), np.sort(never.saved))
    assert "the graph lives on the CPU and no device is named" in caplog.text
    assert "its copies stay in host memory" in caplog.text  # the named device's plan
    graph = unnamed.graph
    assert fusioncut.decision.no_offload_reason(graph, Options(offload="auto")) is not None
    assert fusioncut.decision.no_offload_reason(graph, Options(offload="auto", device="h100")) \
        is None
    assert "no host link" in fusioncut.decision.no_offload_reason(
        graph, Options(offload="auto", device="cpu"))


def test_torch_offloading_flag_lets_the_cut_offload_under_torch_compile():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.GELU(),
                                torch.nn.Linear(64, 64), torch.nn.Tanh(), torch.nn.Linear(64, 8))
    # 64 rows: enough activation bytes that sending them to the host lowers the estimated peak
    # (at 16 rows the backward peaks on the weights' gradients, where offloading buys nothing).
    x = torch.randn(64, 32)
    torch._dynamo.reset()
    _RECORDED.clear()
    partitioner = _Recording(Options(device=FAST_LINK, memory_budget=0.0))
    # No cache: a cached graph from an earlier run would skip the partitioner.
    with warnings.catch_warnings(), \
            _torch_compat.functorch_config().patch(enable_activation_offloading=True,
                                                   enable_autograd_cache=False), \
            _torch_compat.inductor_config().patch(custom_partitioner_fn=partitioner,
                                                  fx_graph_cache=False):
        warnings.simplefilter("error", fusioncut.FallbackWarning)
        torch.compile(model)(x).sum().backward()
    grads = [p.grad for p in model.parameters()]
    model.zero_grad(set_to_none=True)
    model(x).sum().backward()
    torch.testing.assert_close(grads, [p.grad for p in model.parameters()])
    assert _RECORDED["offloaded"] and _RECORDED["moved"] == _RECORDED["offloaded"]
    torch._dynamo.reset()


_CROSS_PROCESS = """
import dataclasses, torch, fusioncut
from fusioncut.models import GPT, gpt_config, gpt_inputs
from fusioncut.report import capture
cfg = gpt_config("demo", n_layer=2, d_model=32, n_head=2, block_size=16, vocab=64)
torch.manual_seed(0)
cap = capture(GPT(cfg), *gpt_inputs(cfg, batch=2), via="aot")
h100 = fusioncut.device.PRESETS["h100"]
fast = dataclasses.replace(h100, name="fast", host_bandwidth=h100.bandwidth, offload_hidden=0.5)
out = []
for b in (0.0, 0.3, 0.7):
    d = fusioncut.decide(cap.joint_module, num_fwd_outputs=cap.num_fwd_outputs,
                         static_lifetime_input_indices=cap.static_lifetime_input_indices,
                         options=fusioncut.Options(device=fast, offload="auto", memory_budget=b))
    out.append(([n.name for n in d.saved_nodes], [n.name for n in d.offloaded_nodes]))
print(out)
"""


def test_three_way_decisions_are_identical_across_processes():
    results = last_lines_across_processes(_CROSS_PROCESS)
    assert len(results) == 1
    assert "cpu_offload" not in results.pop()  # names are the joint graph's


# --- reports --------------------------------------------------------------------------------


def test_reports_show_the_three_way_frontier_and_say_why_a_value_went_to_the_host(tmp_path):
    torch.manual_seed(0)
    model, x = OffloadMlp(), torch.randn(512, 32)
    options = Options(device=DEAR_RECOMPUTE, offload="auto", memory_budget=0.3)
    report = fusioncut.explain(model, x, options=options)
    gone = [v for v in report.values if v.fate == "offloaded"]
    assert gone and all("offloaded for memory_budget = 0.3: its transfers cost the step" in v.why
                        and "keeping it would hold" in v.why and "recomputing it" in v.why
                        for v in gone)
    text = str(report)
    assert "offloaded to host memory between the passes" in text
    assert "offloaded" in text and "transfer" in text  # the budget steps' columns
    pareto = fusioncut.pareto(model, x, options=options, budgets=(0.0, 0.3, 1.0), compare=False)
    assert any(s.offloaded_bytes and s.num_offloaded for s in pareto.frontier)
    row = pareto.rows[1].fusioncut
    assert row.offloaded_bytes > 0 and row.offload_seconds > 0 and row.transfer_seconds > 0
    assert row.saved_bytes < pareto.rows[2].fusioncut.saved_bytes
    table = format_pareto(pareto)
    assert "offloaded" in table and "transfer" in table
    assert pareto_dict(pareto)["rows"][1]["fusioncut"]["offloaded_bytes"] == row.offloaded_bytes
    pytest.importorskip("matplotlib")
    assert plot_pareto(pareto, tmp_path / "p.png").stat().st_size > 0


def test_pareto_command_offloads_under_auto(tmp_path, monkeypatch, capsys):
    (tmp_path / "mlp_model.py").write_text(
        "import torch\n"
        "class M(torch.nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        torch.manual_seed(0)\n"
        "        self.w1 = torch.nn.Parameter(torch.randn(32, 32))\n"
        "        self.w2 = torch.nn.Parameter(torch.randn(32, 32))\n"
        "    def forward(self, x):\n"
        "        h = x\n"
        "        for k in range(6):\n"
        "            h = torch.mm(h, self.w1 if k % 2 == 0 else self.w2)\n"
        "            h = h.relu() if k % 3 == 0 else (h.sin() if k % 3 == 1 else h.tanh())\n"
        "        return (h ** 2).sum()\n"
        "def make():\n"
        "    return M()\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    out = tmp_path / "p.json"
    assert main(["pareto", "mlp_model:make", "--input", "512x32", "--budgets", "0,1",
                 "--offload", "auto", "--device", "h100", "--no-compare", "--json",
                 str(out)]) == 0
    rows = json.loads(out.read_text())["rows"]
    assert rows[0]["fusioncut"]["offloaded_bytes"] > 0 == rows[1]["fusioncut"]["offloaded_bytes"]
    assert "offloaded" in capsys.readouterr().out
    # The model lives on the CPU: without a device named, nothing offloads, and it says why.
    assert main(["pareto", "mlp_model:make", "--input", "512x32", "--budgets", "0,1",
                 "--offload", "auto", "--no-compare", "--json", str(out)]) == 0
    report = json.loads(out.read_text())
    assert all(r["fusioncut"]["offloaded_bytes"] == 0 for r in report["rows"])
    assert "lives on the CPU" in report["no_offload"]
    assert "offload='auto' offloads nothing here: the graph lives on the CPU" in \
        capsys.readouterr().out
    assert main(["explain", "mlp_model:make", "--input", "512x32", "--budget", "0",
                 "--offload", "auto", "--no-compare"]) == 0
    assert "offload='auto' offloaded nothing: the graph lives on the CPU" in \
        capsys.readouterr().out
    with pytest.raises(SystemExit) as exit_info:
        main(["pareto", "mlp_model:make", "--input", "512x32", "--offload", "always"])
    assert exit_info.value.code == 2
