"""Which forward nodes may not be recomputed, and the reason each ban gives."""

from __future__ import annotations

import copy

import pytest
import torch
import torch.nn.functional as F

import fusioncut
from fusioncut.graph import JointGraph, Role
from fusioncut.ops import OpKind, classify
from fusioncut.options import Options
from fusioncut.policy import ReasonKind, analyze

from test_policy_annotations import capture, leaves

aten = torch.ops.aten


@pytest.mark.parametrize("op", [
    aten.detach.default, aten.view.default, aten.alias.default, aten.t.default,
    aten.transpose.int, aten.permute.default, aten.expand.default, aten.squeeze.dim,
    aten.unsqueeze.default, aten.slice.Tensor, aten.select.int, aten._unsafe_view.default,
])
def test_ops_aliasing_ops_are_views(op):
    assert classify("call_function", op) is OpKind.VIEW


@pytest.mark.parametrize("op,kind", [
    (aten.tanh.default, OpKind.POINTWISE), (aten.gelu_backward.default, OpKind.POINTWISE),
    (aten._to_copy.default, OpKind.POINTWISE), (aten.sum.dim_IntList, OpKind.REDUCTION),
    (aten._softmax.default, OpKind.REDUCTION), (aten.cat.default, OpKind.CAT),
    (aten.mm.default, OpKind.COMPUTE_INTENSIVE), (aten.convolution.default,
                                                  OpKind.COMPUTE_INTENSIVE),
    (aten.rand_like.default, OpKind.RANDOM), (aten.native_dropout.default, OpKind.RANDOM),
    (aten.bernoulli.p, OpKind.RANDOM), (aten.copy_.default, OpKind.MUTATING),
    (aten.native_layer_norm.default, OpKind.OTHER),
    (torch.ops._c10d_functional.all_gather_into_tensor.default, OpKind.COLLECTIVE),
    (torch.ops._c10d_functional.wait_tensor.default, OpKind.COLLECTIVE),
    (torch.ops.higher_order.cond, OpKind.HIGHER_ORDER),
])
def test_ops_kind_of(op, kind):
    assert classify("call_function", op) is kind


def analyzed(fn, *args, options=Options()):
    gm, n = capture(fn, *args)
    graph = JointGraph.from_fx(gm, n)
    return graph, analyze(graph, options)


def ban_of(graph, policy, name):
    return policy.ban[[x.name for x in graph.nodes].index(name)]


def test_ban_reduction_with_small_output():
    graph, policy = analyzed(lambda x: (x * x.sum(-1, keepdim=True)).sin(), *leaves((8, 8)))
    reason = ban_of(graph, policy, "sum_1")
    assert reason.kind is ReasonKind.REDUCTION
    assert str(reason).startswith("reduction: aten.sum output has 8 elements, its inputs 64")


def test_ban_dtype_narrowing_is_not_a_reduction():
    graph, policy = analyzed(lambda x: x.cos() * (x > 0.5), *leaves((8, 8)))
    assert ban_of(graph, policy, "gt") is None


def test_ban_materialized_in_backward_looks_through_views():
    # cos feeds the backward matmul (through t): recomputing it would not save its write.
    graph, policy = analyzed(lambda x, w: x.cos() @ w, *leaves((4, 8), (8, 8)))
    reason = ban_of(graph, policy, "cos")
    assert reason.kind is ReasonKind.MATERIALIZED_IN_BACKWARD
    assert "aten.mm" in str(reason)
    _, policy_mem = analyzed(lambda x, w: x.cos() @ w, *leaves((4, 8), (8, 8)),
                             options=Options(mode="memory"))
    assert ban_of(graph, policy_mem, "cos") is None


def test_ban_views_never_block_a_fused_chain():
    graph, policy = analyzed(lambda x: x.tanh().tanh(), *leaves((8,)))
    banned = [x.name for x, r in zip(graph.nodes, policy.ban) if r is not None]
    assert banned == ["primals_1"]
    assert str(policy.ban[0]) == "graph input: primals_1"


def test_ban_compute_intensive_random_and_not_fusible():
    torch.manual_seed(0)
    graph, policy = analyzed(
        lambda x, w: F.dropout(F.layer_norm(x @ w, (8,)), p=0.5, training=True),
        *leaves((4, 8), (8, 8)))
    assert str(ban_of(graph, policy, "mm")) == "compute-intensive: aten.mm"
    assert str(ban_of(graph, policy, "native_dropout")) == "random: aten.native_dropout"
    assert str(ban_of(graph, policy, "native_layer_norm")) == \
        "not fusible: aten.native_layer_norm"
    _, mem = analyzed(lambda x, w: F.layer_norm(x @ w, (8,)).sin(), *leaves((4, 8), (8, 8)),
                      options=Options(mode="memory"))
    assert ban_of(graph, mem, "native_layer_norm") is None


def test_ban_roles_and_dead_code():
    gm, n = capture(lambda x: x.sin().cos(), *leaves((8,)))
    sin = next(x for x in gm.graph.nodes if x.name == "sin")
    with gm.graph.inserting_after(sin):  # a dead backward-looking use of a forward value
        tangent = next(x for x in gm.graph.nodes if x.name == "tangents_1")
        dead = gm.graph.call_function(aten.mul.Tensor, (sin, tangent))
        dead.meta["val"] = sin.meta["val"]
    graph = JointGraph.from_fx(gm, n)
    roles = {x.name: Role(int(r)) for x, r in zip(graph.nodes, graph.role)}
    assert roles["primals_1"] is Role.PRIMAL and roles["tangents_1"] is Role.TANGENT
    assert roles["sin"] is Role.FORWARD and roles[dead.name] is Role.DEAD
    d = fusioncut.decide(copy.deepcopy(gm), num_fwd_outputs=n)
    assert [x.name for x in d.saved_nodes] == ["primals_1"]
