"""Peak-directed offloading under a peak target (``budget_polish``): never a slower plan than
the frontier's, often a much faster one, and one that trains like eager."""

from __future__ import annotations

import copy
import dataclasses
import functools
import heapq
import warnings

import numpy as np
import pytest
import torch
from functorch.compile import aot_module, make_boxed_func
from hypothesis import given, settings
from hypothesis import strategies as st

import fusioncut
from fusioncut import budget
from fusioncut.budget_polish import _Search, _starts, peak_instant
from fusioncut.device import PRESETS
from fusioncut.models import Llama, LlamaConfig, llama_inputs
from fusioncut.options import Options
from fusioncut.peak import PhaseEvents
from fusioncut.report import capture
from models import small_gpt

pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning")

DEVICE_PUT = torch.ops.prims.device_put.default
# The h100 preset with a link that hides every transfer it can (torch's synchronous emission,
# which the CPU runs, hides none of them either way).
LINK = dataclasses.replace(PRESETS["h100"], name="h100-hidden", offload_hidden=1.0)


@functools.lru_cache(maxsize=None)
def _llama():
    """A 2-layer zoo Llama at 1,024 tokens (d 64): long enough that its peak sits in the
    backward with the attention's saved values held through it."""
    cfg = LlamaConfig(n_layer=2, d_model=64, n_head=2, block_size=1024, vocab=64)
    torch.manual_seed(0)
    module = Llama(cfg)
    inputs = llama_inputs(cfg, batch=1)
    return module, inputs, capture(copy.deepcopy(module), *inputs, via="aot")


def _frontier_pick(front, limit, margin=0.0):
    """The frontier's own answer to a peak target, without the search."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(budget, "polish", lambda *args: None)
        return front.for_peak(limit, margin)[0]


def test_peak_instant_is_where_live_storages_and_workspaces_sum_highest():
    e = np.zeros(0, dtype=np.int64)
    events = PhaseEvents(time=e, alloc_node=np.array([0, 1, 2]), alloc_t=np.array([0, 1, 4]),
                         alloc_s=np.array([10, 20, 5]), in_place=np.zeros(3, dtype=bool),
                         free_node=np.array([0, 1]), free_t=np.array([2, 3]),
                         free_s=np.array([10, 20]), work_node=np.array([2]),
                         work_t=np.array([3]), work_s=np.array([15]))
    # live: t0 10, t1 30, t2 30 then 20, t3 20 + 15 of workspace, t4 5
    assert peak_instant(events) == 3
    empty = PhaseEvents(*([e] * 4), np.zeros(0, dtype=bool), *([e] * 6))
    assert peak_instant(empty) == -1


def test_a_peak_target_is_never_slower_and_often_much_faster_when_the_peak_is_offloaded():
    *_, cap = _llama()
    front = fusioncut.pareto(cap.joint_module, num_fwd_outputs=cap.num_fwd_outputs,
                             static_lifetime_input_indices=cap.static_lifetime_input_indices,
                             options=Options(device=LINK, offload="auto"))
    arcs = front.generator.bnet.offload
    allowed = set(arcs.nodes.tolist())
    evaluate = front.generator.evaluate
    lo, hi = front.least.peak.peak, front.runtime.peak.peak
    faster = 0
    for limit in np.linspace(lo, hi, 24).astype(int).tolist():
        plain = _frontier_pick(front, limit)
        got, over = front.for_peak(limit, 0.0)
        assert over == max(0, got.peak.peak - limit)
        if plain.peak.peak <= limit:  # the frontier fits: the polish may only be faster
            assert got.peak.peak <= limit
            assert got.step_seconds(LINK) <= plain.step_seconds(LINK) + 1e-12
            faster += got.step_seconds(LINK) < 0.5 * plain.step_seconds(LINK)
        assert set(got.offloaded.tolist()) <= allowed
        assert set(got.offloaded.tolist()) <= set(got.saved.tolist())
        again = evaluate.point(got.saved, None, got.offloaded)  # the same model scores it
        assert again.peak == got.peak and again.seconds == got.seconds
        assert front.for_peak(limit, 0.0)[0].key == got.key  # the same answer each time
    assert faster >= 1


def test_a_polished_plan_trains_like_eager_and_moves_exactly_its_offloaded_values():
    module, inputs, cap = _llama()
    front = fusioncut.pareto(cap.joint_module, num_fwd_outputs=cap.num_fwd_outputs,
                             static_lifetime_input_indices=cap.static_lifetime_input_indices,
                             options=Options(device=LINK, offload="auto"))
    limit = None
    for n in np.linspace(front.least.peak.peak, front.runtime.peak.peak, 24).astype(int):
        got, _ = front.for_peak(int(n), 0.0)
        if got.lam is None and len(got.offloaded) and all(
                got.key != p.key for p in front.points):
            limit = int(n)  # a plan only the polish found
            break
    assert limit is not None
    options = Options(device=LINK, offload="auto", peak_memory_bytes=limit, peak_margin=0.0)
    seen: dict = {}

    def part(joint, joint_inputs, **kwargs):
        seen["d"] = fusioncut.decide(joint, num_fwd_outputs=kwargs["num_fwd_outputs"],
                                     static_lifetime_input_indices=kwargs.get(
                                         "static_lifetime_input_indices"), options=options)
        fw, bw = fusioncut.partition(joint, joint_inputs, options=options, **kwargs)
        seen["fw"] = fw
        return fw, bw

    def compiler(gm, _):
        return make_boxed_func(gm)

    eager = copy.deepcopy(module)
    eager(*inputs).backward()
    trained = copy.deepcopy(module)
    with warnings.catch_warnings():
        warnings.simplefilter("error", fusioncut.FallbackWarning)
        warnings.simplefilter("error", budget.BudgetWarning)
        aot_module(trained, compiler, compiler, partition_fn=part)(*inputs).backward()
    for (name, p), q in zip(trained.named_parameters(), eager.parameters()):
        torch.testing.assert_close(p.grad, q.grad, rtol=1e-4, atol=1e-5, msg=name)
    d = seen["d"]
    assert d.budget.point.peak.peak <= limit and d.budget.point.lam is None
    moved = {n.args[0].name for n in seen["fw"].graph.find_nodes(op="call_function",
                                                                  target=DEVICE_PUT)}
    assert moved == {n.name for n in d.offloaded_nodes}
    # explain says which values the search sent on top of the cut's plan, and why
    at_peak = {d.graph.nodes[i].name for i in d.budget.point.peak_offloaded.tolist()}
    assert at_peak and at_peak <= moved
    report = fusioncut.explain(copy.deepcopy(module), *inputs, options=options)
    why = {v.name: v.why for v in report.values if v.fate == "offloaded"}
    assert set(why) == moved
    assert all(("through the estimated peak" in why[name]) == (name in at_peak) for name in why)


def test_a_target_below_every_plan_gets_the_lowest_peak_the_search_reaches_and_a_warning():
    *_, cap = _llama()
    options = dict(device=LINK, offload="auto")
    front = fusioncut.pareto(cap.joint_module, num_fwd_outputs=cap.num_fwd_outputs,
                             static_lifetime_input_indices=cap.static_lifetime_input_indices,
                             options=Options(**options))
    got, over = front.for_peak(1, 0.0)
    assert got.peak.peak <= front.least.peak.peak and over == got.peak.peak - 1
    if got.key != front.least.key:  # the search went below the frontier's least plan
        assert len(got.peak_offloaded) and got.peak.peak < front.least.peak.peak
    with pytest.warns(budget.BudgetWarning, match="below the least any plan reaches"):
        d = fusioncut.decide(cap.joint_module, num_fwd_outputs=cap.num_fwd_outputs,
                             static_lifetime_input_indices=cap.static_lifetime_input_indices,
                             options=Options(peak_memory_bytes=1, peak_margin=0.0, **options))
    assert d.budget.point.key == got.key and d.budget.gap == got.peak.peak - 1


@functools.lru_cache(maxsize=None)
def _small_front(hidden: float, bandwidth_share: float):
    cap = small_gpt(2)
    device = dataclasses.replace(PRESETS["h100"], name="link", offload_hidden=hidden,
                                 host_bandwidth=PRESETS["h100"].bandwidth * bandwidth_share)
    return device, fusioncut.pareto(cap.joint_module, num_fwd_outputs=cap.num_fwd_outputs,
                                    static_lifetime_input_indices=(
                                        cap.static_lifetime_input_indices),
                                    options=Options(device=device, offload="auto"))


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([0.5, 0.9, 1.0]), st.sampled_from([0.02, 0.2, 1.0]),
       st.floats(0.3, 1.05), st.sampled_from([0.0, 0.2]))
def test_any_peak_target_gets_a_valid_plan_no_slower_than_the_frontiers(hidden, share, where,
                                                                         margin):
    device, front = _small_front(hidden, share)
    lo, hi = front.least.peak.peak, front.runtime.peak.peak
    limit = max(1, int(lo + where * (hi - lo)) if where >= 0.5 else int(lo * where * 2))
    got, over = front.for_peak(limit, margin)
    assert over == max(0, budget.raised(got.peak.peak, margin) - limit)
    pick = _frontier_pick(front, limit, margin)
    if budget.raised(pick.peak.peak, margin) <= limit:  # ours fits too and is never slower
        assert over == 0 and got.step_seconds(device) <= pick.step_seconds(device) + 1e-12
    else:  # below every point: no higher than the least plan
        assert got.peak.peak <= pick.peak.peak
    arcs = front.generator.bnet.offload
    assert set(got.offloaded.tolist()) <= set(arcs.nodes.tolist()) & set(got.saved.tolist())
    assert set(got.peak_offloaded.tolist()) <= set(got.offloaded.tolist())
    again = front.generator.evaluate.point(got.saved, None, got.offloaded)
    assert again.peak == got.peak


@pytest.mark.parametrize("where", [0.2, 0.5, 0.8])
def test_gaps_walked_point_by_point_give_the_starts_of_whole_walks(where):
    """``_starts`` walks a gap one point at a time: every start comes in the order that
    walking each gap whole, when its box first comes first, gives (bound, bytes saved, group,
    rank), gap before point at equal keys."""
    _, front = _small_front(0.9, 0.2)
    lo, hi = front.least.peak.peak, front.runtime.peak.peak
    limit = int(lo + where * (hi - lo))

    def fits(p):
        return p.peak.peak <= limit

    search = _Search(front, fits, limit)

    def box(a, b):
        return a.seconds + search.extra(b.peak.peak - search.fits_below)

    got = [p.key for p in _starts(front, fits, box, lambda: np.inf, search.bound, search.floor)]
    anchors = front.anchors  # the whole-walk order, built here
    k_fit = next((k for k, a in enumerate(anchors) if fits(a)), len(anchors))
    gaps = [(k_fit, True)] if 0 < k_fit < len(anchors) else []
    gaps += [(k, False) for k in range(min(k_fit, len(anchors) - 1), 0, -1)][:3]
    gaps = gaps[:1] + [g for g in gaps[1:] if g[0] != k_fit]  # the fit's gap once
    heap = [(search.bound(a), a.saved_bytes, 0, r, a) for r, a in enumerate(anchors[:k_fit])]
    heap += [(box(anchors[k - 1], anchors[k]), -1, g) for g, (k, _) in enumerate(gaps)]
    heapq.heapify(heap)
    want = []
    while heap:
        entry = heapq.heappop(heap)
        if entry[1] >= 0:
            want.append(entry[4].key)
            continue
        k, until_fit = gaps[entry[2]]
        for r, q in enumerate(front.walk_gap(k)):
            if until_fit and fits(q):
                break
            heapq.heappush(heap, (search.bound(q), q.saved_bytes, entry[2] + 1, r, q))
    assert got == want and len(got) >= 2


def test_a_plans_floor_bounds_its_start_bound_from_its_preview():
    """``_Search.floor`` reads a plan's preview (no peak) and never exceeds ``bound`` of the
    plan scored: every plan a gap's walk may yield peaks at least at the bytes it keeps on the
    device and at its lower anchor's peak, so the starts' order stands with the rest of a gap
    bounded by its previews."""
    _, front = _small_front(0.9, 0.2)
    lo, hi = front.least.peak.peak, front.runtime.peak.peak
    search = _Search(front, lambda p: False, int(lo + 0.3 * (hi - lo)))
    anchors, checked = front.anchors, 0
    for k in range(1, len(anchors)):
        previews = {p.key: p for p in front.gap_previews(k)}
        for q in front.walk_gap(k):
            assert q.peak.peak >= q.saved_bytes
            assert search.floor(previews[q.key], anchors[k]) <= search.bound(q) + 1e-15
            checked += 1
    assert checked >= 1
    assert all(p.peak.peak >= p.saved_bytes for p in front.plans)


def test_gaps_walk_alike_for_any_integer_index():
    _, front = _small_front(0.9, 0.2)
    assert len(front.anchors) > 2
    for k in range(1, len(front.anchors)):
        walked = [p.key for p in front.walk_gap(k)]
        assert [p.key for p in front.walk_gap(np.int64(k))] == walked
        assert {p.key for p in front.gap_previews(np.int32(k))} >= set(walked)
