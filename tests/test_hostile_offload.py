"""Hostile input to offloading (phase 1): ``Options(offload=...)``, ``Device(host_bandwidth=...,
offload_hidden=...)``, ``MUST_CPU_OFFLOAD`` / ``PREFER_CPU_OFFLOAD`` / ``meta["should_offload"]``
on every kind of node, torch's ``enable_activation_offloading`` and its side stream on a CPU.

- options and profiles: every bad value named with its range;
- tags on every kind of node (inputs, tangents, views, getitems, a random op, its tuple, a
  non-contiguous value, a forward output, backward nodes), in every mode: a ``MUST_CPU_OFFLOAD``
  the rule refuses is an ``OffloadError`` naming the node, anything else trains to eager's
  gradients, and what moves is a subset of what the rule allows;
- ``AnnotatingPartitioner`` with offloading: annotate overwrote ``MUST_CPU_OFFLOAD`` with
  ``MUST_SAVE`` and marked nothing, so ``Options(offload="tagged")`` moved nothing; a mark on an
  input with torch's side stream on a CPU failed at run time ("Accelerator expected"): now the
  chosen values move, and the side stream on a CPU is refused by name before anything runs;
- the transfer prices (``offload.exposed_seconds`` and its kin) took negative, NaN, 10**400 and
  string byte counts and an overlap of any type: now a ``ValueError`` / ``TypeError`` naming the
  function and the argument.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import math

import pytest
import torch
import torch.nn.functional as F
from functorch.compile import aot_function
from torch.utils.checkpoint import CheckpointPolicy as CP

import fusioncut
from fusioncut import _torch_compat
from fusioncut.device import PRESETS, Device
from fusioncut.offload import OffloadError, exposed_byte_equivalents, exposed_seconds, \
    transfer_seconds
from fusioncut.options import Options
from models import boxed, tagged_copy

pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning")
DEVICE_PUT = torch.ops.prims.device_put.default
H100 = PRESETS["h100"]


def _fn(x, w):
    a = torch.mm(x, w)
    b = x.t() * 2.0  # not contiguous
    r = torch.rand_like(a)
    return (F.dropout(a, 0.5, True) * b.t() * r).sin().sum(), a.view(-1).cos()


def _inputs():
    g = torch.Generator().manual_seed(0)
    return (torch.randn(8, 8, generator=g).requires_grad_(),
            torch.randn(8, 8, generator=g).requires_grad_())


def _train(partition_fn=None):
    x, w = _inputs()
    torch.manual_seed(1)
    if partition_fn is None:
        out = _fn(x, w)
    else:
        out = aot_function(_fn, boxed, boxed, partition_fn=partition_fn)(x, w)
    (out[0] + out[1].sum()).backward()
    return x.grad, w.grad


@pytest.fixture(scope="module")
def eager():
    return _train()


@pytest.fixture(scope="module")
def joint():
    found = []

    def record(gm, joint_inputs, **kwargs):
        found.append((copy.deepcopy(gm), kwargs["num_fwd_outputs"]))
        return fusioncut.partition(gm, joint_inputs, **kwargs)

    _train(record)
    return found[0]


# --- options and profiles ------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["TAGGED", " tagged", "", b"tagged", ["tagged"], 1, 0.0,
                                   False, Options])
def test_options_offload_names_the_valid_modes(value):
    with pytest.raises(ValueError, match=r"^Options: offload = .* is invalid; expected None or "
                                         r"one of 'never', 'tagged', 'auto'$"):
        Options(offload=value)


@pytest.mark.parametrize("field, value", [
    ("host_bandwidth", 10**400), ("host_bandwidth", True), ("host_bandwidth", 1e19),
    ("host_bandwidth", 0.5), ("host_bandwidth", -math.inf), ("host_bandwidth", [5e10]),
    ("offload_hidden", 10**400), ("offload_hidden", True), ("offload_hidden", "0.5"),
    ("offload_hidden", None), ("offload_hidden", 1 + 1e-9), ("offload_hidden", -1e-300),
])
def test_device_host_link_fields_name_their_range(field, value):
    with pytest.raises(ValueError) as info:
        dataclasses.replace(H100, **{field: value})
    text = str(info.value)
    assert text.startswith(f"Device: {field} = ") and "is invalid; expected" in text
    assert "[1, 1e+18]" in text if field == "host_bandwidth" else "[0, 1]" in text
    assert len(text) < 200


@pytest.mark.parametrize("field, value", [("host_bandwidth", "fast"), ("host_bandwidth", 1e400),
                                          ("offload_hidden", 2), ("offload_hidden", [0.5])])
def test_a_profile_with_a_bad_host_link_names_the_profile_and_field(tmp_path, field, value):
    path = tmp_path / "gpu.json"
    path.write_text(json.dumps({**H100.to_dict(), field: value}))
    for load in (lambda: Device.load(path), lambda: Options(device=str(path))):
        with pytest.raises(ValueError) as info:
            load()
        assert "gpu.json" in str(info.value) and f"{field} = " in str(info.value)


class _FsPath:
    def __init__(self, value):
        self.value = value

    def __fspath__(self):
        return self.value


@pytest.mark.parametrize("device, needle", [
    (_FsPath(b"/no/such/gpu.json"), "Options: device = '/no/such/gpu.json': the profile does "
                                    "not exist"),  # was a TypeError from str.endswith
    (_FsPath(3), "Options: device = <test_hostile_offload._FsPath object at "),
    ("h" * 10_000, "Options: device = 'hhhhhhhhhh"),
    ({"h100": 1}, "Options: device = {'h100': 1} is invalid; expected None, a preset name"),
])
def test_device_values_of_every_kind_are_named(device, needle):
    with pytest.raises(ValueError) as info:
        Options(device=device)
    assert str(info.value).startswith(needle) and len(str(info.value)) < 300
    if isinstance(device, _FsPath) and device.value == 3:
        assert str(info.value).endswith("is invalid; its __fspath__ returns no path")


def test_a_bytes_device_path_is_a_path():
    assert Options(device=b"h100").device is H100


# --- tags on every kind of node --------------------------------------------------------------------


KINDS = {  # node: why the rule keeps it on the device (None: it may go)
    "mm": None, "primals_1": "graph input", "tangents_1": "graph input",
    "t": "view", "getitem": "getitem", "native_dropout": "not a tensor", "mul": "not contiguous",
    "rand_like": "random", "cos": "forward output", "sin": None, "mm_1": "backward",
}


@pytest.mark.parametrize("name", sorted(KINDS))
@pytest.mark.parametrize("tag", [CP.MUST_CPU_OFFLOAD, CP.PREFER_CPU_OFFLOAD, "mark"],
                         ids=["MUST", "PREFER", "mark"])
@pytest.mark.parametrize("mode", ["tagged", "auto", "never"])
def test_offload_tags_on_every_kind_of_node(joint, name, tag, mode):
    gm, n = joint
    options = Options(offload=mode)
    try:
        decision = fusioncut.decide(tagged_copy(gm, name, tag), num_fwd_outputs=n, options=options)
    except OffloadError as e:
        assert tag is CP.MUST_CPU_OFFLOAD and mode != "never" and KINDS[name] is not None
        assert [x.name for x in e.nodes] == [name] and f"  {name} (" in str(e)
        assert "Offloadable is a contiguous tensor the forward computes" in str(e)
        return
    moved = {x.name for x in decision.offloaded_nodes}
    assert moved <= ({name} if mode != "never" and KINDS[name] is None else set())
    if name == "mm" and mode != "never":  # saved by every plan: it goes
        assert moved == {"mm"}
    assert (decision.offload is None) == (mode == "never")


@pytest.mark.parametrize("tag", [CP.MUST_CPU_OFFLOAD, CP.PREFER_CPU_OFFLOAD, "mark"],
                         ids=["MUST", "PREFER", "mark"])
@pytest.mark.parametrize("how", ["Options", "torch flag"])
def test_offloaded_values_train_to_eager_gradients(eager, tag, how):
    outs = []

    def partition_fn(gm, joint_inputs, **kwargs):
        gm = tagged_copy(gm, "mm", tag)
        options = Options(offload="tagged") if how == "Options" else None
        fw, bw = fusioncut.partition(gm, joint_inputs, options=options, **kwargs)
        outs.append(fw)
        return fw, bw

    flag = how == "torch flag"
    with _torch_compat.functorch_config().patch(enable_activation_offloading=flag):
        grads = _train(partition_fn)
    for mine, ref in zip(grads, eager):
        torch.testing.assert_close(mine, ref)
    assert outs[0].graph.find_nodes(op="call_function", target=DEVICE_PUT)


# --- AnnotatingPartitioner ----------------------------------------------------------------------


@pytest.mark.parametrize("tag", [CP.MUST_CPU_OFFLOAD, CP.PREFER_CPU_OFFLOAD, "mark"],
                         ids=["MUST", "PREFER", "mark"])
@pytest.mark.parametrize("options", [Options(offload="tagged"), None],
                         ids=["Options", "torch flag"])
def test_annotating_partitioner_moves_what_fusioncut_offloads(eager, tag, options):
    outs = []

    def partition_fn(gm, joint_inputs, **kwargs):
        gm = tagged_copy(gm, "mm", tag)
        fw, bw = fusioncut.AnnotatingPartitioner(options)(gm, joint_inputs, **kwargs)
        outs.append((gm, fw))
        return fw, bw

    with _torch_compat.functorch_config().patch(enable_activation_offloading=options is None):
        grads = _train(partition_fn)
    for mine, ref in zip(grads, eager):
        torch.testing.assert_close(mine, ref)
    (gm, fw), = outs
    marked = [x.name for x in gm.graph.nodes if x.meta.get("should_offload")]
    assert marked == ["mm"]
    moved = [x.args[0].name for x in fw.graph.find_nodes(op="call_function", target=DEVICE_PUT)]
    assert moved == ["mm"]


@pytest.mark.parametrize("name", ["mm", "primals_1"])
def test_side_stream_on_a_cpu_is_refused_before_anything_runs(joint, name):
    gm, n = joint
    tagged = tagged_copy(gm, name, "mark")
    with _torch_compat.functorch_config().patch(enable_activation_offloading=True,
                                                activation_offload_separate_stream=True):
        if name == "mm":
            with pytest.raises(ValueError, match=r"^annotate: torch._functorch.config."
                                                 r"activation_offload_separate_stream needs an "
                                                 r"accelerator, but the value\(s\) \['mm'\]"):
                fusioncut.AnnotatingPartitioner()(tagged, [], num_fwd_outputs=n)
            assert "recompute" not in next(x for x in tagged.graph.nodes
                                           if x.name == "mm").meta  # nothing written
        else:  # an input is never offloaded: annotate takes the mark off, nothing fails
            fw, _ = fusioncut.AnnotatingPartitioner()(tagged, [], num_fwd_outputs=n)
            assert not fw.graph.find_nodes(op="call_function",
                                           target=torch.ops.ao.offload.default)


# --- the transfer prices (offload.py) ---------------------------------------------------------


_PRICES = [transfer_seconds, exposed_seconds, exposed_byte_equivalents]


@pytest.mark.parametrize("nbytes", [-5, math.nan, None, "5", True, 10**400],
                         ids=["negative", "nan", "None", "str", "bool", "10**400"])
def test_transfer_prices_name_a_bad_byte_count(nbytes):
    for price in _PRICES:
        with pytest.raises(ValueError, match=f"{price.__name__}: nbytes"):
            price(nbytes, H100)


@pytest.mark.parametrize("overlap", ["both", None], ids=["str", "None"])
def test_transfer_prices_name_a_bad_overlap(overlap):
    with pytest.raises(TypeError, match="exposed_seconds: overlap"):
        exposed_seconds(1, H100, overlap)
