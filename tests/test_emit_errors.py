"""Emission refuses what it cannot make correct, and the torch boundary fails clearly."""

from __future__ import annotations

import subprocess
import sys

import pytest
import torch

from fusioncut import _torch_compat, emit
from fusioncut.fallback import describe_node
from models import DropoutMLP, capture_joint


@pytest.fixture(scope="module")
def dropout_joint():
    torch.manual_seed(0)
    return capture_joint(None, torch.randn(4, 8, requires_grad=True), module=DropoutMLP())


def test_emit_refuses_to_recompute_an_untagged_random_op(dropout_joint):
    """Saving only the primals forces the backward to redo the dropout: a different mask."""
    cap = dropout_joint
    primals = [p for p in cap.joint_module.graph.find_nodes(op="placeholder")
               if p.name.startswith("primals")]
    for build in (emit.build_modules, emit.build_modules_reference):
        with pytest.raises(emit.EmitError, match="would run in both the forward and the backward"):
            build(cap.joint_module, primals, [], num_fwd_outputs=cap.num_fwd_outputs)


def test_torch_compat_missing_symbol_names_version_and_symbol():
    with pytest.raises(ImportError) as info:
        _torch_compat._require("torch._functorch.partitioners", "no_such_helper")
    message = str(info.value)
    assert torch.__version__ in message
    assert "torch._functorch.partitioners.no_such_helper" in message


def test_torch_compat_too_old_torch_is_refused_at_use():
    with pytest.raises(ImportError, match=r"needs torch>=99\.0"):
        _torch_compat._require("torch", "nn", since=(99, 0))


def test_importing_fusioncut_does_not_import_torch():
    code = "import sys, fusioncut; assert 'torch' not in sys.modules; fusioncut.FallbackWarning"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_describe_node_names_op_and_node(dropout_joint):
    graph = dropout_joint.joint_module.graph
    node = next(n for n in graph.nodes if n.op == "call_function" and "addmm" in n.name)
    assert describe_node("op", node) == f"op torch.ops.aten.addmm.default (node {node.name!r})"


def test_emit_reports_a_saved_set_that_does_not_split_the_graph(dropout_joint):
    """Nothing saved, but the backward needs forward values: a clear EmitError."""
    cap = dropout_joint
    with pytest.raises(emit.EmitError, match="does not split this joint graph"):
        emit.build_modules(cap.joint_module, [], [], num_fwd_outputs=cap.num_fwd_outputs)


def test_emit_copies_keep_node_meta(dropout_joint):
    cap = dropout_joint
    joint = {n.name: n for n in cap.joint_module.graph.nodes}
    from _partitioners import RULES

    saved, syms = RULES["save_all"](cap.joint_module, cap.joint_inputs, cap.num_fwd_outputs)
    fw, bw = emit.build_modules(
        cap.joint_module, saved, syms, num_fwd_outputs=cap.num_fwd_outputs
    )
    for gm in (fw, bw):
        for node in gm.graph.nodes:
            if node.op in ("call_function", "placeholder"):
                original = joint[node.name]
                assert node.meta.get("val") is original.meta.get("val")
                assert node.meta is not original.meta  # the joint graph stays untouched
        for node in gm.graph.nodes:  # the find_nodes index knows every copied node
            if node.op == "call_function":
                assert node in gm.graph.find_nodes(op="call_function", target=node.target)
