"""The fast builder (``build_modules``) against torch's extraction (``build_modules_reference``).

Same placeholders and outputs in the same order, the same call_function targets, the same node
order, and the same numbers, on several joint graphs and saved sets.
"""

from __future__ import annotations

import copy

import pytest
import torch

from fusioncut import emit
from models import (
    GPT, MLP, ConvBN, EvoNormS0, GPTConfig, InPlace, LSTMUnrolled, MultiOutput,
    capture_joint, gpt_inputs,
)
from _partitioners import RULES, prepare_joint


def _cases():
    torch.manual_seed(0)
    cfg = GPTConfig(n_layer=2)
    return {
        "mlp": (MLP(), (torch.randn(4, 8, requires_grad=True),)),
        "gpt": (GPT(cfg), gpt_inputs(cfg)),
        "convbn": (ConvBN(), (torch.randn(2, 3, 5, 5),)),
        "evonorm": (EvoNormS0(), (torch.randn(2, 8, 3, 3, requires_grad=True),)),
        "lstm": (LSTMUnrolled(), (torch.randn(4, 3, 6),)),
        "inplace": (InPlace(), (torch.randn(3, 8, requires_grad=True),)),
        "multi_output": (MultiOutput(), (torch.randn(3, 8, requires_grad=True),)),
    }


@pytest.fixture(scope="module")
def captured():
    return {name: (capture_joint(None, *args, module=m), args) for name, (m, args) in _cases().items()}


def _signature(gm):
    placeholders = [n.name for n in gm.graph.find_nodes(op="placeholder")]
    outputs = [getattr(o, "name", o) for o in gm.graph.find_nodes(op="output")[0].args[0]]
    targets = sorted(str(n.target) for n in gm.graph.nodes if n.op == "call_function")
    return placeholders, outputs, targets


def _build_both(cap, rule):
    jm = prepare_joint(copy.deepcopy(cap.joint_module))
    saved, syms = RULES[rule](jm, cap.joint_inputs, cap.num_fwd_outputs)
    ref = emit.build_modules_reference(
        jm, list(saved), list(syms), num_fwd_outputs=cap.num_fwd_outputs
    )
    fast = emit.build_modules(jm, list(saved), list(syms), num_fwd_outputs=cap.num_fwd_outputs)
    return jm, ref, fast


def _run(fw, bw, cap, num_fwd_outputs):
    """Run forward then backward on the joint inputs (primals, tangents)."""
    primals, tangents = cap.joint_inputs
    fw_out = fw(*primals)
    saved = list(fw_out[num_fwd_outputs:])
    n_sym = sum(1 for p in bw.graph.find_nodes(op="placeholder")
                if isinstance(p.meta.get("val"), torch.SymInt))
    saved_tensors, saved_syms = saved[: len(saved) - n_sym], saved[len(saved) - n_sym:]
    bw_out = bw(*saved_syms, *saved_tensors, *tangents)
    return list(fw_out[:num_fwd_outputs]), list(bw_out)


def _real(x):
    if isinstance(x, torch.Tensor) and type(x).__name__ == "FakeTensor":
        return torch.randn(x.shape, dtype=x.dtype) if x.dtype.is_floating_point else torch.zeros(
            x.shape, dtype=x.dtype
        )
    return x


@pytest.mark.parametrize("rule", ["torch_choice", "save_all"])
@pytest.mark.parametrize("name", list(_cases()))
def test_emit_fast_matches_torch_extraction(captured, name, rule):
    cap, _ = captured[name]
    jm, (fw_ref, bw_ref), (fw, bw) = _build_both(cap, rule)
    assert _signature(fw) == _signature(fw_ref)
    assert _signature(bw) == _signature(bw_ref)
    # Same node order too (autograd-engine order in the backward, getitems raised).
    assert [n.name for n in fw.graph.nodes] == [n.name for n in fw_ref.graph.nodes]
    assert [n.name for n in bw.graph.nodes] == [n.name for n in bw_ref.graph.nodes]
    fw.graph.lint()
    bw.graph.lint()
    assert fw.graph.find_nodes(op="output")[0].meta["desc"] == fw_ref.graph.find_nodes(
        op="output"
    )[0].meta["desc"]
    assert all(n.meta.get("autograd_backward") for n in bw.graph.nodes if n.op == "call_function")


@pytest.mark.parametrize("name", ["mlp", "gpt", "evonorm", "lstm", "multi_output"])
def test_emit_fast_numerics_match_torch_extraction(captured, name):
    cap, args = captured[name]
    jm, (fw_ref, bw_ref), (fw, bw) = _build_both(cap, "torch_choice")
    primals, tangents = cap.joint_inputs
    torch.manual_seed(1)
    real = type(cap)(cap.joint_module, ([_real(p) for p in primals], [_real(t) for t in tangents]),
                     cap.num_fwd_outputs, None, {})
    # Integer inputs (token ids) must stay in range: use the ones the model was traced with.
    real_primals = [
        a if not a.dtype.is_floating_point else r
        for a, r in zip(_flat_primals(captured[name], primals), real.joint_inputs[0])
    ]
    real = type(cap)(cap.joint_module, (real_primals, real.joint_inputs[1]),
                     cap.num_fwd_outputs, None, {})
    out_ref, grads_ref = _run(fw_ref, bw_ref, real, cap.num_fwd_outputs)
    out, grads = _run(fw, bw, real, cap.num_fwd_outputs)
    for a, b in zip(out_ref + grads_ref, out + grads):
        if isinstance(a, torch.Tensor):
            torch.testing.assert_close(a, b, rtol=0, atol=0)
        else:
            assert a == b


def _flat_primals(entry, fake_primals):
    """Real tensors for the integer primals: the example inputs, matched by shape and dtype."""
    _, args = entry
    ints = [a for a in args if isinstance(a, torch.Tensor) and not a.dtype.is_floating_point]
    result = []
    for p in fake_primals:
        match = next((a for a in ints if a.shape == p.shape and a.dtype == p.dtype), None)
        result.append(match if match is not None else _real(p))
    return result


def test_emit_modules_are_lazy_and_still_run(captured):
    cap, _ = captured["mlp"]
    jm = prepare_joint(copy.deepcopy(cap.joint_module))
    saved, syms = RULES["torch_choice"](jm, cap.joint_inputs, cap.num_fwd_outputs)
    fw, bw = emit.build_modules(jm, saved, syms, num_fwd_outputs=cap.num_fwd_outputs)
    lazy = fw.__class__.__mro__
    assert any(c.__name__ == "_LazyGraphModule" for c in lazy)
    assert "def forward" in fw.code  # printing/reading the code generates it on demand
    assert "def forward" in bw.print_readable(print_output=False)


def test_emit_drops_saved_values_the_backward_never_reads(captured):
    cap, _ = captured["mlp"]
    jm = prepare_joint(copy.deepcopy(cap.joint_module))
    saved, syms = RULES["torch_choice"](jm, cap.joint_inputs, cap.num_fwd_outputs)
    primals = [p for p in jm.graph.find_nodes(op="placeholder") if "primals" in p.name]
    unused = [n for n in jm.graph.nodes if n.op == "call_function" and not n.users]
    fw, bw = emit.build_modules(
        jm, saved + primals[:1] + unused, syms, num_fwd_outputs=cap.num_fwd_outputs
    )
    fw_ref, bw_ref = emit.build_modules_reference(
        jm, saved + primals[:1] + unused, syms, num_fwd_outputs=cap.num_fwd_outputs
    )
    assert _signature(fw) == _signature(fw_ref)
    assert _signature(bw) == _signature(bw_ref)


def test_emit_rejects_nodes_of_another_graph(captured):
    cap, _ = captured["mlp"]
    other = copy.deepcopy(cap.joint_module)
    foreign = next(iter(other.graph.nodes))
    with pytest.raises(emit.EmitError, match=r"saved_values\[0\]"):
        emit.build_modules(cap.joint_module, [foreign], [], num_fwd_outputs=cap.num_fwd_outputs)


def test_emit_rejects_bad_num_fwd_outputs(captured):
    cap, _ = captured["mlp"]
    with pytest.raises(ValueError, match="num_fwd_outputs = 99"):
        emit.build_modules(cap.joint_module, [], [], num_fwd_outputs=99)


def test_emit_dynamic_shapes_saved_symints_match_torch_extraction():
    """With dynamic shapes the saved SymInts (and symbol bindings) follow torch's convention."""
    from functorch.compile import nop
    from torch._dynamo.backends.common import aot_autograd

    checked = []

    def partition_fn(joint_module, joint_inputs, *, num_fwd_outputs, **kwargs):
        jm = prepare_joint(joint_module)
        for rule in ("torch_choice", "save_all"):
            saved, syms = RULES[rule](jm, joint_inputs, num_fwd_outputs)
            ref = emit.build_modules_reference(
                jm, list(saved), list(syms), num_fwd_outputs=num_fwd_outputs
            )
            fast = emit.build_modules(jm, list(saved), list(syms), num_fwd_outputs=num_fwd_outputs)
            for a, b in zip(ref, fast):
                assert [n.name for n in a.graph.nodes] == [n.name for n in b.graph.nodes]
                assert _signature(a) == _signature(b)
            checked.append(len(syms))
        return fast

    def f(x, w):
        y = torch.tanh(x @ w)
        return (y * y.shape[0]).view(-1).sum() + y.mean(dim=0).sum()

    backend = aot_autograd(fw_compiler=nop, bw_compiler=nop, partition_fn=partition_fn)
    torch._dynamo.reset()
    compiled = torch.compile(f, backend=backend, dynamic=True)
    for n in (3, 5):
        x = torch.randn(n, 4, requires_grad=True)
        w = torch.randn(4, 4, requires_grad=True)
        compiled(x, w).backward()
        got = (x.grad.clone(), w.grad.clone())
        x.grad = w.grad = None
        f(x, w).backward()
        torch.testing.assert_close(got, (x.grad, w.grad), rtol=1e-5, atol=1e-6)
    assert checked and all(k > 0 for k in checked)
