"""Higher-order ops and collectives on bad or contradictory input: a clear error or a
documented fallback naming the node, never a wrong graph.

Most graphs here are built by hand (the rules only read ``meta["val"]``, targets, edges and
tags), so each case is exactly the construct it tests.
"""

from __future__ import annotations

import copy
import warnings

import pytest
import torch
import torch.fx as fx
from torch.utils.checkpoint import CheckpointPolicy

import fusioncut
from fusioncut.graph import JointGraph, Value, unsupported_construct
from fusioncut.policy import ReasonKind

aten = torch.ops.aten
HOP = torch.ops.higher_order


def _val(node, val):
    node.meta["val"] = val
    return node


def _body(random: bool, with_token: bool) -> fx.GraphModule:
    g = fx.Graph()
    ins = []
    if with_token:
        ins.append(_val(g.placeholder("token"), torch.empty(0)))
    x = _val(g.placeholder("arg0"), torch.empty(4))
    op = aten.rand_like.default if random else aten.sin.default
    y = _val(g.call_function(op, (x,)), torch.empty(4))
    g.output((*ins, y))
    return fx.GraphModule(torch.nn.Module(), g)


def region_joint(*, random_body=False, token=False, tag=None) -> tuple[fx.GraphModule, int]:
    """``y = invoke_subgraph(sub, x)[...]``; the backward multiplies the tangent by ``y``."""
    from torch._functorch._aot_autograd.descriptors import ForwardTokenAOTInput

    root = torch.nn.Module()
    root.sub = _body(random_body, token)
    g = fx.Graph()
    operands = []
    if token:
        tok = _val(g.placeholder("primals_1"), torch.empty(0))
        tok.meta["desc"] = ForwardTokenAOTInput(0)
        operands.append(tok)
    x = _val(g.placeholder("primals_2"), torch.empty(4))
    t = _val(g.placeholder("tangents_1"), torch.empty(4))
    sub = g.get_attr("sub")
    outs = (torch.empty(0), torch.empty(4)) if token else (torch.empty(4),)
    hop = _val(g.call_function(HOP.invoke_subgraph, (sub, "subgraph_0", *operands, x)), outs)
    items = [_val(g.call_function(__import__("operator").getitem, (hop, k)), v)
             for k, v in enumerate(outs)]
    y = items[-1]
    fw_out = _val(g.call_function(aten.cos.default, (y,)), torch.empty(4))
    grad = _val(g.call_function(aten.mul.Tensor, (t, y)), torch.empty(4))
    if tag is not None:
        for node in (hop, *items):
            node.meta["recompute"] = tag
    g.output((*items[:-1], fw_out, grad))
    return fx.GraphModule(root, g), len(items)


def node_named(graph: JointGraph, name: str) -> int:
    return [n.name for n in graph.nodes].index(name)


def test_invoke_subgraph_with_random_body_stays_banned_under_annotation():
    gm, n = region_joint(random_body=True, tag=CheckpointPolicy.PREFER_RECOMPUTE)
    decision = fusioncut.decide(gm, num_fwd_outputs=n)
    i = node_named(decision.graph, "invoke_subgraph")
    ban = decision.policy.ban[i]
    assert ban.kind is ReasonKind.RANDOM
    assert ban.detail == ("torch.ops.higher_order.invoke_subgraph('subgraph_0'), whose body "
                          "calls aten.rand_like")
    # The preference to recompute was dropped: the output is saved, the HOP runs once.
    assert [decision.graph.nodes[j].name for j in decision.saved] == ["getitem"]
    with pytest.raises(fusioncut.PartitionError, match="invoke_subgraph"):
        fusioncut.decide(region_joint(random_body=True, tag=CheckpointPolicy.MUST_RECOMPUTE)[0],
                         num_fwd_outputs=n)


def test_invoke_subgraph_with_pure_body_follows_annotation():
    gm, n = region_joint(tag=CheckpointPolicy.MUST_RECOMPUTE)
    decision = fusioncut.decide(gm, num_fwd_outputs=n)
    assert decision.policy.ban[node_named(decision.graph, "invoke_subgraph")] is None
    assert [decision.graph.nodes[j].name for j in decision.saved] == ["primals_2"]


def test_effectful_invoke_subgraph_threads_a_token_and_is_never_recomputed():
    gm, n = region_joint(token=True)
    decision = fusioncut.decide(gm, num_fwd_outputs=n)
    graph = decision.graph
    assert graph.value[node_named(graph, "primals_1")] == Value.TOKEN
    assert graph.value[node_named(graph, "getitem")] == Value.TOKEN  # output 0: the token
    assert graph.value[node_named(graph, "getitem_1")] == Value.TENSOR
    ban = decision.policy.ban[node_named(graph, "invoke_subgraph")]
    assert ban.kind is ReasonKind.EFFECTFUL
    assert [graph.nodes[j].name for j in decision.saved] == ["getitem_1"]
    gm, n = region_joint(token=True, tag=CheckpointPolicy.MUST_RECOMPUTE)
    with pytest.raises(fusioncut.PartitionError) as info:
        fusioncut.decide(gm, num_fwd_outputs=n)
    assert "invoke_subgraph" in str(info.value) and "effectful" in str(info.value)


def test_graph_safe_rng_state_inputs_of_a_region_are_not_operands():
    # torch threads fwd_rng_state_* placeholders of a partitioned region into its call sites
    # only after partitioning the outer graph: until then the subgraph has more inputs.
    gm, n = region_joint()
    body = gm.sub.graph
    first = next(iter(body.find_nodes(op="placeholder")))
    with body.inserting_after(first):
        _val(body.placeholder("fwd_rng_state_0"), torch.empty(2, dtype=torch.int64))
    gm.sub.recompile()
    assert fusioncut.decide(gm, num_fwd_outputs=n).saved.size == 1


def _collective_joint(tag) -> fx.GraphModule:
    g = fx.Graph()
    x = _val(g.placeholder("primals_1"), torch.empty(8))
    t = _val(g.placeholder("tangents_1"), torch.empty(8))
    ar = _val(g.call_function(torch.ops._c10d_functional.all_reduce.default, (x, "sum", "0")),
              torch.empty(8))
    wt = _val(g.call_function(torch.ops._c10d_functional.wait_tensor.default, (ar,)),
              torch.empty(8))
    out = _val(g.call_function(aten.sin.default, (wt,)), torch.empty(8))
    cos = _val(g.call_function(aten.cos.default, (wt,)), torch.empty(8))
    grad = _val(g.call_function(aten.mul.Tensor, (t, cos)), torch.empty(8))
    for node in (ar, wt):
        node.meta["recompute"] = tag
    g.output((out, grad))
    return fx.GraphModule(torch.nn.Module(), g)


def test_collective_annotated_must_recompute_is_a_partition_error_naming_it():
    with pytest.raises(fusioncut.PartitionError) as info:
        fusioncut.decide(_collective_joint(CheckpointPolicy.MUST_RECOMPUTE), num_fwd_outputs=1)
    message = str(info.value)
    assert "collective: _c10d_functional" in message and "MUST_RECOMPUTE" in message
    assert {n.name for n in info.value.nodes} & {"all_reduce_default", "wait_tensor_default"}


def test_collective_under_checkpoint_preference_is_saved_not_recomputed():
    decision = fusioncut.decide(_collective_joint(CheckpointPolicy.PREFER_RECOMPUTE),
                                num_fwd_outputs=1)
    names = [decision.graph.nodes[j].name for j in decision.saved]
    assert names == ["wait_tensor_default"]
    assert decision.dropped_preferences


def test_unknown_higher_order_op_falls_back_naming_it():
    g = fx.Graph()
    x = _val(g.placeholder("primals_1"), torch.empty(4))
    hop = _val(g.call_function(HOP.hints_wrapper, (x,)), (torch.empty(4),))
    g.output((hop, None))  # the backward returns no gradient
    gm = fx.GraphModule(torch.nn.Module(), g)
    expected = ("higher-order op torch.ops.higher_order.hints_wrapper (node hints_wrapper), "
                "whose effects fusioncut does not model")
    assert JointGraph.from_fx(gm, 1).unsupported == expected
    assert unsupported_construct(gm) == expected


# --- an invoke_subgraph call that disagrees with its region -------------------------------


@torch.compiler.nested_compile_region
def _block(x, w):
    return torch.relu(x @ w).sin()


def _outer_joint():
    from functorch.compile import make_boxed_func
    from torch._dynamo.backends.common import aot_autograd

    calls = []

    def record(gm, joint_inputs, **kwargs):
        calls.append((copy.deepcopy(gm), joint_inputs, kwargs))
        return fusioncut.partition(gm, joint_inputs, **kwargs)

    def nop(gm, _):
        return make_boxed_func(gm.forward)

    def model(x, w):
        return (_block(_block(x, w), w)).sum()

    torch._dynamo.reset()
    backend = aot_autograd(fw_compiler=nop, bw_compiler=nop, partition_fn=record)
    x, w = torch.randn(4, 8, requires_grad=True), torch.randn(8, 8, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error", fusioncut.FallbackWarning)
        torch.compile(model, backend=backend, fullgraph=True)(x, w)
    return calls[-1]


def test_invoke_subgraph_call_with_wrong_operand_shape_is_an_error_naming_it():
    gm, joint_inputs, kwargs = _outer_joint()
    node = next(n for n in gm.graph.find_nodes(op="call_function", target=HOP.invoke_subgraph)
                if n.args[1].startswith("partitioned_fw_"))
    x, w = node.args[2], node.args[3]
    assert tuple(x.meta["val"].shape) != tuple(w.meta["val"].shape)
    node.args = (*node.args[:2], w, w)  # the region expects (4, 8) first, gets (8, 8)
    with pytest.raises(ValueError) as info:
        fusioncut.partition(gm, joint_inputs, **kwargs)
    message = str(info.value)
    assert f"invoke_subgraph node {node.name!r}" in message
    assert "operand 0" in message and "(8, 8)" in message and "(4, 8)" in message
