"""Rules of torch's partitioner that changed between releases, followed where the installed
torch has them (``_torch_compat.follows_*`` and friends), and the declared torch range.

Each test states what holds on every version and what only from the release that brought
the rule; the compatibility job (``scripts/compat.sh``) runs them on the newest release.
"""

from __future__ import annotations

import logging
import subprocess
import sys
import warnings

import pytest
import torch
import torch.fx as fx
import torch.nn.functional as F
from functorch.compile import aot_function, make_boxed_func
from torch._dynamo.backends.common import aot_autograd

import fusioncut
from fusioncut import _torch_compat
from fusioncut.graph import Value, _value_kind
from fusioncut.policy import ReasonKind

VERSION = _torch_compat.torch_version()


def _nop(gm, _):
    return make_boxed_func(gm.forward)


class Capture:
    """A partition_fn that runs ``fusioncut.partition`` (optionally after editing the joint
    graph) and keeps the joint graph and the modules."""

    def __init__(self, edit=None, **options):
        self.edit, self.options, self.calls = edit, options, []

    def __call__(self, gm, joint_inputs, **kwargs):
        if self.edit is not None:
            self.edit(gm)
        fw, bw = fusioncut.partition(gm, joint_inputs, **kwargs, **self.options)
        self.calls.append((gm, kwargs, fw, bw))
        return fw, bw


def _saved(fw, n):
    return [o.name for o in fw.graph.find_nodes(op="output")[0].args[0][n:]]


def _grads_match(fn, shapes, partition_fn, *, dynamo=False):
    leaves = [torch.randn(*s, requires_grad=True) for s in shapes]
    refs = [t.detach().clone().requires_grad_() for t in leaves]
    with warnings.catch_warnings():
        warnings.simplefilter("error", fusioncut.FallbackWarning)
        if dynamo:
            torch._dynamo.reset()
            backend = aot_autograd(fw_compiler=_nop, bw_compiler=_nop, partition_fn=partition_fn)
            torch.compile(fn, backend=backend)(*leaves).backward()
        else:
            aot_function(fn, _nop, _nop, partition_fn=partition_fn)(*leaves).backward()
    fn(*refs).backward()
    for a, b in zip(leaves, refs):
        torch.testing.assert_close(a.grad, b.grad)


# --- the declared range -------------------------------------------------------------------


def test_torch_compat_declares_the_range_pyproject_declares():
    assert _torch_compat.supported_range() == "torch>=2.8,<2.16"
    assert _torch_compat.is_supported_torch()


def test_torch_compat_warns_at_import_outside_the_supported_range():
    code = (
        "import warnings; warnings.simplefilter('always')\n"
        "import torch; torch.__version__ = '2.16.0'\n"
        "import fusioncut, numpy as np\n"
        "fusioncut.min_cut(2, np.array([0]), np.array([1]), np.array([3]), 0, 1)\n"
        "print('solver ok')\n"
        "import fusioncut.partitioner\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    assert "solver ok" in out.stdout
    lines = [ln for ln in out.stderr.splitlines() if "TorchVersionWarning" in ln]
    assert len(lines) == 1, out.stderr
    assert "torch 2.16.0 is installed" in lines[0] and "torch>=2.8,<2.16" in lines[0]


def test_torch_compat_is_silent_on_a_supported_torch():
    with warnings.catch_warnings():
        warnings.simplefilter("error", _torch_compat.TorchVersionWarning)
        assert _torch_compat.check_torch_version()


def test_is_opaque_object_logs_no_deprecation(caplog):
    # torch 2.14 renamed is_opaque_value (which then logs on every call).
    with caplog.at_level(logging.DEBUG, logger="torch._library"):
        assert not _torch_compat.is_opaque_object()(torch.zeros(1))
        assert not _torch_compat.is_opaque_object()(object())
    assert not [r for r in caplog.records if "deprecated" in r.getMessage()]


# --- SDPA with dropout_p = 0 (torch 2.14) --------------------------------------------------


def _attention(q, k, v):
    return F.scaled_dot_product_attention(q, k, v, dropout_p=0.0).tanh().sum()


def _attention_stack(x):
    for _ in range(4):
        x = F.scaled_dot_product_attention(x, x, x, dropout_p=0.0).tanh()
    return x.sum()


def test_sdpa_without_dropout_is_random_only_before_2_14():
    capture = Capture()
    _grads_match(_attention, [(2, 2, 8, 4)] * 3, capture)
    joint, kwargs, _, _ = capture.calls[0]
    decision = fusioncut.decide(joint, num_fwd_outputs=kwargs["num_fwd_outputs"])
    sdpa = [i for i, nd in enumerate(decision.graph.nodes)
            if "scaled_dot_product" in str(nd.target) and "backward" not in str(nd.target)]
    assert sdpa
    kinds = {decision.policy.ban[i].kind for i in sdpa}
    if _torch_compat.follows_sdpa_dropout_rule():
        assert kinds == {ReasonKind.COMPUTE_INTENSIVE}
    else:
        assert kinds == {ReasonKind.RANDOM}


@pytest.mark.skipif(not _torch_compat.follows_sdpa_dropout_rule(),
                    reason=f"torch {torch.__version__} treats every SDPA as random (2.14+ not)")
def test_sdpa_without_dropout_is_recomputed_under_a_zero_budget():
    # A zero budget lifts the compute-intensive ban: the attention may run in both graphs
    # now that it draws nothing, and no RNG state is threaded for it. Four stacked attentions,
    # so that recomputing them lowers the step's peak (a plan that does not buys nothing).
    capture = Capture(options=fusioncut.Options(memory_budget=0.0))
    _grads_match(_attention_stack, [(2, 2, 8, 4)], capture)
    _, _, fw, bw = capture.calls[0]
    in_bw = [n for n in bw.graph.nodes if "scaled_dot_product" in str(n.target)
             and "backward" not in str(n.target)]
    assert in_bw, "the attention was not recomputed"
    assert not any("rng" in str(n.target) for n in bw.graph.nodes)


# --- torch.device values (torch 2.15) ------------------------------------------------------


def _device_in_backward(gm: fx.GraphModule) -> None:
    """A forward node reading the device of an input, used by a backward factory op (what
    compile-on-one-rank's current_device() node looks like)."""
    graph = gm.graph
    primal = next(n for n in graph.nodes if n.op == "placeholder")
    out = graph.find_nodes(op="output")[0]
    grad = out.args[0][-1]
    with graph.inserting_after(primal):
        dev = graph.call_function(torch.ops.prim.device.default, (primal,))
        dev.meta["val"] = primal.meta["val"].device
    with graph.inserting_before(out):
        zeros = graph.call_function(torch.ops.aten.zeros.default, (list(grad.meta["val"].shape),),
                                    {"device": dev})
        zeros.meta["val"] = torch.empty_like(grad.meta["val"])
        total = graph.call_function(torch.ops.aten.add.Tensor, (grad, zeros))
        total.meta["val"] = grad.meta["val"]
    out.args = ((*out.args[0][:-1], total),)
    graph.lint()
    gm.recompile()


def _mlp(x, w):
    return (x @ w).tanh().sum()


@pytest.mark.skipif(not _torch_compat.device_values_are_free(),
                    reason=f"torch {torch.__version__} cannot size a torch.device (2.15+ can)")
def test_device_value_is_recomputed_never_saved():
    assert _value_kind(torch.device("cpu")) == Value.DEVICE
    capture = Capture(edit=_device_in_backward)
    _grads_match(_mlp, [(4, 8), (8, 8)], capture)
    _, kwargs, fw, bw = capture.calls[0]
    assert not any(name.startswith("device") for name in _saved(fw, kwargs["num_fwd_outputs"]))
    assert bw.graph.find_nodes(op="call_function", target=torch.ops.prim.device.default)


@pytest.mark.skipif(_torch_compat.device_values_are_free(),
                    reason="torch 2.15+ sizes torch.device values")
def test_device_value_falls_back_before_2_15():
    assert _value_kind(torch.device("cpu")) == Value.OPAQUE
    with pytest.warns(fusioncut.FallbackWarning, match="device"):
        aot_function(_mlp, _nop, _nop, partition_fn=Capture(edit=_device_in_backward))(
            torch.randn(4, 8, requires_grad=True), torch.randn(8, 8, requires_grad=True))


# --- an input mutated after the forward (torch 2.15 marks it) -------------------------------


def _mutates_input(x, w):
    y = x + w
    x.mul_(2)
    return (y.sin() * x).sum()


def test_input_mutated_after_forward_is_never_saved():
    seen = []

    def capture(gm, joint_inputs, **kwargs):
        seen.append([n.name for n in gm.graph.nodes
                     if n.meta.get("aot_runtime_epilogue_input_mutation")])
        fw, bw = fusioncut.partition(gm, joint_inputs, **kwargs)
        seen.append(_saved(fw, kwargs["num_fwd_outputs"]))
        return fw, bw

    a, w = torch.randn(4, requires_grad=True), torch.randn(4, requires_grad=True)
    a2, w2 = (t.detach().clone().requires_grad_() for t in (a, w))
    torch._dynamo.reset()
    backend = aot_autograd(fw_compiler=_nop, bw_compiler=_nop, partition_fn=capture)
    torch.compile(_mutates_input, backend=backend)(a * 1, w).backward()
    _mutates_input(a2 * 1, w2).backward()
    torch.testing.assert_close(a.grad, a2.grad)
    torch.testing.assert_close(w.grad, w2.grad)
    flagged, saved_names = seen
    if VERSION >= (2, 15):
        assert flagged == ["primals_1"]
    assert not set(flagged) & set(saved_names)


def test_input_mutated_after_forward_that_the_backward_reads_is_a_partition_error():
    capture = Capture()
    _grads_match(lambda x, w: (x * w).sum(), [(4,), (4,)], capture)
    joint, kwargs, _, _ = capture.calls[0]
    primal = next(n for n in joint.graph.nodes if n.op == "placeholder")
    primal.meta["aot_runtime_epilogue_input_mutation"] = True
    with pytest.raises(fusioncut.PartitionError, match="input mutation replayed after the "
                                                       "forward"):
        fusioncut.decide(joint, num_fwd_outputs=kwargs["num_fwd_outputs"])


# --- primals stamped is_static_input (torch 2.15) ------------------------------------------


def test_primal_placeholders_carry_is_static_input_from_2_15():
    capture = Capture()
    _grads_match(_mlp, [(4, 8), (8, 8)], capture)
    joint, kwargs, _, _ = capture.calls[0]
    n = kwargs["num_fwd_outputs"]
    fw, bw = fusioncut.partition(joint, [], num_fwd_outputs=n, static_lifetime_input_indices=[1])
    stamped = {p.name: p.meta.get("is_static_input")
               for m in (fw, bw) for p in m.graph.find_nodes(op="placeholder")
               if p.name.startswith("primals")}
    if _torch_compat.stamps_static_inputs():
        assert stamped == {"primals_1": False, "primals_2": True}
    else:
        assert set(stamped.values()) == {None}
    joint_meta = [p.meta.get("is_static_input") for p in joint.graph.find_nodes(op="placeholder")]
    assert set(joint_meta) == {None}, "the joint graph must not be modified"


# --- symbols bound in the backward (torch 2.14) ---------------------------------------------


def test_backward_symbols_match_torch_extraction_under_dynamic_shapes():
    """The backward's saved SymInts are torch's own (which binds the unreplaced symbols too
    from 2.14) for a graph whose sizes are symbolic."""

    def fn(x, w):
        return (torch.cat([x, x[:1]]) @ w).tanh().sum()

    capture = Capture()
    x, w = torch.randn(6, 8, requires_grad=True), torch.randn(8, 8, requires_grad=True)
    torch._dynamo.reset()
    backend = aot_autograd(fw_compiler=_nop, bw_compiler=_nop, partition_fn=capture)
    compiled = torch.compile(fn, backend=backend, dynamic=True)
    compiled(x, w).backward()
    joint, kwargs, fw, bw = capture.calls[0]
    decision = fusioncut.decide(joint, num_fwd_outputs=kwargs["num_fwd_outputs"])
    ref_fw, ref_bw = fusioncut.emit.build_modules_reference(
        joint, decision.saved_values, decision.saved_sym_nodes,
        num_fwd_outputs=kwargs["num_fwd_outputs"])

    def sym_inputs(bw_module):
        return [p.name for p in bw_module.graph.find_nodes(op="placeholder")
                if isinstance(p.meta.get("val"), torch.SymInt)]

    assert sym_inputs(bw) == sym_inputs(ref_bw)

