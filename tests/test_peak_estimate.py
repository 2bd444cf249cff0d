"""The peak estimate's model of Inductor (peak.py, peak_extern.py) and how the memory targets
use it (budget.py): workspaces, layout copies and merged matmuls found from the joint graph;
in-place hand-over in the walk; points whose estimated peak falls at every step; peak targets
with their margin, their warnings and ties; invariants under every target."""

import copy
import functools
import warnings

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from functorch.compile import aot_function, make_boxed_func
from torch._subclasses.fake_tensor import FakeTensorMode
from torch.utils import checkpoint

import fusioncut
from fusioncut.budget import (GPU_PEAK_MARGIN, LOW_PRECISION_PEAK_MARGIN, PEAK_MARGIN,
                              BudgetWarning, peak_margin_for, raised)
from fusioncut.graph import JointGraph, Role
from fusioncut.models import ConvBN, Llama, LlamaConfig, llama_inputs
from fusioncut.network import BACKWARD_ROLES
from fusioncut.ops import OpKind
from fusioncut.options import Options
from fusioncut.peak import estimate_peak, phase_events, phases
from fusioncut.peak_extern import extern_memory
from fusioncut.report import capture
from models import boxed, decide_captured, small_gpt


def _compiler(gm, _inputs):
    return make_boxed_func(gm)


def _graph(module, *inputs):
    cap = capture(module, *inputs, via="aot")
    d = fusioncut.decide(cap.joint_module, num_fwd_outputs=cap.num_fwd_outputs,
                         static_lifetime_input_indices=cap.static_lifetime_input_indices)
    return cap, d


def _decide(cap, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BudgetWarning)
        return decide_captured(cap, **options)


# --- what Inductor holds beyond the graph's values -------------------------------------------


def test_extern_memory_sizes_the_cpu_flash_attention_workspaces():
    cfg = LlamaConfig(n_layer=1, d_model=32, n_head=4, block_size=16, vocab=64)
    torch.manual_seed(0)
    _, d = _graph(Llama(cfg), *llama_inputs(cfg, batch=2))
    g = d.graph
    ext = extern_memory(g)
    names = [g.op_name(i) for i in range(g.num_nodes)]
    fw = names.index("aten._scaled_dot_product_flash_attention_for_cpu")
    bw = names.index("aten._scaled_dot_product_flash_attention_for_cpu_backward")
    threads, q, keys, head = torch.get_num_threads(), 16, 16, 8  # sequence 16 < 32: one block
    assert ext.workspace[fw] == threads * (q * keys + 2 * q + q * head) * 4
    assert ext.workspace[bw] == threads * (2 * q * keys + q) * 4


@pytest.mark.parametrize("op, expected", [
    # 2 x 4 heads x 16 queries, head size 8: rows padded to 64 (128), head size to 64 (32)
    ("_scaled_dot_product_efficient_attention_backward", 2 * 4 * 64 * (4 * 64 + 4.25)),
    ("_scaled_dot_product_flash_attention_backward",
     2 * 4 * 128 * (4 * 32 + 4) + 2 * (2 * 4 * 16 * 8 * 4)),
])
def test_extern_memory_sizes_the_cuda_attention_backward_workspaces(op, expected):
    # The CUDA kernels' table (measured on an H100) read from the query's shape: the CPU
    # graph's attention backward renamed to the CUDA op, whose arguments start the same way.
    cfg = LlamaConfig(n_layer=1, d_model=32, n_head=4, block_size=16, vocab=64)
    torch.manual_seed(0)
    cap = capture(Llama(cfg), *llama_inputs(cfg, batch=2), via="aot")
    joint = cap.joint_module
    cpu = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu_backward.default
    node = next(n for n in joint.graph.nodes if n.target is cpu)
    node.target = getattr(torch.ops.aten, op).default
    g = JointGraph.from_fx(joint, cap.num_fwd_outputs)
    assert extern_memory(g).workspace[g.index[node]] == int(expected)


def _efficient_attention_joint(bias_of):
    """The joint graph of one efficient attention (the CUDA kernel; traced on ``meta``, whose
    kernels it has) with the bias ``bias_of(mask, additive)`` of a boolean and a float
    (B, 1, T, T) mask, both graph inputs."""
    b, h, t, d = 2, 4, 64, 16
    joints = []

    def record(gm, joint_inputs, **kwargs):
        joints.append(JointGraph.from_fx(copy.deepcopy(gm), kwargs["num_fwd_outputs"]))
        return fusioncut.partition(gm, joint_inputs, **kwargs)

    def fn(x, w, mask, additive):
        q = (x @ w).view(b, t, h, d).transpose(1, 2)
        out = torch.ops.aten._scaled_dot_product_efficient_attention(
            q, q, q, bias_of(mask, additive).expand(b, h, t, t), True)[0]
        return out.sin().sum()

    x = torch.randn(b, t, h * d, device="meta", requires_grad=True)
    w = torch.randn(h * d, h * d, device="meta", requires_grad=True)
    mask = torch.ones(b, 1, t, t, dtype=torch.bool, device="meta")
    additive = torch.zeros(b, 1, t, t, device="meta")
    aot_function(fn, boxed, boxed, partition_fn=record)(x, w, mask, additive).backward()
    g, = joints
    i = next(k for k in range(g.num_nodes)
             if g.op_name(k) == "aten._scaled_dot_product_efficient_attention_backward")
    return g, i, (b, h, t)


@pytest.mark.parametrize("bias_of, copied", [
    # a pointwise value broadcast over the heads: realized densely, at (B, H, T, T)
    (lambda mask, additive: torch.where(mask, 0.0, float("-inf")), True),
    # a graph input: a realized buffer, passed with its stride of 0
    (lambda mask, additive: additive, False),
    # a pointwise value already at the full shape: no copy beyond the value
    (lambda mask, additive: torch.where(mask, 0.0, float("-inf")).expand(2, 4, 64, 64) * 1.0,
     False),
], ids=["broadcast where", "broadcast input", "dense where"])
def test_efficient_attention_backward_counts_the_dense_copy_of_a_broadcast_bias(bias_of, copied):
    g, i, (b, h, t) = _efficient_attention_joint(bias_of)
    kernel = int(b * h * 64 * (4 * 64 + 4.25))  # the kernel's own (the test above)
    extra = (b * h * t * t - b * t * t) * 4 if copied else 0
    assert extern_memory(g).workspace[i] == kernel + extra


def test_extern_memory_copies_convolution_inputs_to_channels_last():
    torch.manual_seed(0)
    _, d = _graph(ConvBN(4), torch.randn(2, 3, 8, 8))
    g = d.graph
    ext = extern_memory(g)
    copied = {g.nodes[i].name: int(ext.layout_copy[i]) for i in np.flatnonzero(ext.layout_copy)}
    # the two 3x3 weights and the image fed to the first convolution
    assert sorted(copied.values()) == sorted([4 * 3 * 9 * 4, 4 * 4 * 9 * 4, 2 * 3 * 8 * 8 * 4])
    convs = [i for i in range(g.num_nodes) if g.op_name(i) == "aten.convolution"]
    assert all(ext.workspace[i] > 0 for i in convs)  # oneDNN reorders the weight


def test_extern_memory_merges_a_tied_weights_matmul_into_its_add():
    cap = small_gpt(layers=1, style="tests")  # head x @ wte.weight.t(): the embedding is tied
    g = _decide(cap).graph
    ext = extern_memory(g)
    merged = np.flatnonzero(ext.addmm >= 0)
    assert len(merged) >= 1
    for i in merged:
        assert g.op_name(i) == "aten.mm" and g.op_name(int(ext.addmm[i])) == "aten.add"


def test_outputs_of_one_kernel_exist_while_it_runs():
    # SDPA's backward allocates its three gradients before its workspace: the walk allocates
    # each getitem's storage at the op's time, and the op's workspace counts on top of them.
    cfg = LlamaConfig(n_layer=1, d_model=32, n_head=4, block_size=16, vocab=64)
    torch.manual_seed(0)
    cap = capture(Llama(cfg), *llama_inputs(cfg, batch=2), via="aot")
    d = _decide(cap)
    g = d.graph
    _, backward, _ = phase_events(g, d.saved)
    sdpa = [i for i in range(g.num_nodes) if backward.time[i] >= 0 and g.op_name(i)
            == "aten._scaled_dot_product_flash_attention_for_cpu_backward"]
    assert sdpa
    at = dict(zip(backward.alloc_node.tolist(), backward.alloc_t.tolist()))
    for op in sdpa:
        grads = [u for u in g.users(op).tolist() if u in at]
        assert len(grads) == 3
        assert all(at[u] == backward.time[op] < backward.time[u] for u in grads)


def test_estimate_does_not_depend_on_shape_reads():
    """aten.sym_size reads a tensor's sizes: it neither keeps the tensor alive nor orders its
    recomputation (a dynamic graph and its static twin estimate the same)."""
    cap = small_gpt()
    d = _decide(cap, memory_budget=0.0)
    est = estimate_peak(d.graph, d.saved)
    assert est.peak == d.budget.point.peak.peak > 0


def _phases_by_definition(graph, saved):
    """phases() written out in Python over the user lists: what the C++ sweep must equal."""
    n, role = graph.num_nodes, graph.role
    is_saved = np.zeros(n, dtype=bool)
    is_saved[saved] = True
    is_input = role <= Role.CONSTANT
    tangent = np.isin(role, BACKWARD_ROLES) & ~is_input
    metadata = graph.kind == OpKind.SYMBOLIC
    users = graph.user_lists()
    fw, bw, trigger = list(role == Role.FORWARD), [False] * n, list(range(n))
    for i in range(n - 1, -1, -1):
        if is_input[i]:
            continue
        if tangent[i]:
            bw[i] = True
            continue
        first = min((trigger[u] for u in users[i] if bw[u]), default=n)
        first_value = min((trigger[u] for u in users[i] if bw[u] and not metadata[u]),
                          default=n)
        if first < n and not is_saved[i]:
            bw[i], trigger[i] = True, first_value if first_value < n else first
        elif graph.bwd_output[i] and not is_saved[i] and role[i] != Role.FORWARD:
            bw[i] = True
        if is_saved[i] or any(fw[u] for u in users[i]) or (
                (graph.bwd_output[i] or graph.fwd_output[i]) and not bw[i]):
            fw[i] = True
    return np.array(fw), np.array(bw), np.array(trigger)


def test_phases_equal_their_definition_on_random_saved_sets():
    cap = small_gpt()
    graph = _decide(cap).graph
    rng = np.random.default_rng(0)
    for density in (0.0, 0.05, 0.3, 1.0):
        saved = np.flatnonzero(rng.random(graph.num_nodes) < density)
        got, want = phases(graph, saved), _phases_by_definition(graph, saved)
        for a, b in zip(got, want):
            np.testing.assert_array_equal(a, b)


def _i64(*values):
    return np.array(values, dtype=np.int64)


@pytest.mark.parametrize("args, error, match", [
    ((_i64(0, 1, 1), _i64(0)), ValueError, "topological order"),  # a self loop
    ((_i64(0, 1, 1), _i64(-5)), ValueError, "topological order"),
    ((_i64(0, 2, 1), _i64(1)), ValueError, "user_ptr"),  # runs past its users, then back
    ((_i64(-1, 0, 0), _i64()), ValueError, "user_ptr must run from 0"),
    ((_i64(0, 0), _i64()), ValueError, "want n \\+ 1"),
    ((np.zeros(6, dtype=np.int64)[::2], _i64()), TypeError, "incompatible"),  # strided
    ((_i64(0, 0, 0), np.zeros(0, dtype=np.int32)), TypeError, "incompatible"),
])
def test_phase_split_refuses_malformed_users(args, error, match):
    bits, saved = np.zeros(2, dtype=np.uint8), np.zeros(2, dtype=bool)
    with pytest.raises(error, match=match):
        fusioncut._core.phase_split(*args, bits, saved)


def test_phase_split_refuses_malformed_masks():
    ptr, dst = _i64(0, 0, 0), _i64()
    with pytest.raises(TypeError, match="one-dimensional"):
        fusioncut._core.phase_split(ptr, dst, np.zeros((2, 1), dtype=np.uint8),
                                    np.zeros(2, dtype=bool))
    with pytest.raises(TypeError, match="incompatible"):
        fusioncut._core.phase_split(ptr, dst, np.zeros(2, dtype=np.uint8), np.zeros(2))
    fw, bw, trigger = fusioncut._core.phase_split(_i64(0), _i64(), np.zeros(0, dtype=np.uint8),
                                                  np.zeros(0, dtype=bool))
    assert len(fw) == len(bw) == len(trigger) == 0


def _raised_by_definition(frm, to, value):
    value = value.copy()
    while True:
        new = value.copy()
        np.maximum.at(new, to, value[frm])
        if np.array_equal(new, value):
            return value
        value = new


def test_raise_along_reaches_the_fixpoint_on_any_graph():
    rng = np.random.default_rng(0)
    for n, m in ((1, 0), (5, 3), (40, 120), (300, 900)):  # cycles and self loops included
        frm, to = rng.integers(0, n, m), rng.integers(0, n, m)
        value = rng.integers(-3, 50, n)
        got = fusioncut._core.raise_along(frm, to, value)
        np.testing.assert_array_equal(got, _raised_by_definition(frm, to, value))
        assert got is not value
    # Edges that mostly rise, then mostly fall (the worklist starts from the other end).
    for sign in (1, -1):
        a, b = rng.integers(0, 300, 900), rng.integers(0, 300, 900)
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        frm, to = (lo, hi) if sign > 0 else (hi, lo)
        frm, to = np.concatenate([frm, [5, 7]]), np.concatenate([to, [7, 5]])  # and a cycle
        value = rng.integers(-3, 50, 300)
        np.testing.assert_array_equal(fusioncut._core.raise_along(frm, to, value),
                                      _raised_by_definition(frm, to, value))


@pytest.mark.parametrize("args, error, match", [
    ((_i64(0), _i64(0, 1), _i64(0, 0)), ValueError, "equal lengths"),
    ((_i64(2), _i64(0), _i64(0, 0)), ValueError, "outside \\[0, 2\\)"),
    ((_i64(0), _i64(-1), _i64(0, 0)), ValueError, "outside"),
    ((np.zeros(1, dtype=np.int32), _i64(0), _i64(0)), TypeError, "incompatible"),
    ((_i64(0), _i64(0), np.zeros(1)), TypeError, "incompatible"),
    ((np.zeros((1, 1), dtype=np.int64), _i64(0), _i64(0)), TypeError, "one-dimensional"),
])
def test_raise_along_refuses_malformed_edges(args, error, match):
    with pytest.raises(error, match=match):
        fusioncut._core.raise_along(*args)


# --- the targets ----------------------------------------------------------------------------


def test_points_lower_the_estimated_peak_at_every_step():
    front = _decide(small_gpt(), memory_budget=0.0).budget.frontier
    points = front.points
    assert len(points) >= 2
    for a, b in zip(points, points[1:]):
        assert b.peak.peak < a.peak.peak
        assert b.saved_bytes < a.saved_bytes


def test_peak_target_keeps_the_margin():
    cap = small_gpt()
    front = _decide(cap, memory_budget=0.0).budget.frontier
    for p in front.points:
        n = raised(p.peak.peak, 0.25)
        d = _decide(cap, peak_memory_bytes=n, peak_margin=0.25)
        assert raised(d.budget.point.peak.peak, 0.25) <= n
        assert d.budget.expected_peak == (d.budget.point.peak.peak, raised(
            d.budget.point.peak.peak, 0.25))
        loose = _decide(cap, peak_memory_bytes=n, peak_margin=0.0)
        assert loose.budget.point.recompute_seconds <= d.budget.point.recompute_seconds


def test_peak_target_met_only_within_the_margin_warns():
    cap = small_gpt()
    least = _decide(cap, memory_budget=0.0).budget.frontier.least.peak.peak
    with pytest.warns(BudgetWarning, match=r"met only within the estimate's margin"):
        d = fusioncut.decide(cap.joint_module, num_fwd_outputs=cap.num_fwd_outputs,
                             static_lifetime_input_indices=cap.static_lifetime_input_indices,
                             options=Options(peak_memory_bytes=least, peak_margin=0.5))
    assert d.budget.within_margin and d.budget.gap == 0


def test_peak_target_takes_the_plan_saving_least_among_equal_estimates():
    cap = small_gpt()
    d = _decide(cap, peak_memory_bytes=10 ** 12)
    front = d.budget.frontier
    point = front._first(lambda p: True)
    tie = front._ties.get(id(point))
    chosen = d.budget.point
    assert chosen.peak.peak == point.peak.peak
    assert chosen.saved_bytes == (tie.saved_bytes if tie is not None else point.saved_bytes)


def test_byte_target_takes_the_best_plan_in_reach():
    cap = small_gpt()
    front = _decide(cap, memory_budget=0.0).budget.frontier
    limit = (front.least.saved_bytes + front.runtime.saved_bytes) // 2
    d = _decide(cap, memory_budget_bytes=limit)
    best = front.best_within(limit)
    assert d.budget.point.saved_bytes <= limit
    assert d.budget.point.recompute_seconds == pytest.approx(best.recompute_seconds)


def test_default_peak_margin_is_the_devices_measured_excess():
    # None resolves per graph: the CPU's measured excess on a CPU graph, the GPU's on a graph
    # with a tensor on a GPU (a CPU capture whose first value becomes a fake CUDA tensor, as
    # far as the margin looks).
    assert Options().peak_margin is None
    cap = capture(ConvBN(4), torch.randn(2, 3, 8, 8), via="aot")
    d = _decide(cap, peak_memory_bytes=10 ** 9)
    assert d.budget.margin == PEAK_MARGIN
    assert peak_margin_for(d.graph) == PEAK_MARGIN
    assert _decide(cap, peak_memory_bytes=10 ** 9, peak_margin=0.1).budget.margin == 0.1
    first = next(n for n in cap.joint_module.graph.nodes
                 if isinstance(n.meta.get("val"), torch.Tensor))
    val = first.meta["val"]
    with FakeTensorMode():
        first.meta["val"] = torch.empty_strided(val.shape, val.stride(), dtype=val.dtype,
                                                device="cuda")
    gpu = _decide(cap, peak_memory_bytes=10 ** 9)
    assert peak_margin_for(gpu.graph) == GPU_PEAK_MARGIN > PEAK_MARGIN
    assert gpu.budget.margin == GPU_PEAK_MARGIN


class _Mixed(torch.nn.Module):
    """Two linear layers; ``dtype``: the forward under CPU autocast to it (None: float32)."""

    def __init__(self, dtype=None):
        super().__init__()
        self.dtype = dtype
        self.up, self.down = torch.nn.Linear(8, 16), torch.nn.Linear(16, 8)

    def forward(self, x):
        with torch.autocast("cpu", dtype=self.dtype or torch.bfloat16,
                            enabled=self.dtype is not None):
            return self.down(torch.relu(self.up(x))).float().sum()


@pytest.mark.parametrize("dtype, margin", [(None, PEAK_MARGIN),
                                           (torch.bfloat16, LOW_PRECISION_PEAK_MARGIN),
                                           (torch.float16, LOW_PRECISION_PEAK_MARGIN)])
def test_default_peak_margin_of_a_cpu_graph_in_half_precision(dtype, margin):
    # A CPU graph that computes in a 16-bit float gets the margin measured on mixed-precision
    # steps (oneDNN's bfloat16 matmuls allocate scratchpads the estimate does not count); an
    # int16 tensor is not half precision.
    torch.manual_seed(0)
    cap = capture(_Mixed(dtype), torch.randn(4, 8), via="aot")
    d = _decide(cap, peak_memory_bytes=10 ** 9)
    assert peak_margin_for(d.graph) == margin == d.budget.margin
    assert LOW_PRECISION_PEAK_MARGIN > PEAK_MARGIN
    ints = capture(lambda x: (x * x.to(torch.int16).to(torch.float32)).sum(),
                   torch.randn(4, 8, requires_grad=True), via="aot")
    assert peak_margin_for(_decide(ints, peak_memory_bytes=10 ** 9).graph) == PEAK_MARGIN


@pytest.mark.parametrize("value", [-0.1, 11, "0.2", True, float("nan")])
def test_bad_peak_margin_names_the_field(value):
    with pytest.raises(ValueError, match=r"peak_margin = .* is invalid; expected a number in"):
        Options(peak_margin=value)


# --- invariants under every target ----------------------------------------------------------

TARGETS = [{"memory_budget": 0.0}, {"memory_budget_bytes": 0}, {"peak_memory_bytes": 0},
           {"peak_memory_bytes": 10 ** 12, "peak_margin": 0.0}]


@pytest.mark.parametrize("target", TARGETS)
def test_random_ops_are_never_redrawn_under_any_target(target):
    def fn(x, w):
        h = torch.tanh(x @ w)
        return (F.dropout(h, 0.5, training=True) * h).sum()

    x, w = torch.randn(8, 16), torch.randn(16, 16, requires_grad=True)
    box = {}

    def part(joint, joint_inputs, **kwargs):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", BudgetWarning)
            fw, bw = fusioncut.partition(joint, joint_inputs, options=Options(**target),
                                         **kwargs)
        box["bw"] = bw
        return fw, bw

    aot_function(fn, _compiler, _compiler, partition_fn=part)(x, w).backward()
    assert [n for n in box["bw"].graph.nodes if n.op == "call_function"
            and torch.Tag.nondeterministic_seeded in getattr(n.target, "tags", ())] == []


@pytest.mark.parametrize("target", TARGETS)
def test_checkpoint_annotations_hold_under_any_target(target):
    def policy(ctx, op, *args, **kwargs):
        if op == torch.ops.aten.mm.default:
            return checkpoint.CheckpointPolicy.MUST_SAVE
        return checkpoint.CheckpointPolicy.PREFER_RECOMPUTE

    def fn(x, w):
        ctx = functools.partial(checkpoint.create_selective_checkpoint_contexts, policy)
        return checkpoint.checkpoint(lambda a, b: torch.sin(a @ b).cos() @ b, x, w,
                                     use_reentrant=False, context_fn=ctx).sum()

    x, w = torch.randn(8, 8, requires_grad=True), torch.randn(8, 8, requires_grad=True)
    box = {}

    def part(joint, joint_inputs, **kwargs):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", BudgetWarning)
            fw, bw = fusioncut.partition(copy.deepcopy(joint), joint_inputs,
                                         options=Options(**target), **kwargs)
        box["bw"] = bw
        return fw, bw

    aot_function(fn, _compiler, _compiler, partition_fn=part)(x, w).backward()
    # The two forward matmuls are MUST_SAVE: only the backward's own matmuls run there.
    assert len([n for n in box["bw"].graph.nodes if n.target == torch.ops.aten.mm.default]) == 4


def test_recomputed_nodes_are_never_random_under_a_peak_target():
    cap = small_gpt(style="record")  # dropout after attention and MLP
    d = _decide(cap, peak_memory_bytes=0)
    g = d.graph
    assert not np.any(g.kind[d.budget.point.recomputed] == OpKind.RANDOM)


def test_chosen_peak_is_monotone_in_the_budget_on_fresh_frontiers():
    """Each decision builds its own frontier and walks only the gap its target needs: the
    plans still agree on one order (no gap depends on another having been walked)."""
    for cap in (small_gpt(), small_gpt(style="tests")):
        peaks = []
        for b in range(21):
            d = _decide(cap, memory_budget=b / 20)
            peaks.append(estimate_peak(d.graph, d.saved).peak)  # budget 1: the runtime plan
        assert peaks == sorted(peaks), peaks
