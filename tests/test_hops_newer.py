"""Higher-order ops newer than torch 2.13: ``switch`` (an n-way ``cond`` with autograd),
``flex_gemm`` (a GEMM with a traced epilogue, no autograd of its own) and Inductor's
``control_deps`` (the wrapper of a stream sync, which torch's extraction splits from 2.14).

They are traced on the installed torch; on one that lacks them the tests skip, saying so
(the compatibility job, ``scripts/compat.sh``, runs them on the newest release).
"""

from __future__ import annotations

import importlib
import operator
import warnings

import pytest
import torch
import torch.fx as fx
from functorch.compile import aot_function, make_boxed_func

from test_hops_decisions import HOP, hop_nodes, leaves, node_index, run, saved

import fusioncut
from fusioncut import _torch_compat

NEWER = _torch_compat.torch_version() >= (2, 14)
if NEWER:
    switch = importlib.import_module("torch._higher_order_ops.switch").switch
    flex_gemm = importlib.import_module("torch._higher_order_ops.flex_gemm").flex_gemm
needs_214 = pytest.mark.skipif(
    not NEWER, reason=f"torch {torch.__version__} has no switch / flex_gemm HOP and does not "
                      "split control_deps (torch 2.14+)")


def _switch_model(x, w):
    h = x @ w
    index = (h.sum() > 0).to(torch.int64) + 1
    y = switch(index, (lambda h: h.sin() * 2, lambda h: h.cos() + 1, lambda h: h * h), (h,))
    return (y * y).sum()


@needs_214
@pytest.mark.parametrize("dynamo", [True, False], ids=["torch.compile", "aot_function"])
def test_switch_is_partitioned_like_cond(dynamo):
    rec, _, _ = run(_switch_model, leaves((4, 8), (8, 8)), dynamo=dynamo)
    (joint, n, fw, bw), = rec.calls
    # The branch index, the operand and the output cross; the HOP runs once per graph.
    assert {"mm", "getitem"} <= set(saved(fw, n))
    assert len(hop_nodes(fw, HOP.switch)) == 1 and len(hop_nodes(bw, HOP.switch)) == 1
    decision = fusioncut.decide(joint, num_fwd_outputs=n)
    (fwd,) = [s for s in hop_nodes(joint, HOP.switch)
              if s.meta["partitioner_tag"] == "is_forward"]
    assert str(decision.policy.ban[node_index(decision.graph, fwd.name)]) == \
        "higher-order op: torch.ops.higher_order.switch"


def _flex_gemm_model(w, x, v):
    g = flex_gemm(torch.mm, (x, v), lambda y: y.relu() * 2)
    return (g @ w).tanh().sum()


@needs_214
@pytest.mark.parametrize("dynamo", [True, False], ids=["torch.compile", "aot_function"])
def test_flex_gemm_output_is_saved_and_never_recomputed(dynamo):
    w = torch.randn(8, 8, requires_grad=True)
    rec, _, _ = run(_flex_gemm_model, [w, torch.randn(4, 8), torch.randn(8, 8)],
                    dynamo=dynamo)
    (joint, n, fw, bw), = rec.calls
    assert len(hop_nodes(fw, HOP.flex_gemm)) == 1 and not hop_nodes(bw, HOP.flex_gemm)
    decision = fusioncut.decide(joint, num_fwd_outputs=n)
    (hop,) = hop_nodes(joint, HOP.flex_gemm)
    assert str(decision.policy.ban[node_index(decision.graph, hop.name)]) == \
        "higher-order op: torch.ops.higher_order.flex_gemm"
    # The backward's mm reads the epilogue's output (directly or through its getitem).
    assert any(name.startswith(("flex_gemm", "getitem")) for name in saved(fw, n))


def _passthrough_subgraph(count: int) -> fx.GraphModule:
    graph = fx.Graph()
    deps = [graph.placeholder(f"dep_{i}") for i in range(count)]
    graph.output((None, *deps))
    return fx.GraphModule(torch.nn.Module(), graph)


def _wrap_in_control_deps(gm: fx.GraphModule, name: str) -> None:
    """Thread node ``name`` through a ``control_deps`` right after it, as AOTAutograd's
    stream pass does for a sync: later users read ``getitem(control_deps, 1)``."""
    graph = gm.graph
    dep = next(n for n in graph.nodes if n.name == name)
    later = [u for u in dep.users]
    gm.register_module("cd_subgraph", _passthrough_subgraph(1))
    with graph.inserting_after(dep):
        sub = graph.get_attr("cd_subgraph")
    with graph.inserting_after(sub):
        cd = graph.call_function(_torch_compat.control_deps_hop(), ((dep,), sub, dep))
        cd.meta["val"] = (None, dep.meta["val"])
    with graph.inserting_after(cd):
        passed = graph.call_function(operator.getitem, (cd, 1))
        passed.meta.update(dep.meta)
    for user in later:
        user.replace_input_with(dep, passed)
    graph.lint()
    gm.recompile()


def _control_deps_partition(gm, joint_inputs, **kwargs):
    _wrap_in_control_deps(gm, "tanh")
    fw, bw = fusioncut.partition(gm, joint_inputs, **kwargs)
    _control_deps_partition.modules = (fw, bw, kwargs["num_fwd_outputs"])
    return fw, bw


def _nop(gm, _):
    return make_boxed_func(gm.forward)


def _mlp(x, w):
    return ((x @ w).tanh() * 3).sum()


@needs_214
def test_control_deps_runs_once_in_the_forward_and_its_passthrough_is_saved():
    x, w = leaves((4, 8), (8, 8))
    xr, wr = (t.detach().clone().requires_grad_() for t in (x, w))
    with warnings.catch_warnings():
        warnings.simplefilter("error", fusioncut.FallbackWarning)
        aot_function(_mlp, _nop, _nop, partition_fn=_control_deps_partition)(x, w).backward()
    _mlp(xr, wr).backward()
    torch.testing.assert_close(w.grad, wr.grad)
    torch.testing.assert_close(x.grad, xr.grad)
    fw, bw, n = _control_deps_partition.modules
    cd = _torch_compat.control_deps_hop()
    assert len(hop_nodes(fw, cd)) == 1 and not hop_nodes(bw, cd)
    # tanh_backward reads the passed-through tanh: saved, never the sync re-run.
    assert "getitem" in saved(fw, n)


@pytest.mark.skipif(NEWER, reason="torch 2.14+ splits control_deps")
def test_control_deps_falls_back_where_torch_cannot_split_it():
    x, w = leaves((4, 8), (8, 8))
    with pytest.warns(fusioncut.FallbackWarning, match="control_deps .*torch 2.14"):
        try:
            aot_function(_mlp, _nop, _nop, partition_fn=_control_deps_partition)(x, w)
        except Exception:  # torch's own partitioner may not cope either; the warning counts
            pass
