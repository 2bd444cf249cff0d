"""torch defects fusioncut works around (``_torch_compat``): on torch 2.11 the side-stream
offload pass emits ``streams::record_stream``, whose fake implementation takes other arguments
than the op, so compiling any offload on a side stream fails (found on an H200 with
2.11.0+cu130). The probe runs the op on a fake tensor; where it fails, fusioncut plans and emits
synchronous copies, with a ``TorchDefectWarning``, instead of handing torch a graph it cannot
compile. The installed torch has no such defect, so the tests stage one."""

from __future__ import annotations

import itertools
import re

import pytest
import torch
from functorch.compile import aot_function

import fusioncut
from fusioncut import _torch_compat, _torch_offload
from fusioncut.options import Options
from models import boxed, tagged_copy

pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning")
DEVICE_PUT = torch.ops.prims.device_put.default
_SERIAL = itertools.count()


@torch.library.custom_op("fusioncut_test::mismatched_fake", mutates_args=())
def _mismatched(x: torch.Tensor, index: int) -> None:
    pass


@_mismatched.register_fake
def _(index: int, other: int, x: torch.Tensor) -> None:  # the 2.11 shape of the defect
    pass


@torch.library.custom_op("fusioncut_test::matching_fake", mutates_args=())
def _matching(x: torch.Tensor, index: int) -> None:
    pass


@_matching.register_fake
def _(x: torch.Tensor, index: int) -> None:
    pass


def test_the_probe_names_the_op_and_the_torch_version():
    fault = _torch_offload.fake_call_fault(torch.ops.fusioncut_test.mismatched_fake.default,
                                          lambda t: (t, 0))
    assert fault is not None
    assert "fusioncut_test.mismatched_fake.default" in fault
    assert torch.__version__ in fault and "missing 1 required positional argument" in fault
    assert _torch_offload.fake_call_fault(torch.ops.fusioncut_test.matching_fake.default,
                                         lambda t: (t, 0)) is None


def test_the_installed_torch_compiles_its_side_stream():
    assert _torch_offload.side_stream_fault() is None


@pytest.fixture
def defect(monkeypatch):
    """This torch as if its side stream could not compile; a fresh message per test (the
    warning is given once per message)."""
    message = f"torch {torch.__version__}: a staged defect #{next(_SERIAL)}"
    monkeypatch.setattr(_torch_offload, "side_stream_fault", lambda: message)
    return message


def _fn(x, w):
    a = torch.mm(x, w)
    return (a.sin() * x).sum() + a.cos().sum()


def _train(partition_fn=None):
    g = torch.Generator().manual_seed(0)
    x, w = (torch.randn(8, 8, generator=g).requires_grad_() for _ in range(2))
    out = _fn(x, w) if partition_fn is None else aot_function(
        _fn, boxed, boxed, partition_fn=partition_fn)(x, w)
    out.backward()
    return x.grad, w.grad


STREAM = dict(enable_activation_offloading=True, activation_offload_separate_stream=True)


def test_settings_report_synchronous_copies_with_one_warning(defect):
    with _torch_compat.functorch_config().patch(**STREAM):
        with pytest.warns(_torch_offload.TorchDefectWarning, match="a staged defect.*synchronous"):
            assert _torch_offload.offload_settings().separate_stream is False
        assert _torch_offload.offload_settings().enabled
    assert _torch_offload.offload_settings().separate_stream is False  # the flag is off here


@pytest.mark.parametrize("how", ["partition", "annotating"])
def test_side_stream_on_a_defective_torch_trains_with_synchronous_copies(defect, how):
    """On the CPU a side stream is refused (it needs an accelerator); on a torch that cannot
    compile one, the copies are synchronous instead, and the gradients are eager's."""
    forwards = []

    def partition_fn(gm, joint_inputs, **kwargs):
        gm = tagged_copy(gm, "mm", "mark")
        if how == "annotating":
            fw, bw = fusioncut.AnnotatingPartitioner()(gm, joint_inputs, **kwargs)
        else:
            fw, bw = fusioncut.partition(gm, joint_inputs, options=Options(offload="tagged"),
                                         **kwargs)
        forwards.append(fw)
        return fw, bw

    eager = _train()
    with _torch_compat.functorch_config().patch(**STREAM), \
            pytest.warns(_torch_offload.TorchDefectWarning, match=re.escape(defect)):
        grads = _train(partition_fn)
    for mine, ref in zip(grads, eager):
        torch.testing.assert_close(mine, ref)
    fw, = forwards
    moved = [n.args[0].name for n in fw.graph.find_nodes(op="call_function", target=DEVICE_PUT)]
    assert "mm" in moved
    assert not fw.graph.find_nodes(op="call_function", target=torch.ops.ao.offload.default)
