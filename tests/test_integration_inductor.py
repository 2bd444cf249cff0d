"""torch.compile (Inductor, CPU) with ``fusioncut.InductorPartitioner`` and the fallback path.

torch.compile is slow on 2 cores: three small compiles, each shared by the tests that need it.
"""

from __future__ import annotations

import copy
import warnings

import pytest
import torch
import torch.utils.checkpoint as checkpoint
from functorch.compile import nop
from torch._dynamo.backends.common import aot_autograd

import fusioncut
from fusioncut.fallback import FallbackWarning, describe_node, fallback_partition
from fusioncut.inductor import InductorPartitioner, options_fingerprint
from fusioncut.options import Options
from _partitioners import make_partition_fn
from models import GPT, Autocast, GPTConfig, gpt_inputs


class CountingPartitioner(InductorPartitioner):
    """An InductorPartitioner that records how Inductor called it."""

    def __init__(self, options=None, inner=None):
        super().__init__(options)
        self.calls = []
        self.inner = inner

    def __call__(self, gm, joint_inputs, **kwargs):
        self.calls.append(sorted(kwargs))
        if self.inner is not None:
            return self.inner(gm, joint_inputs, **kwargs)
        return super().__call__(gm, joint_inputs, **kwargs)


def _grads(model, args):
    loss = model(*args)
    loss.backward()
    return loss.detach(), [p.grad.clone() for p in model.parameters()]


@pytest.fixture(scope="module")
def compiled_gpt():
    torch.manual_seed(0)
    cfg = GPTConfig(n_layer=1, d_model=16, block_size=8)
    eager = GPT(cfg)
    model = copy.deepcopy(eager)
    partitioner = CountingPartitioner()
    torch._dynamo.reset()
    with torch._inductor.config.patch(
        custom_partitioner_fn=partitioner, fx_graph_cache=False
    ), warnings.catch_warnings():
        warnings.simplefilter("error", FallbackWarning)  # fusioncut itself, not torch's
        args = gpt_inputs(cfg)
        got = _grads(torch.compile(model), args)
    return eager, args, got, partitioner


def test_inductor_uses_fusioncut_and_gradients_match_eager(compiled_gpt):
    eager, args, (loss, grads), partitioner = compiled_gpt
    assert partitioner.calls, "Inductor never called the custom partitioner"
    assert "num_fwd_outputs" in partitioner.calls[0]
    eager_loss, eager_grads = _grads(eager, args)
    torch.testing.assert_close(loss, eager_loss, rtol=1e-5, atol=1e-6)
    for a, b in zip(grads, eager_grads, strict=True):
        torch.testing.assert_close(a, b, rtol=1e-4, atol=1e-5)


def test_inductor_checkpointed_dropout_replays_the_forward_mask():
    """Activation checkpointing tags the dropout must_recompute: emission shares its RNG state."""
    torch.manual_seed(0)
    w = torch.randn(6, 6, requires_grad=True)

    def f(x, w):
        def body(x):
            return torch.nn.functional.dropout(torch.sin(x @ w), 0.5, training=True).cos()

        return checkpoint.checkpoint(body, x, use_reentrant=False).sum()

    x = torch.randn(4, 6, requires_grad=True)
    partitioner = CountingPartitioner(inner=make_partition_fn("torch_choice"))
    torch._dynamo.reset()
    with torch._inductor.config.patch(
        custom_partitioner_fn=partitioner, fallback_random=True, fx_graph_cache=False
    ):
        torch.manual_seed(7)
        out = torch.compile(f)(x, w)
        out.backward()
    assert partitioner.calls
    got = (out.detach(), x.grad.clone(), w.grad.clone())
    x.grad = w.grad = None
    torch.manual_seed(7)
    ref = f(x, w)
    ref.backward()
    for a, b in zip(got, (ref.detach(), x.grad, w.grad), strict=True):
        torch.testing.assert_close(a, b, rtol=1e-5, atol=1e-6)


def _invoke_subgraph_aware(inner):
    """What the decision layer does on a construct it does not model: fall back, loudly."""

    def partition_fn(joint_module, joint_inputs, *, num_fwd_outputs, **kwargs):
        hop = torch.ops.higher_order.invoke_subgraph
        for node in joint_module.graph.find_nodes(op="call_function", target=hop):
            return fallback_partition(
                "the graph contains " + describe_node("higher-order op", node),
                joint_module, joint_inputs, num_fwd_outputs=num_fwd_outputs, **kwargs,
            )
        return inner(joint_module, joint_inputs, num_fwd_outputs=num_fwd_outputs, **kwargs)

    return partition_fn


@pytest.mark.skipif(
    not hasattr(torch.compiler, "nested_compile_region"), reason="needs nested_compile_region"
)
def test_fallback_on_invoke_subgraph_warns_and_is_correct():
    @torch.compiler.nested_compile_region
    def sub(x, w):
        return torch.sin(x @ w).cos()

    def f(x, w):
        return sub(x, w) + sub(x * 2, w)

    torch.manual_seed(0)
    x = torch.randn(4, 4, requires_grad=True)
    w = torch.randn(4, 4, requires_grad=True)
    backend = aot_autograd(
        fw_compiler=nop, bw_compiler=nop,
        partition_fn=_invoke_subgraph_aware(make_partition_fn("torch_choice")),
    )
    torch._dynamo.reset()
    with pytest.warns(FallbackWarning) as record:
        out = torch.compile(f, backend=backend)(x, w)
    messages = [str(r.message) for r in record if issubclass(r.category, FallbackWarning)]
    assert any(
        m.startswith("fusioncut: falling back to PyTorch's partitioner: the graph contains "
                     "higher-order op torch.ops.higher_order.invoke_subgraph (node 'invoke_subgraph")
        for m in messages
    ), messages
    out.sum().backward()
    got = (out.detach(), x.grad.clone(), w.grad.clone())
    x.grad = w.grad = None
    ref = f(x, w)
    ref.sum().backward()
    for a, b in zip(got, (ref.detach(), x.grad, w.grad), strict=True):
        torch.testing.assert_close(a, b, rtol=1e-5, atol=1e-6)


def test_inductor_partitioner_uuid_tracks_options_and_version(monkeypatch):
    base = InductorPartitioner().uuid()
    assert base == InductorPartitioner(Options()).uuid()  # None means the default Options
    assert base == InductorPartitioner().uuid()  # deterministic
    assert base != InductorPartitioner(Options(mode="memory")).uuid()
    assert InductorPartitioner(Options(distance_cap=3)).uuid() != InductorPartitioner(
        Options(distance_cap=4)
    ).uuid()
    monkeypatch.setattr(fusioncut.inductor, "__version__", "999.0")
    assert InductorPartitioner().uuid() != base


def test_inductor_partitioner_is_a_custom_partitioner_fn_and_checks_options():
    from torch._inductor.custom_graph_pass import CustomPartitionerFn

    assert isinstance(fusioncut.InductorPartitioner(), CustomPartitionerFn)
    with pytest.raises(TypeError, match="not a fusioncut.Options"):
        InductorPartitioner(options={"mode": "memory"})
    assert options_fingerprint(None).startswith("Options(")


def test_fallback_partition_passes_arguments_through():
    from models import MLP, capture_joint

    cap = capture_joint(None, torch.randn(2, 8, requires_grad=True), module=MLP())
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        fw, bw = fallback_partition(
            "a test reason", cap.joint_module, cap.joint_inputs,
            num_fwd_outputs=cap.num_fwd_outputs, compiler="inductor",
        )
    assert [str(r.message) for r in record if r.category is FallbackWarning] == [
        "fusioncut: falling back to PyTorch's partitioner: a test reason"
    ]
    assert isinstance(fw, torch.fx.GraphModule) and isinstance(bw, torch.fx.GraphModule)


class _HookedLayer(torch.nn.Module):
    """A backward hook on an intermediate: under compiled autograd, Dynamo passes the hook's
    state to the backward as a ``BackwardState`` graph input."""

    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(8, 8)
        self.scale = 3.0

    def scale_grad(self, g):
        return g * self.scale

    def forward(self, x):
        y = self.lin(x).sin()
        y.register_hook(self.scale_grad)
        return y.cos().sum()


def test_compiled_autograd_backward_state_is_partitioned_without_fallback():
    torch.manual_seed(0)
    eager = _HookedLayer()
    model = copy.deepcopy(eager)
    x = torch.randn(4, 8)
    eager(x).backward()
    placeholders = []

    def partition(gm, joint_inputs, **kwargs):
        placeholders.extend(type(n.meta.get("val")).__name__
                            for n in gm.graph.find_nodes(op="placeholder"))
        return fusioncut.partition(gm, joint_inputs, **kwargs)

    backend = aot_autograd(fw_compiler=nop, bw_compiler=nop, partition_fn=partition)
    torch._dynamo.reset()
    with warnings.catch_warnings(), torch._dynamo.config.patch(compiled_autograd=True):
        warnings.simplefilter("error", FallbackWarning)
        loss = torch.compile(model, backend=backend)(x)
        with torch._dynamo.compiled_autograd._enable(torch.compile(backend="eager")):
            loss.backward()
    assert "BackwardState" in placeholders
    for p, q in zip(model.parameters(), eager.parameters(), strict=True):
        torch.testing.assert_close(p.grad, q.grad, rtol=1e-5, atol=1e-6)


def test_bfloat16_autocast_step_equals_pytorchs_own_compiled_step():
    # Mixed-precision training: the zoo GPT under CPU autocast to bfloat16, partitioned by
    # fusioncut at least memory and by PyTorch's partitioner, each against
    # eager. With emulate_precision_casts Inductor rounds to bfloat16 where eager does, so a
    # partition that saves other values computes the same numbers (without it, the rounding
    # depends on what is stored: docs/budget.md, "Mixed precision on the CPU").
    torch.manual_seed(0)
    cfg = GPTConfig(n_layer=1, d_model=16, block_size=8)
    args = gpt_inputs(cfg)
    eager = Autocast(GPT(cfg))
    want_loss, want = _grads(copy.deepcopy(eager), args)
    scale = max(g.abs().max().item() for g in want)

    def deviation(partitioner):
        torch._dynamo.reset()
        with torch._inductor.config.patch(custom_partitioner_fn=partitioner,
                                          fx_graph_cache=False, emulate_precision_casts=True), \
                warnings.catch_warnings():
            warnings.simplefilter("error", FallbackWarning)
            loss, got = _grads(torch.compile(copy.deepcopy(eager)), args)
        torch._dynamo.reset()
        assert torch.allclose(loss, want_loss, rtol=1e-3, atol=1e-4), (loss, want_loss)
        return max(((g - w).abs().max() / max(w.abs().max().item(), 1e-4 * scale)).item()
                   for g, w in zip(got, want))

    reference = deviation(None)
    least = deviation(InductorPartitioner(Options(memory_budget=0.0)))
    assert least <= max(1e-4, 2 * reference), (least, reference)
