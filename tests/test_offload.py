"""Offloading saved values to host memory (offload.py, emit/offload.py): annotations under
aot_function and torch.compile, what the rule refuses, the host link and its price, decisions
across processes. On the CPU torch's synchronous pass copies with ``prims.device_put(x, cpu)``
(eager: the same tensor back; Inductor: a copy)."""

from __future__ import annotations

import copy
import dataclasses
import functools
import importlib
import math
import re
import warnings

import pytest
import torch
import torch.nn.functional as F
from functorch.compile import aot_function, make_boxed_func
from torch.utils.checkpoint import (
    CheckpointPolicy,
    checkpoint,
    create_selective_checkpoint_contexts,
)

import fusioncut
from fusioncut import _torch_compat, _torch_offload
from fusioncut.device import PRESETS, Device
from fusioncut.emit import EmitError, Template, build_modules_and_schedule
from fusioncut.offload import (
    BlockKind,
    OffloadError,
    Overlap,
    exposed_byte_equivalents,
    exposed_seconds,
    transfer_seconds,
)
from fusioncut.options import Options
from fusioncut.report import capture
from models import last_lines_across_processes, tagged_copy

pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning")

DEVICE_PUT = torch.ops.prims.device_put.default
MATMULS = (torch.ops.aten.mm.default, torch.ops.aten.addmm.default)


def _policy(ctx, op, *args, **kwargs):
    return CheckpointPolicy.MUST_CPU_OFFLOAD if op in MATMULS else \
        CheckpointPolicy.PREFER_RECOMPUTE


def _sac(fn):
    context = functools.partial(create_selective_checkpoint_contexts, _policy)
    return lambda *args: checkpoint(fn, *args, use_reentrant=False, context_fn=context)


def _block(x, w):
    return torch.mm(x, w).relu().mm(w).sin()


def _moved(gm: torch.fx.GraphModule) -> set[str]:
    """Names of the values ``gm`` copies with ``device_put`` (its argument's name, offload
    prefixes stripped)."""
    return {n.args[0].name.replace("cpu_offload_", "")
            for n in gm.graph.find_nodes(op="call_function", target=DEVICE_PUT)}


def _leaves(*shapes):
    torch.manual_seed(0)
    return [torch.randn(*s, requires_grad=True) for s in shapes]


def test_offload_tagged_under_aot_function_moves_exactly_the_chosen_values():
    box: dict = {}
    options = Options(offload="tagged")

    def partition(joint, inputs, **kwargs):
        box["decision"] = fusioncut.decide(joint, num_fwd_outputs=kwargs["num_fwd_outputs"],
                                           options=options)
        return fusioncut.partition(joint, inputs, options=options,
                                   report=lambda r: box.setdefault("report", r), **kwargs)

    def compiler(name):
        return lambda gm, _: box.setdefault(name, gm) and make_boxed_func(gm)

    fn = lambda x, w: _sac(_block)(x, w).sum()  # noqa: E731
    x, w = _leaves((8, 8), (8, 8))
    with warnings.catch_warnings():
        warnings.simplefilter("error", fusioncut.FallbackWarning)
        aot_function(fn, compiler("fw"), compiler("bw"), partition_fn=partition)(x, w).backward()
    grads = (x.grad, w.grad)
    x.grad = w.grad = None
    fn(x, w).backward()
    torch.testing.assert_close(grads, (x.grad, w.grad))

    d = box["decision"]
    offloaded = {n.name for n in d.offloaded_nodes}
    assert offloaded == {"mm", "mm_1"}  # the MUST_CPU_OFFLOAD matmuls, both saved
    assert offloaded <= {n.name for n in d.saved_nodes}
    assert all(d.offload.blocked[i] is None for i in d.offloaded)
    assert _moved(box["fw"]) == offloaded  # offloaded in the forward ...
    reloads = box["bw"].graph.find_nodes(op="call_function", target=DEVICE_PUT)
    assert {n.args[0].name for n in reloads} == {f"cpu_offload_{v}" for v in offloaded}
    assert all(n.args[0].op == "placeholder" for n in reloads)  # ... reloaded in the backward
    why = {s.name: s.why for s in box["report"].saved}
    assert all("offloaded to host memory (MUST_CPU_OFFLOAD)" in why[v] for v in offloaded)
    for gm in (box["fw"], box["bw"]):
        gm.graph.lint()


_RECORDED: dict = {}


class _Recording(fusioncut.InductorPartitioner):
    """Records what it partitions in ``_RECORDED`` (Inductor deep-copies its config, so the
    partitioner itself holds nothing)."""

    def __call__(self, gm, joint_inputs, **kwargs):
        d = fusioncut.decide(gm, num_fwd_outputs=kwargs["num_fwd_outputs"],
                             options=Options(offload="auto"))
        _RECORDED["offloaded"] = {n.name for n in d.offloaded_nodes}
        fw, bw = super().__call__(gm, joint_inputs, **kwargs)
        # Read the graphs now: Inductor's passes then rewrite them in place on a cache miss
        # (a device_put to the CPU of a CPU tensor is a no-op to them).
        _RECORDED["moved"] = _moved(fw)
        _RECORDED["reloads"] = len(bw.graph.find_nodes(op="call_function", target=DEVICE_PUT))
        return fw, bw


class _Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.l1, self.l2 = torch.nn.Linear(16, 16), torch.nn.Linear(16, 16)

    def body(self, x):
        return self.l2(self.l1(x).relu()).sin()

    def forward(self, x):
        return _sac(self.body)(x).sum()


def test_offload_torch_flag_is_honoured_under_torch_compile():
    torch.manual_seed(0)
    model, x = _Block(), torch.randn(8, 16, requires_grad=True)
    torch._dynamo.reset()
    with warnings.catch_warnings(), \
            _torch_compat.functorch_config().patch(enable_activation_offloading=True), \
            _torch_compat.inductor_config().patch(custom_partitioner_fn=_Recording()):
        warnings.simplefilter("error", fusioncut.FallbackWarning)
        torch.compile(model)(x).backward()
    grads = [p.grad for p in model.parameters()]
    model.zero_grad(set_to_none=True)
    model(x).backward()
    torch.testing.assert_close(grads, [p.grad for p in model.parameters()])
    box = _RECORDED
    assert box["offloaded"] == {"addmm", "addmm_1"}
    assert box["moved"] == box["offloaded"]
    assert box["reloads"] == 2
    box.clear()


@pytest.fixture(scope="module")
def mixed():
    """A joint graph with one value of each kind the rule refuses."""

    def fn(x, w):
        a = torch.mm(x, w)
        b = x.t() * 2.0  # a pointwise op on a transposed input: not contiguous
        r = torch.rand_like(a)
        return (F.dropout(a, 0.5, True) * b.t() * r).sin().sum(), a.view(-1).cos()

    cap = capture(fn, *_leaves((8, 8), (8, 8)), via="aot")  # node names as aot_function makes them
    return cap.joint_module, cap.num_fwd_outputs


@pytest.mark.parametrize("name, kind", [
    ("t", BlockKind.VIEW), ("getitem", BlockKind.GETITEM), ("mul", BlockKind.NOT_CONTIGUOUS),
    ("rand_like", BlockKind.RANDOM), ("cos", BlockKind.FORWARD_OUTPUT),
])
def test_offload_must_on_a_value_that_cannot_go_is_an_error(mixed, name, kind):
    gm, n = mixed
    options = Options(offload="tagged")
    with pytest.raises(OffloadError) as info:
        fusioncut.decide(tagged_copy(gm, name, CheckpointPolicy.MUST_CPU_OFFLOAD),
                         num_fwd_outputs=n, options=options)
    assert isinstance(info.value, ValueError)
    assert [x.name for x in info.value.nodes] == [name]
    assert info.value.reasons[0].kind is kind
    assert f"{name} (" in str(info.value) and "Offloadable is a contiguous tensor" in str(
        info.value)
    # A preference is dropped where the rule refuses; the decision stands.
    d = fusioncut.decide(tagged_copy(gm, name, CheckpointPolicy.PREFER_CPU_OFFLOAD),
                         num_fwd_outputs=n, options=options)
    assert name not in {x.name for x in d.offloaded_nodes}


def test_offload_annotations_obey_the_mode_and_must_save(mixed):
    gm, n = mixed
    must = tagged_copy(gm, "mm", CheckpointPolicy.MUST_CPU_OFFLOAD)
    tagged = fusioncut.decide(must, num_fwd_outputs=n, options=Options(offload="tagged"))
    assert [x.name for x in tagged.offloaded_nodes] == ["mm"]
    # "never" (the default) decides as if the annotation were not there, as torch does.
    never = fusioncut.decide(must, num_fwd_outputs=n)
    plain = fusioncut.decide(copy.deepcopy(gm), num_fwd_outputs=n)
    assert never.offload is None and len(never.offloaded) == 0
    assert never.saved.tolist() == plain.saved.tolist()
    # A preference where allowed; "tagged" under a memory target: the plan without offloading
    # (MUST_CPU_OFFLOAD a MUST_SAVE there), the tagged values offloaded on top.
    prefer = tagged_copy(gm, "mm", CheckpointPolicy.PREFER_CPU_OFFLOAD)
    assert [x.name for x in fusioncut.decide(prefer, num_fwd_outputs=n,
            options=Options(offload="tagged")).offloaded_nodes] == ["mm"]
    budgeted = fusioncut.decide(must, num_fwd_outputs=n,
                                options=Options(offload="tagged", memory_budget=0.0))
    alone = fusioncut.decide(tagged_copy(gm, "mm", CheckpointPolicy.MUST_SAVE), num_fwd_outputs=n,
                             options=Options(memory_budget=0.0))
    assert budgeted.saved.tolist() == alone.saved.tolist()
    assert [x.name for x in budgeted.offloaded_nodes] == ["mm"]
    # "auto" under a memory target: the cut decides, the MUST_CPU_OFFLOAD value goes whenever
    # saved, and the plan keeps no more on the device than the plan without offloading.
    auto = fusioncut.decide(must, num_fwd_outputs=n,
                            options=Options(offload="auto", memory_budget=0.0))
    kept = {x.name for x in auto.saved_nodes} - {x.name for x in auto.offloaded_nodes}
    assert "mm" not in kept and len(auto.offloaded)
    assert set(auto.offloaded.tolist()) <= set(auto.saved.tolist())
    assert auto.budget.point.saved_bytes <= alone.budget.point.saved_bytes
    # torch's own mark is a request; MUST_SAVE keeps the value on the device.
    marked = tagged_copy(gm, "mm", "mark")
    assert [x.name for x in fusioncut.decide(marked, num_fwd_outputs=n,
            options=Options(offload="tagged")).offloaded_nodes] == ["mm"]
    node = next(x for x in marked.graph.nodes if x.name == "mm")
    node.meta["recompute"] = CheckpointPolicy.MUST_SAVE
    d = fusioncut.decide(marked, num_fwd_outputs=n, options=Options(offload="tagged"))
    assert "mm" in {x.name for x in d.saved_nodes} and len(d.offloaded) == 0
    assert d.offload.blocked[d.graph.index[node]].kind is BlockKind.MUST_SAVE


def test_offload_emission_replays_and_refuses_what_cannot_run(mixed, monkeypatch):
    gm, n = mixed
    must = tagged_copy(gm, "mm", CheckpointPolicy.MUST_CPU_OFFLOAD)
    d = fusioncut.decide(must, num_fwd_outputs=n, options=Options(offload="tagged"))
    fw, _, sched = build_modules_and_schedule(must, d.saved_values, d.saved_sym_nodes,
                                              num_fwd_outputs=n, offloaded=d.offloaded_nodes)
    template = Template.from_schedule(sched, n, d.offloaded_nodes)
    fw2, bw2 = template.replay(must, list(must.graph.nodes))
    assert _moved(fw) == _moved(fw2) == {"mm"}
    assert len(bw2.graph.find_nodes(op="call_function", target=DEVICE_PUT)) == 1
    # torch's op list is built once per pass, and torch's own function is back afterwards.
    torch_pass = importlib.import_module(
        "torch._functorch._activation_offloading.activation_offloading")
    assert not hasattr(torch_pass.get_default_op_list, "_fusioncut_once")
    # torch's side-stream ops need an accelerator: refused at emission, not at run time.
    with _torch_compat.functorch_config().patch(activation_offload_separate_stream=True), \
            pytest.raises(EmitError, match="activation_offload_separate_stream needs an accel"):
        fusioncut.partition(must, [], num_fwd_outputs=n, options=Options(offload="tagged"))
    # A torch without the machinery: an error naming its version, for any mode but "never".
    def missing():
        raise ImportError(f"fusioncut: torch {torch.__version__} has no enable_activation_"
                          "offloading")

    monkeypatch.setattr(_torch_offload, "activation_offloading_pass", missing)
    with pytest.raises(ValueError, match=r"offload = 'auto' needs PyTorch's activation "
                                         rf"offloading.*torch {re.escape(torch.__version__)}"):
        fusioncut.decide(must, num_fwd_outputs=n, options=Options(offload="auto"))
    fusioncut.decide(must, num_fwd_outputs=n, options=Options(offload="never"))


@pytest.mark.parametrize("field, value", [
    ("host_bandwidth", 0), ("host_bandwidth", -1e9), ("host_bandwidth", math.nan),
    ("host_bandwidth", math.inf), ("host_bandwidth", "5e10"), ("offload_hidden", -0.1),
    ("offload_hidden", 1.5), ("offload_hidden", math.nan), ("offload_hidden", math.inf),
])
def test_device_host_link_rejects_values_out_of_range(field, value):
    with pytest.raises(ValueError, match=rf"Device: {field} = .* is invalid; expected"):
        dataclasses.replace(PRESETS["h100"], **{field: value})


def test_device_host_link_presets_profiles_and_price(tmp_path):
    h100, cpu = PRESETS["h100"], PRESETS["cpu"]
    assert h100.host_bandwidth == 50 * 2**30 and 0 < h100.offload_hidden < 1
    assert not cpu.has_host_link
    old = {k: v for k, v in cpu.to_dict().items()
           if k not in ("host_bandwidth", "offload_hidden")}
    assert Device.from_dict(old) == cpu  # profiles written before the host link still load
    h100.save(tmp_path / "h100.json")
    assert Device.load(tmp_path / "h100.json") == h100

    one_way = 2**30 / h100.host_bandwidth
    assert transfer_seconds(2**30, h100) == pytest.approx(one_way)
    assert exposed_seconds(2**30, h100) == pytest.approx(2 * one_way)  # device_put hides nothing
    both = Overlap(forward=True, backward=True)
    assert exposed_seconds(2**30, h100, both) == pytest.approx(2 * one_way * 0.1)
    assert exposed_byte_equivalents([0, 2**30], h100, Overlap(backward=True)) == \
        pytest.approx([0, 1.1 * one_way * h100.bandwidth])
    stream = _torch_offload.OffloadSettings(True, True, False, True, 50.0)
    assert Overlap.of(stream) == Overlap(forward=True, backward=True)  # fusioncut paces waits
    assert Overlap.of(stream._replace(prefetch=False)) == Overlap(forward=True)
    assert Overlap.of(stream._replace(separate_stream=False)) == Overlap()
    with pytest.raises(ValueError, match="device 'cpu' has no host link"):
        exposed_seconds(1, cpu)


def test_options_offload_is_validated():
    assert Options().offload_mode == "never" and Options(offload="auto").offload_mode == "auto"
    for bad in ("sometimes", True, 1):
        with pytest.raises(ValueError, match=r"Options: offload = .* is invalid; expected None "
                                             r"or one of 'never', 'tagged', 'auto'"):
            Options(offload=bad)


_CROSS_PROCESS = """
import functools, torch, fusioncut
from functorch.compile import aot_function, make_boxed_func
from torch.utils.checkpoint import CheckpointPolicy as P, checkpoint
from torch.utils.checkpoint import create_selective_checkpoint_contexts
def policy(ctx, op, *a, **k):
    return P.MUST_CPU_OFFLOAD if op == torch.ops.aten.mm.default else P.PREFER_RECOMPUTE
ctx = functools.partial(create_selective_checkpoint_contexts, policy)
block = lambda x, w: torch.mm(x, w).tanh().mm(w).relu().mm(w).sin()
fn = lambda x, w: checkpoint(block, x, w, use_reentrant=False, context_fn=ctx).sum()
box = {}
def part(j, i, **kw):
    options = fusioncut.Options(offload="tagged")
    d = fusioncut.decide(j, num_fwd_outputs=kw["num_fwd_outputs"], options=options)
    box["d"] = ([n.name for n in d.saved_nodes], [n.name for n in d.offloaded_nodes])
    return fusioncut.partition(j, i, options=options, **kw)
f = aot_function(fn, lambda g, _: make_boxed_func(g), lambda g, _: make_boxed_func(g),
                 partition_fn=part)
f(torch.randn(8, 8, requires_grad=True), torch.randn(8, 8, requires_grad=True)).backward()
print(box["d"])
"""


def test_offload_decisions_are_identical_across_processes():
    results = last_lines_across_processes(_CROSS_PROCESS)
    assert len(results) == 1
    assert "'mm', 'mm_1', 'mm_2'" in results.pop()
