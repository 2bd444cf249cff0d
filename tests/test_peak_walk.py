"""The peak estimate's walk in C++ (``_core.PeakGraph.walk``, behind ``peak.phase_events``)
returns, event for event, what its numpy reference (tests/_peak_reference.py, the walk as it
was before it moved) returns: on zoo graphs, for the frontier's plans and random saved sets,
with and without offloaded values, at other sizes, and on a graph that lives on a GPU; and it
refuses malformed arrays with errors that name them."""

import dataclasses

import numpy as np
import pytest
import torch
from torch._subclasses.fake_tensor import FakeTensorMode

import fusioncut
from fusioncut.graph import JointGraph, Role, Value
from fusioncut.models import GPT, ConvBN, Llama, LlamaConfig, gpt_config, gpt_inputs, llama_inputs
from fusioncut import peak
from fusioncut.peak import _walker, phase_events, phases
from fusioncut.peak_offload import OffloadedValues
from fusioncut.report import capture
from models import Autocast, pareto_captured, small_gpt

import _peak_reference as reference


def _llama():
    torch.manual_seed(0)
    cfg = LlamaConfig(vocab=64, d_model=32, n_layer=2, n_head=2, block_size=16,
                      tie_head=True)
    return capture(Llama(cfg), *llama_inputs(cfg, batch=2), via="aot")


def _conv():
    torch.manual_seed(0)
    return capture(ConvBN(4), torch.randn(2, 3, 8, 8), via="aot")


def _gpt_bf16():
    """The test GPT trained in mixed precision: bfloat16 matmuls and attention scores,
    float32 norms and softmax (undecomposed here; tests/test_budget_peak_measured.py walks
    Inductor's decomposed graph, where the softmax's exp is read by its sum and division)."""
    cfg = gpt_config("demo", n_layer=2, d_model=32, n_head=2, block_size=16, vocab=64)
    torch.manual_seed(0)
    return capture(Autocast(GPT(cfg)), *gpt_inputs(cfg, batch=2), via="aot")


CAPTURES = {"gpt": lambda: small_gpt(2), "llama": _llama, "conv": _conv, "gpt-bf16": _gpt_bf16}


def _same(got, want, what):
    for field in dataclasses.fields(want):
        np.testing.assert_array_equal(getattr(got, field.name), getattr(want, field.name),
                                      err_msg=f"{what}: {field.name}")


def _check(graph, saved, numel=None, offloaded=None, what=""):
    got = phase_events(graph, saved, numel, offloaded=offloaded)
    want = reference.phase_events(graph, saved, numel, offloaded=offloaded)
    _same(got[0], want[0], f"{what} forward")
    _same(got[1], want[1], f"{what} backward")
    assert got[2] == want[2], what


def _plans(cap, rng):
    """The frontier's plans and random saved sets of a few densities."""
    front = pareto_captured(cap, device="h100")
    graph = front.graph
    plans = [p.saved for p in front.plans]
    for density in (0.0, 0.05, 0.2, 0.6, 1.0):
        plans.append(np.flatnonzero(rng.random(graph.num_nodes) < density))
    return graph, plans


@pytest.mark.parametrize("name", sorted(CAPTURES))
def test_walk_equals_its_numpy_reference(name):
    rng = np.random.default_rng(1)
    graph, plans = _plans(CAPTURES[name](), rng)
    for k, saved in enumerate(plans):
        _check(graph, saved, what=f"{name} plan {k}")
    # At other sizes: every element count doubled.
    _check(graph, plans[0], numel=graph.numel * 2, what=f"{name} doubled")


def test_walks_sharing_a_split_equal_walks_on_a_fresh_graph():
    # The walk keeps the backward schedules of its last splits (ScheduleCache in
    # csrc/peak_walk.h): plans walked again, in another order, past its capacity and at
    # other sizes, give what a walker that has seen nothing gives.
    rng = np.random.default_rng(3)
    graph, plans = _plans(small_gpt(2), rng)
    plans = plans[:20]
    sizes = (None, graph.numel * 3)
    first = {(k, j): phase_events(graph, saved, numel)
             for k, saved in enumerate(plans) for j, numel in enumerate(sizes)}
    for (k, j) in sorted(first, key=lambda kj: (kj[1], -kj[0])):
        again = phase_events(graph, plans[k], sizes[j])
        graph.__dict__.pop("_peak_walker")  # a fresh walker, nothing kept
        fresh = phase_events(graph, plans[k], sizes[j])
        for got, want, other in zip(again[:2], fresh[:2], first[(k, j)][:2]):
            _same(got, want, f"plan {k} size {j}")
            _same(other, want, f"plan {k} size {j}, first walk")


def _offloaded(graph, saved, rng, **how):
    """Some saved tensors of their own storage, as a plan might offload them."""
    own = saved[(graph.value[saved] == Value.TENSOR) & (graph.base[saved] == saved)
                & (graph.role[saved] > Role.CONSTANT)]
    nodes = np.sort(rng.choice(own, size=min(len(own), 1 + len(own) // 3), replace=False))
    return OffloadedValues(nodes=nodes.astype(np.int64), **how)


@pytest.mark.parametrize("name", sorted(CAPTURES))
def test_walk_with_offloaded_values_equals_its_reference(name):
    rng = np.random.default_rng(2)
    graph, plans = _plans(CAPTURES[name](), rng)
    n = graph.num_nodes
    seconds = rng.random(n) * 1e-6
    for k, saved in enumerate(plans[:-5]):  # the frontier's (valid) plans
        if not len(saved):
            continue
        for how in ({}, {"hold_forward": True}):
            values = _offloaded(graph, saved, rng, **how)
            _check(graph, saved, offloaded=values, what=f"{name} plan {k} {how}")
            paced = dataclasses.replace(values, wait_before=rng.integers(
                0, n + 1, size=len(values.nodes)).astype(np.int64))
            _check(graph, saved, offloaded=paced, what=f"{name} plan {k} paced")
            prefetched = dataclasses.replace(values, node_seconds=seconds,
                                             lead_seconds=rng.random(len(values.nodes)) * 3e-6)
            _check(graph, saved, offloaded=prefetched, what=f"{name} plan {k} prefetched")


def test_walk_on_a_gpu_graph_equals_its_reference():
    # A graph that lives on a GPU leaves out the C++ backend's store-on-reuse rule.
    cap = small_gpt(1)
    gm = cap.joint_module
    first = next(n for n in gm.graph.nodes if isinstance(n.meta.get("val"), torch.Tensor))
    val = first.meta["val"]
    try:
        with FakeTensorMode():
            first.meta["val"] = torch.empty_strided(val.shape, val.stride(), dtype=val.dtype,
                                                    device="cuda")
        graph = JointGraph.from_fx(gm, cap.num_fwd_outputs)
        assert graph.on_accelerator()
        front = fusioncut.pareto(gm, num_fwd_outputs=cap.num_fwd_outputs)
        for k, p in enumerate(front.plans):
            _check(front.graph, p.saved, what=f"gpu plan {k}")
    finally:
        first.meta["val"] = val


def _walk_args(graph):
    saved = np.zeros(graph.num_nodes, dtype=bool)
    fw, bw, trigger = phases(graph, np.zeros(0, dtype=np.int64))
    empty = np.zeros(0, dtype=np.int64)
    return [fw, bw, trigger, saved, saved.copy(), False, False, empty, empty,
            graph.numel * graph.itemsize]


@pytest.mark.parametrize("position, value, match", [
    (2, "short", "trigger has"),
    (2, "outside", r"trigger\[0\] = .* is outside"),
    (0, "short", "fw must be a bool array of"),
    (9, "negative", r"size\[0\] = -1 is outside"),
    (7, "stray", "wait_node.*waits"),
])
def test_walk_refuses_malformed_arrays(position, value, match):
    graph = small_gpt(1).joint_module
    g = JointGraph.from_fx(graph, small_gpt(1).num_fwd_outputs)
    args = _walk_args(g)
    a = args[position]
    if value == "short":
        args[position] = a[:-1].copy()
    elif value == "outside":
        args[position] = np.full_like(a, g.num_nodes)
    elif value == "negative":
        args[position] = np.full_like(a, -1)
    else:
        args[position] = np.array([0], dtype=np.int64)
    with pytest.raises(ValueError, match=match):
        _walker(g).walk(*args)


def test_peak_graph_refuses_users_out_of_order():
    g = JointGraph.from_fx(small_gpt(1).joint_module, small_gpt(1).num_fwd_outputs)
    walker = _walker(g)
    assert walker.num_nodes == g.num_nodes
    n = 3
    ptr, dst = np.array([0, 1, 1, 1], dtype=np.int64), np.array([0], dtype=np.int64)
    masks = {k: np.zeros(1, dtype=bool) for k in ("reads", "reduced", "same", "blocking")}
    nodes = {k: np.zeros(n, dtype=bool) for k in (
        "tensor", "fusible", "merged", "computing", "heavy", "reduction", "backward_role",
        "input", "fwd_output", "bwd_output")}
    ints = dict(base=np.arange(n, dtype=np.int64), output_of=np.full(n, -1, dtype=np.int64),
                layout_copy=np.zeros(n, dtype=np.int64), workspace=np.zeros(n, dtype=np.int64))
    with pytest.raises(ValueError, match="topological order"):
        fusioncut._core.PeakGraph(ptr, dst, **masks, **ints, **nodes, cpu_rules=True,
                                  max_store_passes=8, max_fused_outputs=4,
                                  horizontal_distance=64)
    ints["base"] = np.array([0, 5, 2], dtype=np.int64)
    with pytest.raises(ValueError, match=r"base\[1\] = 5 is outside"):
        fusioncut._core.PeakGraph(np.zeros(n + 1, dtype=np.int64), np.zeros(0, dtype=np.int64),
                                  **{k: np.zeros(0, dtype=bool) for k in masks}, **ints,
                                  **nodes, cpu_rules=True, max_store_passes=8,
                                  max_fused_outputs=4, horizontal_distance=64)
    ints["base"] = np.arange(n, dtype=np.int64)
    with pytest.raises(ValueError, match="horizontal_distance must be >= 0"):
        fusioncut._core.PeakGraph(np.zeros(n + 1, dtype=np.int64), np.zeros(0, dtype=np.int64),
                                  **{k: np.zeros(0, dtype=bool) for k in masks}, **ints,
                                  **nodes, cpu_rules=True, max_store_passes=8,
                                  max_fused_outputs=4, horizontal_distance=-1)


def test_walk_without_horizontal_fusion_equals_its_reference(monkeypatch):
    # The small GPT's plans fuse recomputed layer norms that read one storage (peak.py's
    # horizontal rule); with the rule off (distance 0) the walks agree too, and differ from
    # the walks with it on some plans.
    rng = np.random.default_rng(1)
    graph, plans = _plans(CAPTURES["gpt"](), rng)
    fused = [phase_events(graph, saved)[1].time for saved in plans]
    monkeypatch.setattr(peak, "_HORIZONTAL_DISTANCE", 0)
    monkeypatch.setattr(reference, "_HORIZONTAL_DISTANCE", 0)
    graph.__dict__.pop("_peak_walker")
    for k, saved in enumerate(plans):
        _check(graph, saved, what=f"gpt plan {k}, no horizontal fusion")
    apart = [phase_events(graph, saved)[1].time for saved in plans]
    assert any(not np.array_equal(a, b) for a, b in zip(fused, apart))
