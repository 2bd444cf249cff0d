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
