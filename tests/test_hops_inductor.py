"""Higher-order ops through ``torch.compile`` (Inductor, CPU) with ``InductorPartitioner``.

One model holds them all, so Inductor compiles once (compiling is the slow part on 2 cores):
two identical ``nested_compile_region``s (``invoke_subgraph``: each region's own joint graph
and the outer graph reach fusioncut; the second region reuses the first's decision),
``torch.cond``, an effectful op (``with_effects``, tokens unlifted by Inductor) and a mutating
custom op (``auto_functionalized_v2``). Gradients and the mutated buffer must equal eager, and
no call may fall back. flex_attention is tested through AOTAutograd only
(test_hops_decisions.py): Inductor's CPU lowering of its backward fails with torch's own
partitioner too.
"""

from __future__ import annotations

import types
import warnings

import torch

from _custom_ops import ScaleTrack

import fusioncut
from fusioncut import regions


def _layer(x, w):
    return torch.relu(x @ w).sin()


# Two regions with one body (AOTAutograd keys regions by code): two region calls, the
# second reusing the first's decision.
_block = torch.compiler.nested_compile_region(_layer)
_twin = torch.compiler.nested_compile_region(types.FunctionType(
    _layer.__code__.replace(co_name="_twin"), _layer.__globals__, "_twin"))


def _model(x, w1, w2, stats):
    h = _twin(_block(x, w1), w2)
    h = torch.cond(h.sum() > 0, lambda h: h.cos() * 2, lambda h: h.sin() + 1, (h,))
    torch.ops.aten._print("fusioncut inductor test: forward")
    h = ScaleTrack.apply(h, stats)
    return (h * h).sum()


class _Recording(fusioncut.InductorPartitioner):
    def __init__(self):
        super().__init__()
        self.graphs = []

    def __call__(self, gm, joint_inputs, **kwargs):
        self.graphs.append(gm)
        return super().__call__(gm, joint_inputs, **kwargs)


def test_inductor_partitions_higher_order_ops_natively(capfd):
    g = torch.Generator().manual_seed(0)
    x = torch.randn(4, 8, generator=g, requires_grad=True)
    w1, w2 = (torch.randn(8, 8, generator=g).requires_grad_() for _ in range(2))
    leaves = [x, w1, w2]
    copies = [t.detach().clone().requires_grad_() for t in leaves]
    stats, eager_stats = torch.zeros(()), torch.zeros(())
    partitioner = _Recording()
    regions.clear_cache()
    torch._dynamo.reset()
    with torch._inductor.config.patch(custom_partitioner_fn=partitioner, fx_graph_cache=False), \
            torch._dynamo.config.patch(inline_single_use_invoke_subgraph=False), \
            warnings.catch_warnings():
        warnings.simplefilter("error", fusioncut.FallbackWarning)
        warnings.filterwarnings("ignore", message=".*multiple backward graphs.*")
        loss = torch.compile(_model, fullgraph=True)(*leaves, stats)
        loss.backward()
    eager = _model(*copies, eager_stats)
    eager.backward()
    torch.testing.assert_close(loss, eager)
    for a, b in zip(leaves, copies):
        torch.testing.assert_close(a.grad, b.grad, rtol=1e-4, atol=1e-5)
    torch.testing.assert_close(stats, eager_stats)
    assert capfd.readouterr().out.count("fusioncut inductor test: forward") == 2
    # Two region calls (the second reusing the first's decision) and the outer graph,
    # which holds every HOP.
    assert len(partitioner.graphs) == 3 and regions.cache_info().hits == 1
    hops = {n.target.__name__ for n in partitioner.graphs[-1].graph.nodes
            if n.op == "call_function" and getattr(n.target, "namespace", "") == "higher_order"}
    assert {"invoke_subgraph", "cond", "with_effects"} <= hops
    assert hops & {"auto_functionalized", "auto_functionalized_v2"}
