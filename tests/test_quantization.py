"""Activation quantization honoured, not a fallback: with Inductor's
``activation_quantization_aten_pass`` configured, fusioncut prices a value torch's pass would
quantize at its quantized bytes, and torch's pass quantizes fusioncut's saved set."""

from __future__ import annotations

import warnings

import torch
from functorch.compile import aot_function, make_boxed_func

from test_tags_annotate import TorchOnTags

import fusioncut
from fusioncut.fallback import FallbackWarning

QUANT = {"activation_quantization_aten_pass": {"size_in_mb": 0.0,
                                               "allowed_dtypes": "torch.bfloat16"}}


def _nop(gm, _):
    return make_boxed_func(gm.forward)


def _model(x, w):
    return ((x @ w).sin() * 3).cos().sum()


def _step(partition):
    """Gradients of one step of ``_model`` (bf16) through ``partition``, and its modules."""
    g = torch.Generator().manual_seed(0)
    x = torch.randn(64, 64, generator=g).to(torch.bfloat16).requires_grad_()
    w = torch.randn(64, 64, generator=g).to(torch.bfloat16).requires_grad_()
    modules = []

    def record(gm, joint_inputs, **kwargs):
        fw, bw = partition(gm, joint_inputs, **kwargs)
        modules.append((gm, kwargs["num_fwd_outputs"], fw))
        return fw, bw

    with warnings.catch_warnings(), torch._inductor.config.patch(post_grad_fusion_options=QUANT):
        warnings.simplefilter("error", FallbackWarning)
        aot_function(_model, _nop, _nop, partition_fn=record)(x, w).backward()
    return (x.grad, w.grad), modules[0]


def test_quantization_prices_saved_values_at_their_quantized_bytes():
    _, (joint, n, fw) = _step(fusioncut.partition)
    with torch._inductor.config.patch(post_grad_fusion_options=QUANT):
        decision = fusioncut.decide(joint, num_fwd_outputs=n)
    plain = fusioncut.decide(joint, num_fwd_outputs=n)
    assert plain.quantized is None
    graph = decision.graph
    mm = next(i for i, nd in enumerate(graph.nodes) if nd.name == "mm")
    assert decision.quantized[mm]
    # 64x64 bf16 (8 KiB) stored as float8 (4 KiB) plus 64 float32 row scales.
    assert decision.costs.costs(graph.nbytes)[mm] == plain.costs.costs(graph.nbytes)[mm]
    ratio = decision.weights[mm] / plain.weights[mm]
    assert abs(ratio - (64 * 64 + 64 * 4) / (64 * 64 * 2)) < 0.01


def test_quantization_pass_runs_on_fusioncuts_saved_set():
    grads, (joint, n, fw) = _step(fusioncut.partition)
    outputs = [o.name for o in fw.graph.find_nodes(op="output")[0].args[0][n:]]
    quantized = [name for name in outputs if name.startswith("fp8_quant_")]
    assert quantized, outputs
    with torch._inductor.config.patch(post_grad_fusion_options=QUANT):
        decision = fusioncut.decide(joint, num_fwd_outputs=n)
    expected = sorted(nd.name for nd in decision.saved_nodes
                      if decision.quantized[decision.graph.index[nd]])
    assert sorted(name.split("_", 4)[-1] for name in quantized) == expected
    # The same saved set through PyTorch's own partitioner (annotated by fusioncut) gives the
    # same quantized values, hence the same gradients, bit for bit.
    torch_grads, _ = _step(TorchOnTags())
    for ours, theirs in zip(grads, torch_grads):
        torch.testing.assert_close(ours, theirs, rtol=0, atol=0)
