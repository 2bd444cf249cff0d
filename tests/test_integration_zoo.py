"""The zoo end to end under AOTAutograd: gradients (and mutated buffers) equal eager autograd.

Each model runs eagerly and through ``aot_module`` with a partitioner built on
``fusioncut.build_modules`` (saved set chosen by torch's min cut, or "save everything": no
recomputation) and, once it exists, ``fusioncut.partition``.
"""

from __future__ import annotations

import copy
import importlib.util
import warnings

import pytest
import torch
from functorch.compile import aot_module, min_cut_rematerialization_partition, nop

from _partitioners import make_partition_fn
from fusioncut.fallback import FallbackWarning
from models import (
    GPT, MLP, ConvBN, DropoutMLP, EvoNormS0, GPTConfig, InPlace, LSTMUnrolled, MultiOutput,
    NoBackwardWork, boxed, gpt_inputs,
)

HAVE_PARTITION = importlib.util.find_spec("fusioncut.partitioner") is not None


def _partitioner(kind):
    if kind == "fusioncut":
        if not HAVE_PARTITION:
            pytest.skip("fusioncut.partition does not exist yet")
        import fusioncut

        return fusioncut.partition
    return make_partition_fn(kind)


PARTITIONERS = ["torch_choice", "save_all", "fusioncut"]


def _zoo():
    torch.manual_seed(0)
    cfg = GPTConfig(n_layer=2)
    x8 = torch.randn(4, 8)
    return {
        "mlp": (MLP(), (x8.clone().requires_grad_(),)),
        "gpt": (GPT(cfg), gpt_inputs(cfg)),
        "convbn_train": (ConvBN().train(), (torch.randn(2, 3, 5, 5, requires_grad=True),)),
        "evonorm_s0": (EvoNormS0(), (torch.randn(2, 8, 3, 3, requires_grad=True),)),
        "lstm_unrolled": (LSTMUnrolled(), (torch.randn(4, 3, 6, requires_grad=True),)),
        "inplace": (InPlace(), (torch.randn(3, 8, requires_grad=True),)),
        "multi_output": (MultiOutput(), (torch.randn(3, 8, requires_grad=True),)),
    }


ZOO = list(_zoo())


def _loss(outputs):
    if isinstance(outputs, torch.Tensor):
        outputs = (outputs,)
    total = 0.0
    for k, o in enumerate(outputs):
        if isinstance(o, torch.Tensor) and o.requires_grad:
            weights = torch.linspace(0.5, 1.5, o.numel()).view(o.shape) * (k + 1)
            total = total + (o * weights).sum()
    return total


def _run(model, args):
    args = [a.detach().clone().requires_grad_(a.requires_grad) for a in args]
    outputs = model(*args)
    _loss(outputs).backward()
    grads = [p.grad for p in model.parameters()] + [a.grad for a in args]
    return outputs, grads, [b.clone() for b in model.buffers()]


def _assert_same(eager, compiled):
    for a, b in zip(eager, compiled, strict=True):
        if isinstance(a, (tuple, list)):
            _assert_same(a, b)
        elif a is None or b is None:
            assert a is None and b is None
        else:
            torch.testing.assert_close(b, a, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("kind", PARTITIONERS)
@pytest.mark.parametrize("name", ZOO)
def test_integration_gradients_match_eager(name, kind):
    model, args = _zoo()[name]
    compiled_model = copy.deepcopy(model)
    compiled = aot_module(
        compiled_model, fw_compiler=nop, bw_compiler=nop, partition_fn=_partitioner(kind)
    )
    eager = _run(model, args)
    # aot_module shares the parameters and buffers of compiled_model.
    with warnings.catch_warnings():
        # The zoo is fusioncut's own ground: no model of it may fall back to torch.
        warnings.simplefilter("error", FallbackWarning)
        got = _run_compiled(compiled, compiled_model, args)
    _assert_same(eager, got)


def _run_compiled(compiled, module, args):
    args = [a.detach().clone().requires_grad_(a.requires_grad) for a in args]
    outputs = compiled(*args)
    _loss(outputs).backward()
    grads = [p.grad for p in module.parameters()] + [a.grad for a in args]
    return outputs, grads, [b.clone() for b in module.buffers()]


@pytest.mark.parametrize("kind", ["torch_choice", "fusioncut"])
def test_integration_boxed_compiler_and_second_step(kind):
    """make_boxed_func compilers; two steps, so saved values of step 1 do not leak into step 2."""
    torch.manual_seed(0)
    model = MLP()
    compiled_model = copy.deepcopy(model)
    compiled = aot_module(
        compiled_model, fw_compiler=boxed, bw_compiler=boxed,
        partition_fn=_partitioner(kind),
    )
    for step in range(2):
        x = torch.randn(4, 8, generator=torch.Generator().manual_seed(step))
        eager = _run(model, (x,))
        got = _run_compiled(compiled, compiled_model, (x,))
        _assert_same(eager, got)


@pytest.mark.parametrize("kind", ["torch_choice", "save_all", "fusioncut"])
def test_integration_dropout_matches_torch_partitioner_under_same_seed(kind):
    torch.manual_seed(0)
    model = DropoutMLP()
    x = torch.randn(4, 8, requires_grad=True)
    results = []
    for partition in (min_cut_rematerialization_partition, _partitioner(kind)):
        m = copy.deepcopy(model)
        compiled = aot_module(m, fw_compiler=nop, bw_compiler=nop, partition_fn=partition)
        torch.manual_seed(123)
        results.append(_run_compiled(compiled, m, (x,)))
    _assert_same(results[0], results[1])
    # The mask is random: another seed gives another output, so the test is not vacuous.
    m = copy.deepcopy(model)
    compiled = aot_module(m, fw_compiler=nop, bw_compiler=nop, partition_fn=_partitioner(kind))
    torch.manual_seed(124)
    assert not torch.equal(_run_compiled(compiled, m, (x,))[0], results[0][0])


@pytest.mark.parametrize("kind", ["torch_choice", "save_all", "fusioncut"])
def test_integration_no_backward_work(kind):
    """Only an input the output does not depend on requires grad: its gradient is None."""
    model = NoBackwardWork()
    x = torch.randn(3, 4)
    unused = torch.randn(3, requires_grad=True)
    compiled = aot_module(model, fw_compiler=nop, bw_compiler=nop, partition_fn=_partitioner(kind))
    out = compiled(x, unused)
    torch.testing.assert_close(out, torch.sin(x) * 2)
    if out.requires_grad:
        out.sum().backward()
    assert unused.grad is None or torch.count_nonzero(unused.grad) == 0


@pytest.mark.parametrize("kind", ["torch_choice", "save_all", "fusioncut"])
def test_integration_effect_tokens(kind, capfd):
    """An effectful op (aten._print) threads effect tokens through the forward graph."""
    from torch._dynamo.backends.common import aot_autograd

    def f(x, w):
        torch.ops.aten._print("fusioncut-effect")
        return torch.sin(x @ w).sum()

    backend = aot_autograd(fw_compiler=nop, bw_compiler=nop, partition_fn=_partitioner(kind))
    torch._dynamo.reset()
    x = torch.randn(3, 3, requires_grad=True)
    w = torch.randn(3, 3, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # fusioncut.partition may fall back on with_effects
        out = torch.compile(f, backend=backend)(x, w)
    out.backward()
    assert "fusioncut-effect" in capfd.readouterr().out
    got = (out.detach(), x.grad.clone(), w.grad.clone())
    x.grad = w.grad = None
    ref = f(x, w)
    ref.backward()
    _assert_same((ref.detach(), x.grad, w.grad), got)


@pytest.mark.parametrize("kind", ["torch_choice", "fusioncut"])
def test_integration_checkpointed_dropout_replays_the_mask(kind):
    """torch.utils.checkpoint tags the dropout must_recompute: the backward redraws the same
    mask from the saved RNG state (functionalized by emission)."""
    import torch.utils.checkpoint as checkpoint
    from torch._dynamo.backends.common import aot_autograd

    def f(x, w):
        def body(x):
            return torch.nn.functional.dropout(torch.sin(x @ w), 0.5, training=True).cos()

        return checkpoint.checkpoint(body, x, use_reentrant=False).sum()

    torch.manual_seed(0)
    x = torch.randn(4, 4, requires_grad=True)
    w = torch.randn(4, 4, requires_grad=True)
    graphs = []

    def partition_fn(*args, **kwargs):
        fw, bw = _partitioner(kind)(*args, **kwargs)
        graphs.append(bw)
        return fw, bw

    backend = aot_autograd(fw_compiler=nop, bw_compiler=nop, partition_fn=partition_fn)
    torch._dynamo.reset()
    torch.manual_seed(7)
    out = torch.compile(f, backend=backend)(x, w)
    out.backward()
    got = (out.detach(), x.grad.clone(), w.grad.clone())
    x.grad = w.grad = None
    torch.manual_seed(7)
    ref = f(x, w)
    ref.backward()
    _assert_same((ref.detach(), x.grad, w.grad), got)
    # The dropout really was recomputed in the backward, from the forward's RNG state.
    targets = {str(n.target) for n in graphs[0].graph.nodes if n.op == "call_function"}
    assert any("run_with_rng_state" in t for t in targets), targets


@pytest.mark.parametrize("kind", ["torch_choice", "fusioncut"])
def test_integration_aot_function_views_and_non_differentiable_outputs(kind):
    from functorch.compile import aot_function

    def f(x, w, mask):
        y = torch.tanh(x @ w)
        z = y.t()  # a view output
        return y, z, (y > 0).sum(), y.detach().argmax(), (y * mask).mean()

    torch.manual_seed(0)
    args = (torch.randn(3, 4, requires_grad=True), torch.randn(4, 4, requires_grad=True),
            torch.rand(3, 4))
    compiled = aot_function(f, fw_compiler=boxed, bw_compiler=boxed,
                            partition_fn=_partitioner(kind))

    def run(fn):
        xs = [a.detach().clone().requires_grad_(a.requires_grad) for a in args]
        outs = fn(*xs)
        _loss(outs).backward()
        return outs, [a.grad for a in xs]

    _assert_same(run(f), run(compiled))
