"""Per-region partitioners: ``torch.compiler.nested_compile_region(fn, options=
NestedCompileRegionOptions(partitioner=...))`` hands each region's joint graph to its own
partitioner (AOTAutograd's ``_get_partition_fn``); fusioncut works there, and identical
regions still share one decision (``fusioncut.regions``)."""

from __future__ import annotations

import dataclasses
import importlib
import warnings

import pytest
import torch
from functorch.compile import make_boxed_func
from torch._dynamo.backends.common import aot_autograd

import fusioncut
from fusioncut import regions

_invoke_subgraph = importlib.import_module("torch._higher_order_ops.invoke_subgraph")
_Options = getattr(_invoke_subgraph, "NestedCompileRegionOptions", None)
pytestmark = pytest.mark.skipif(
    _Options is None or "partitioner" not in {f.name for f in dataclasses.fields(_Options)}
    or not hasattr(torch._dynamo.config, "enable_invoke_subgraph_regional_compile"),
    reason=f"torch {torch.__version__}'s nested_compile_region names no partitioner")


class Counting:
    """A region partitioner: fusioncut with ``options``, counting its calls."""

    def __init__(self, options=None):
        self.partitioner = fusioncut.InductorPartitioner(options)
        self.calls = 0

    def __call__(self, gm, joint_inputs, **kwargs):
        self.calls += 1
        return self.partitioner(gm, joint_inputs, **kwargs)


def _layer(x, w):
    return (x @ w).tanh() * 2 + x


# Three region functions with one body: AOTAutograd partitions each region on its own.
def _layer0(x, w):
    return _layer(x, w)


def _layer1(x, w):
    return _layer(x, w)


def _layer2(x, w):
    return _layer(x, w)


_BODIES = (_layer0, _layer1, _layer2)


def _nop(gm, _):
    return make_boxed_func(gm.forward)


def _train(region_partitioners, outer):
    """Three layers, each its own region function with one body, partitioned by
    ``region_partitioners[k]``; the outer graph by ``outer``. Returns the gradients next to
    eager's."""
    layers = [torch.compiler.nested_compile_region(body, options=_Options(partitioner=p))
              for body, p in zip(_BODIES, region_partitioners)]

    def model(x, *ws):
        for layer, w in zip(layers, ws):
            x = layer(x, w)
        return x.sum()

    g = torch.Generator().manual_seed(0)
    leaves = [torch.randn(4, 8, generator=g, requires_grad=True)] + [
        torch.randn(8, 8, generator=g, requires_grad=True) for _ in layers]
    refs = [t.detach().clone().requires_grad_() for t in leaves]
    torch._dynamo.reset()
    backend = aot_autograd(fw_compiler=_nop, bw_compiler=_nop, partition_fn=outer)
    with warnings.catch_warnings():
        warnings.simplefilter("error", fusioncut.FallbackWarning)
        torch.compile(model, backend=backend, fullgraph=True)(*leaves).backward()
    sum(_layer_chain(refs)).backward()
    for a, b in zip(leaves, refs):
        torch.testing.assert_close(a.grad, b.grad)


def _layer_chain(refs):
    x = refs[0]
    for w in refs[1:]:
        x = _layer(x, w)
    return [x.sum()]


def test_region_partitioner_fusioncut_partitions_each_region_and_shares_its_decision():
    region = Counting()
    with torch._dynamo.config.patch(enable_invoke_subgraph_regional_compile=True):
        regions.clear_cache()
        _train([region] * 3, fusioncut.partition)
    info = regions.cache_info()
    assert region.calls >= 3
    assert info.misses == 1 and info.hits == region.calls - 1


def test_region_partitioner_options_per_region_decide_apart():
    runtime, memory = Counting(), Counting(fusioncut.Options(mode="memory"))
    with torch._dynamo.config.patch(enable_invoke_subgraph_regional_compile=True):
        regions.clear_cache()
        _train([runtime, memory, runtime], torch._functorch.partitioners.default_partition)
    info = regions.cache_info()
    assert runtime.calls >= 2 and memory.calls >= 1
    # One analysis per Options, the repeated runtime region replayed.
    assert info.misses == 2 and info.hits == runtime.calls + memory.calls - 2
