"""Higher-order ops partitioned natively (no fallback) through AOTAutograd.

Every model runs its forward and backward on CPU with ``fusioncut.partition`` as the
partition_fn (``aot_function`` or ``torch.compile`` with the ``aot_autograd`` backend and
no-op compilers) and its gradients are compared with eager; a ``FallbackWarning`` is an error.
The decision on each recorded joint graph is then checked: HOPs banned with their own reason,
their getitems saved, effect tokens never saved, annotations honoured.
"""

from __future__ import annotations

import copy
import warnings

import pytest
import torch
import torch.fx as fx
from functorch.compile import aot_function, make_boxed_func
from torch._dynamo.backends.common import aot_autograd
from torch.utils.checkpoint import checkpoint

from _custom_ops import OP_NAME, ScaleTrack

import fusioncut
from fusioncut.graph import JointGraph, Role, Value
from fusioncut.policy import ReasonKind

HOP = torch.ops.higher_order


def _nop(gm, _):
    return make_boxed_func(gm.forward)


class Recorder:
    """A partition_fn that runs fusioncut and keeps every joint graph with its modules."""

    def __init__(self):
        self.calls = []

    def __call__(self, gm, joint_inputs, **kwargs):
        fw, bw = fusioncut.partition(gm, joint_inputs, **kwargs)
        self.calls.append((gm, kwargs["num_fwd_outputs"], fw, bw))
        return fw, bw


def run(model, inputs, *, dynamo=True, functorch_config=None):
    """Gradients of ``model`` through fusioncut and in eager (fresh leaves each), plus the
    recorder. ``inputs`` that do not require grad are passed through."""
    rec = Recorder()
    copies = [t.detach().clone().requires_grad_(t.requires_grad) for t in inputs]
    refs = [t.detach().clone().requires_grad_(t.requires_grad) for t in inputs]
    torch._dynamo.reset()
    with warnings.catch_warnings(), torch._functorch.config.patch(functorch_config or {}):
        warnings.simplefilter("error", fusioncut.FallbackWarning)
        if dynamo:
            backend = aot_autograd(fw_compiler=_nop, bw_compiler=_nop, partition_fn=rec)
            compiled = torch.compile(model, backend=backend, fullgraph=True)
        else:
            compiled = aot_function(model, _nop, _nop, partition_fn=rec)
        compiled(*copies).backward()
    model(*refs).backward()
    for a, b in zip(copies, refs):
        if a.requires_grad:
            torch.testing.assert_close(a.grad, b.grad, rtol=1e-4, atol=1e-5)
    return rec, copies, refs


def saved(fw: fx.GraphModule, num_fwd_outputs: int) -> list[str]:
    out = fw.graph.find_nodes(op="output")[0].args[0]
    return [o.name for o in out[num_fwd_outputs:]]


def hop_nodes(gm: fx.GraphModule, hop) -> list[fx.Node]:
    return list(gm.graph.find_nodes(op="call_function", target=hop))


def node_index(graph: JointGraph, name: str) -> int:
    return [n.name for n in graph.nodes].index(name)


def leaves(*shapes, seed=0):
    g = torch.Generator().manual_seed(seed)
    return [torch.randn(*s, generator=g, requires_grad=True) for s in shapes]


# --- invoke_subgraph ----------------------------------------------------------------------


@torch.compiler.nested_compile_region
def _block(x, w):
    return torch.relu(x @ w).sin()


def _two_blocks(x, w1, w2):
    return (_block(_block(x, w1), w2).cos() * 2).sum()


def test_invoke_subgraph_regions_and_outer_graph_partition_natively():
    rec, _, _ = run(_two_blocks, leaves((4, 8), (8, 8), (8, 8)))
    (region, n_region, rfw, _), (outer, n_outer, fw, bw) = rec.calls
    assert [p.name for p in region.graph.find_nodes(op="placeholder")] == [
        "primals_0", "primals_1", "tangents_0"]
    # The outer forward calls each partitioned region once; the backward never re-runs one.
    assert len(hop_nodes(fw, HOP.invoke_subgraph)) == 2
    # Subgraph get_attr nodes are copied where used; the modules come along from the joint.
    for module in (fw, bw):
        for node in module.graph.find_nodes(op="get_attr"):
            assert getattr(module, node.target) is getattr(outer, node.target)
    bw_calls = [n.args[1] for n in hop_nodes(bw, HOP.invoke_subgraph)]
    assert bw_calls and all(ident.startswith("partitioned_bw_") for ident in bw_calls)
    decision = fusioncut.decide(outer, num_fwd_outputs=n_outer)
    graph = decision.graph
    for node in hop_nodes(outer, HOP.invoke_subgraph):
        i = node_index(graph, node.name)
        if node.args[1].startswith("partitioned_fw_"):
            ban = decision.policy.ban[i]
            assert ban.kind is ReasonKind.HIGHER_ORDER
            assert str(ban).startswith("higher-order op: torch.ops.higher_order.invoke_subgraph(")
        assert graph.value[i] == Value.MULTI and decision.policy.unsaveable[i] is not None
    # What the backward needs from a forward region are its getitems.
    for name in saved(fw, n_outer):
        node = next(n for n in outer.graph.nodes if n.name == name)
        assert node.op == "placeholder" or node.target is not HOP.invoke_subgraph


def test_invoke_subgraph_under_checkpoint_is_recomputed_as_annotated():
    def region(x, w):
        return _block(_block((x @ w).cos(), w), w)

    def model(x, w):
        return checkpoint(region, x, w, use_reentrant=False).sum()

    rec, _, _ = run(model, leaves((4, 8), (8, 8)))
    outer, n, fw, bw = rec.calls[-1]
    # PREFER_RECOMPUTE on the HOP, its get_attr and getitems lifts the ban: the backward
    # calls the partitioned forward regions again and the forward saves only the inputs.
    recomputed = [n.args[1] for n in hop_nodes(bw, HOP.invoke_subgraph)]
    assert sum(ident.startswith("partitioned_fw_") for ident in recomputed) == 2
    assert saved(fw, n) == ["primals_1", "primals_2"]
    decision = fusioncut.decide(outer, num_fwd_outputs=n)
    for node in hop_nodes(outer, HOP.invoke_subgraph):
        i = node_index(decision.graph, node.name)
        assert decision.policy.ban[i] is None
        if node.args[1].startswith("partitioned_fw_"):
            assert decision.policy.recompute[i].kind is ReasonKind.ANNOTATION


# --- cond and while_loop ------------------------------------------------------------------


def _cond_model(x, w):
    h = x @ w
    y = torch.cond(h.sum() > 0, lambda h: h.sin() * 2, lambda h: h.cos() + 1, (h,))
    return (y * y).sum()


@pytest.mark.parametrize("dynamo", [True, False], ids=["torch.compile", "aot_function"])
def test_cond_saves_predicate_operand_and_output(dynamo):
    rec, _, _ = run(_cond_model, leaves((4, 8), (8, 8)), dynamo=dynamo)
    (joint, n, fw, bw), = rec.calls
    assert sorted(saved(fw, n)) == ["getitem", "gt", "mm", "primals_1", "primals_2"]
    assert len(hop_nodes(fw, HOP.cond)) == 1 and len(hop_nodes(bw, HOP.cond)) == 1
    decision = fusioncut.decide(joint, num_fwd_outputs=n)
    (cond,) = [c for c in hop_nodes(joint, HOP.cond) if c.meta["partitioner_tag"] == "is_forward"]
    assert str(decision.policy.ban[node_index(decision.graph, cond.name)]) == \
        "higher-order op: torch.ops.higher_order.cond"


def _while_model(x, w):
    from torch._higher_order_ops.while_loop import while_loop

    def cond_fn(i, c):
        return i < 3

    def body_fn(i, c):
        return i + 1, torch.tanh(c @ w)

    _, out = while_loop(cond_fn, body_fn, (torch.zeros((), dtype=torch.int64), x))
    return out.sum()


def test_while_loop_with_unbacked_iteration_count():
    rec, _, _ = run(_while_model, leaves((4, 8), (8, 8)))
    (joint, n, fw, bw), = rec.calls
    graph = JointGraph.from_fx(joint, n)
    stack = hop_nodes(joint, HOP.while_loop_stack_output)
    assert len(stack) == 1 and graph.unsupported is None
    assert len(hop_nodes(fw, HOP.while_loop_stack_output)) == 1
    assert not hop_nodes(bw, HOP.while_loop_stack_output)
    # The stacked carries have an unbacked leading size: the unbacked hint sizes them and
    # no SymInt is saved for it (the HOP binds it; the backward sees it through its inputs).
    assert any(graph.symbolic[node_index(graph, name)] for name in saved(fw, n))


def _scan_model(x, w):
    from torch._higher_order_ops.scan import scan

    def step(c, xs):
        c2 = torch.tanh(c @ w + xs)
        return c2.clone(), c2.sin()

    c, ys = scan(step, torch.zeros(4, 8), x)
    return ys.sum() + c.sum()


def _map_model(x, w):
    from functorch.experimental.control_flow import map as control_map

    return control_map(lambda xs, w: torch.tanh(xs @ w), x, w).sum()


@pytest.mark.parametrize("model,hop", [(_scan_model, "scan"), (_map_model, "map_impl")],
                         ids=["scan", "map"])
def test_scan_and_map_run_once_in_the_forward(model, hop):
    rec, _, _ = run(model, leaves((3, 4, 8), (8, 8)))
    (joint, n, fw, bw), = rec.calls
    target = getattr(HOP, hop)
    decision = fusioncut.decide(joint, num_fwd_outputs=n)
    graph = decision.graph
    forward = [nd for nd in hop_nodes(joint, target)
               if graph.role[node_index(graph, nd.name)] == Role.FORWARD]
    assert len(forward) == 1
    assert str(decision.policy.ban[node_index(graph, forward[0].name)]) == \
        f"higher-order op: torch.ops.higher_order.{hop}"
    # The forward HOP runs in the forward module only; the backward has its own.
    fw_names = {nd.name for nd in hop_nodes(fw, target)}
    assert forward[0].name in fw_names
    assert forward[0].name not in {nd.name for nd in hop_nodes(bw, target)}


# --- with_effects (effect tokens) ---------------------------------------------------------


class _PrintInBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 3

    @staticmethod
    def backward(ctx, g):
        torch.ops.aten._print("fusioncut test: backward effect")
        return g * 3


def _effects_model(x, w):
    h = torch.relu(x @ w)
    torch.ops.aten._print("fusioncut test: forward effect")
    return (_PrintInBackward.apply(h) * h.sin()).sum()


@pytest.mark.parametrize("dynamo", [True, False], ids=["torch.compile", "aot_function"])
def test_with_effects_tokens_stay_chains_and_are_never_saved(dynamo, capfd):
    # unlift_effect_tokens: AOTAutograd then checks fusioncut's modules the way Inductor
    # needs them (each token input feeds a with_effects, each output token is its getitem 0).
    rec, _, _ = run(_effects_model, leaves((4, 8), (8, 8)), dynamo=dynamo,
                    functorch_config={"unlift_effect_tokens": True})
    printed = capfd.readouterr().out
    assert printed.count("forward effect") == 2  # once compiled, once eager: never twice
    assert printed.count("backward effect") == 2
    (joint, n, fw, bw), = rec.calls
    decision = fusioncut.decide(joint, num_fwd_outputs=n)
    graph, policy = decision.graph, decision.policy
    tokens = [i for i in range(graph.num_nodes) if graph.value[i] == Value.TOKEN]
    assert {graph.nodes[i].name for i in tokens} >= {"primals_1", "tangents_token"}
    for i in tokens:
        assert policy.unsaveable[i].kind is ReasonKind.EFFECT_TOKEN
        assert i not in decision.saved
    fw_effects = [nd for nd in hop_nodes(joint, HOP.with_effects)
                  if graph.role[node_index(graph, nd.name)] == Role.FORWARD]
    assert len(fw_effects) == 1
    for nd in fw_effects:
        ban = policy.ban[node_index(graph, nd.name)]
        assert ban.kind is ReasonKind.EFFECTFUL and "with_effects(aten._print)" in ban.detail


def test_with_effects_emitted_modules_keep_token_order():
    rec, _, _ = run(_effects_model, leaves((4, 8), (8, 8)), dynamo=False)
    (joint, n, fw, bw), = rec.calls
    fw_out = fw.graph.find_nodes(op="output")[0].args[0]
    token_out = fw_out[0]
    assert token_out.target is __import__("operator").getitem and \
        token_out.args[0].target is HOP.with_effects  # forward token output, first
    assert not any(o.meta["val"].numel() == 0 for o in fw_out[n:])  # no token saved
    bw_out = bw.graph.find_nodes(op="output")[0].args[0]
    assert bw_out[-1].args[0].target is HOP.with_effects  # backward token output, last
    (bw_effect,) = hop_nodes(bw, HOP.with_effects)  # the backward's own effect only
    assert bw_effect.args[0].name == "tangents_token"


# --- auto_functionalized (mutating custom ops) --------------------------------------------


def _mutating_model(x, w, stats):
    h = ScaleTrack.apply(x @ w, stats)
    return (h.sin() * h).sum()


@pytest.mark.parametrize("v2", [False, True], ids=["v1", "v2"])
def test_auto_functionalized_is_banned_and_mutates_once(v2):
    stats = torch.zeros(())
    with torch._inductor.config.patch(enable_auto_functionalized_v2=v2):
        rec, copies, _ = run(_mutating_model, [*leaves((4, 8), (8, 8)), stats], dynamo=False)
    hop = HOP.auto_functionalized_v2 if v2 else HOP.auto_functionalized
    (joint, n, fw, bw), = rec.calls
    # The compiled run mutated its stats copy exactly once, as eager did.
    ref = copies[0].detach() @ copies[1].detach()
    torch.testing.assert_close(copies[2], (ref.abs().sum()).reshape(()))
    assert len(hop_nodes(fw, hop)) == 1 and not hop_nodes(bw, hop)
    decision = fusioncut.decide(joint, num_fwd_outputs=n)
    (node,) = hop_nodes(joint, hop)
    ban = decision.policy.ban[node_index(decision.graph, node.name)]
    assert ban.kind is ReasonKind.MUTATING
    assert ban.detail.endswith(f"({OP_NAME})")


# --- flex_attention -----------------------------------------------------------------------


def _score_mod(score, b, h, q_idx, kv_idx):
    return score + (q_idx - kv_idx).to(score.dtype) * 0.1


def test_flex_attention_saves_out_and_lse_and_gradients_match(monkeypatch):
    import torch.nn.attention.flex_attention as fa

    # flex_attention refuses CPU inputs that require grad in Python only; its HOPs have
    # dense CPU kernels, so the joint graph traces and runs.
    monkeypatch.setattr(fa, "_validate_device", lambda q, k, v: None)

    def model(q, k, v):
        return (fa.flex_attention(q, k, v, score_mod=_score_mod).sin() * 2).sum()

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*flex_attention called without torch.compile.*")
        rec, _, _ = run(model, leaves((1, 2, 16, 8), (1, 2, 16, 8), (1, 2, 16, 8)))
    (joint, n, fw, bw), = rec.calls
    (fwd,) = hop_nodes(joint, HOP.flex_attention)
    (bwd,) = hop_nodes(joint, HOP.flex_attention_backward)
    assert len(hop_nodes(fw, HOP.flex_attention)) == 1 and not hop_nodes(bw, HOP.flex_attention)
    assert len(hop_nodes(bw, HOP.flex_attention_backward)) == 1
    decision = fusioncut.decide(joint, num_fwd_outputs=n)
    graph = decision.graph
    assert str(decision.policy.ban[node_index(graph, fwd.name)]) == \
        "higher-order op: torch.ops.higher_order.flex_attention"
    # out and lse (getitems 0 and 1 of the forward HOP) are what the backward HOP reads.
    saved_names = set(saved(fw, n))
    outs = {u.args[1]: u.name for u in fwd.users}
    assert outs[0] in saved_names and outs[1] in saved_names
    assert fwd.name not in saved_names
    # The backward's subgraphs are get_attr nodes: copied into the backward module.
    for arg in bwd.all_input_nodes:
        if arg.op == "get_attr":
            assert isinstance(getattr(bw, arg.target), fx.GraphModule)


# --- triton_kernel_wrapper_functional (user Triton kernels) -------------------------------


@pytest.fixture
def python_triton_kernels():
    """triton is not installed here, so stand-in kernels (Python callables in torch's kernel
    side table) run through the functional HOP, whose CPU kernel is swapped for an
    emulation for the test's duration. The joint graph has the node shape dynamo emits."""
    from torch._C import DispatchKey
    from torch._higher_order_ops.triton_kernel_wrap import (
        kernel_side_table,
        triton_kernel_wrapper_functional as hop,
    )

    def dense(*, kernel_idx, constant_args_idx, grid, tma_descriptor_metadata, kwargs,
              tensors_to_clone):
        kwargs = {k: (v.clone() if k in tensors_to_clone else v) for k, v in kwargs.items()}
        kernel_side_table.get_kernel(kernel_idx)(**kwargs)
        return {k: v for k, v in kwargs.items() if k in tensors_to_clone}

    key = DispatchKey.CompositeExplicitAutograd
    old = hop.py_kernels.get(key)
    hop.py_kernels[key] = dense
    getattr(hop, "_dispatch_cache", {}).clear()
    try:
        yield hop, kernel_side_table
    finally:
        if old is None:
            hop.py_kernels.pop(key, None)
        else:
            hop.py_kernels[key] = old
        getattr(hop, "_dispatch_cache", {}).clear()


def test_triton_kernel_wrapper_functional_is_banned_and_its_output_saved(python_triton_kernels):
    hop, table = python_triton_kernels

    def fwd_kernel(in_ptr, out_ptr, n_elements):
        out_ptr.copy_(torch.sin(in_ptr) * 2)

    def bwd_kernel(in_ptr, grad_ptr, out_ptr, n_elements):
        out_ptr.copy_(torch.cos(in_ptr) * 2 * grad_ptr)

    fwd, bwd, const = table.add_kernel(fwd_kernel), table.add_kernel(bwd_kernel), \
        table.add_constant_args({})

    def call(kernel, **tensors):
        out = torch.empty_like(tensors["in_ptr"])
        res = hop(kernel_idx=kernel, constant_args_idx=const, grid=[(out.numel(), 1, 1)],
                  tma_descriptor_metadata={},
                  kwargs={**tensors, "out_ptr": out, "n_elements": out.numel()},
                  tensors_to_clone=["out_ptr"])
        return res["out_ptr"]

    class SinTimesTwo(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return call(fwd, in_ptr=x)

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return call(bwd, in_ptr=x, grad_ptr=g)

    def model(x, w):
        h = x @ w
        return (SinTimesTwo.apply(torch.relu(h)) * h).sum()

    def reference(x, w):
        h = x @ w
        return ((torch.relu(h).sin() * 2) * h).sum()

    x, w = leaves((4, 8), (8, 8))
    rec = Recorder()
    with warnings.catch_warnings():
        warnings.simplefilter("error", fusioncut.FallbackWarning)
        aot_function(model, _nop, _nop, partition_fn=rec)(x, w).backward()
    rx, rw = (t.detach().clone().requires_grad_() for t in (x, w))
    reference(rx, rw).backward()
    torch.testing.assert_close(x.grad, rx.grad)
    torch.testing.assert_close(w.grad, rw.grad)
    (joint, n, fw, bw), = rec.calls
    fw_hops = [nd for nd in hop_nodes(joint, hop) if nd.kwargs["kernel_idx"] == fwd]
    decision = fusioncut.decide(joint, num_fwd_outputs=n)
    graph = decision.graph
    (node,) = fw_hops
    assert graph.value[node_index(graph, node.name)] == Value.MULTI  # a dict of outputs
    ban = decision.policy.ban[node_index(graph, node.name)]
    assert ban.kind is ReasonKind.MUTATING and "triton_kernel_wrapper_functional" in ban.detail
    # Its output is read by a string-keyed getitem, and that getitem is what gets saved.
    (out,) = node.users
    assert out.args[1] == "out_ptr" and out.name in saved(fw, n)
    assert len([nd for nd in hop_nodes(fw, hop)]) == 1


# --- aot_module ---------------------------------------------------------------------------


class _Tracked(torch.nn.Module):
    """A parameter, a buffer a mutating custom op updates, and a data-dependent branch."""

    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(8, 8, generator=torch.Generator().manual_seed(1)))
        self.register_buffer("stats", torch.zeros(()))

    def forward(self, x):
        h = ScaleTrack.apply(x @ self.w, self.stats)
        h = torch.cond(h.sum() > 0, lambda h: h.sin() * 2, lambda h: h.cos() + 1, (h,))
        return (h * h).sum()


def test_aot_module_with_cond_and_a_mutated_buffer():
    from functorch.compile import aot_module

    eager = _Tracked()
    compiled_module = copy.deepcopy(eager)
    rec = Recorder()
    x = torch.randn(4, 8, requires_grad=True)
    rx = x.detach().clone().requires_grad_()
    with warnings.catch_warnings():
        warnings.simplefilter("error", fusioncut.FallbackWarning)
        aot_module(compiled_module, _nop, _nop, partition_fn=rec)(x).backward()
    eager(rx).backward()
    torch.testing.assert_close(x.grad, rx.grad)
    torch.testing.assert_close(compiled_module.w.grad, eager.w.grad)
    torch.testing.assert_close(compiled_module.stats, eager.stats)
    (joint, n, fw, bw), = rec.calls
    assert hop_nodes(joint, HOP.cond) and (hop_nodes(joint, HOP.auto_functionalized_v2)
                                           or hop_nodes(joint, HOP.auto_functionalized))
