"""Annotations (``node.meta["recompute"]``) and the errors contradictory constraints raise."""

from __future__ import annotations

import copy
import operator

import pytest
import torch
import torch.nn.functional as F
from functorch.compile import aot_function, default_partition, make_boxed_func
from torch.utils.checkpoint import CheckpointPolicy

import fusioncut
from fusioncut.options import Options
from fusioncut.policy import ReasonKind, effective_annotations


def capture(fn, *args):
    """The joint graph AOTAutograd builds for ``fn`` and its number of forward outputs."""
    box = {}

    def record(joint, inputs, **kwargs):
        box["joint"] = copy.deepcopy(joint)
        box["n"] = kwargs["num_fwd_outputs"]
        return default_partition(joint, inputs, **kwargs)

    compiled = aot_function(fn, fw_compiler=lambda g, _: make_boxed_func(g),
                            bw_compiler=lambda g, _: make_boxed_func(g), partition_fn=record)
    out = compiled(*args)
    (out if isinstance(out, torch.Tensor) else out[0]).sum().backward()
    return box["joint"], box["n"]


def node(gm, name):
    return next(n for n in gm.graph.nodes if n.name == name)


def saved_names(gm, n, **kwargs):
    return [x.name for x in fusioncut.decide(gm, num_fwd_outputs=n, **kwargs).saved_nodes]


def leaves(*shapes, dtype=torch.float32):
    torch.manual_seed(0)
    return [torch.randn(*s, dtype=dtype, requires_grad=True) for s in shapes]


def test_annotation_must_recompute_lifts_the_matmul_ban():
    gm, n = capture(lambda x, w: (x @ w).cos(), *leaves((4, 8), (8, 8)))
    assert "mm" in saved_names(copy.deepcopy(gm), n)
    node(gm, "mm").meta["recompute"] = CheckpointPolicy.MUST_RECOMPUTE
    d = fusioncut.decide(gm, num_fwd_outputs=n)
    assert "mm" not in [x.name for x in d.saved_nodes]
    assert {"primals_1", "primals_2"} <= {x.name for x in d.saved_nodes}
    i = d.graph.index[node(gm, "mm")]
    assert d.policy.ban[i] is None and d.policy.recompute[i].kind is ReasonKind.ANNOTATION


def test_annotation_must_recompute_on_banned_matmul_is_a_partition_error():
    gm, n = capture(lambda x, w: (x @ w).cos(), *leaves((4, 8), (8, 8)))
    node(gm, "mm").meta["recompute"] = CheckpointPolicy.MUST_RECOMPUTE
    with pytest.raises(fusioncut.PartitionError) as info:
        fusioncut.decide(gm, num_fwd_outputs=n,
                         options=Options(annotations_override_bans=False))
    err = info.value
    assert isinstance(err, ValueError)
    assert [x.name for x in err.nodes] == ["mm"]
    text = str(err)
    assert "compute-intensive: aten.mm" in text and "MUST_RECOMPUTE" in text


def test_annotation_recompute_of_a_random_tuple_output_names_the_whole_path():
    x, = leaves((8, 8))
    gm, n = capture(lambda x: F.dropout(x.cos(), p=0.5, training=True), x)
    mask = next(g for g in gm.graph.nodes
                if g.target is operator.getitem and g.args[1] == 1)
    mask.meta["recompute"] = CheckpointPolicy.MUST_RECOMPUTE
    with pytest.raises(fusioncut.PartitionError) as info:
        fusioncut.decide(gm, num_fwd_outputs=n)
    err = info.value
    names = [x.name for x in err.nodes]
    assert names[-1] == mask.name and "native_dropout" in names[0]
    text = str(err)
    assert "random: aten.native_dropout" in text
    assert "cannot be saved: not a tensor or SymInt: tuple" in text
    assert f"depends on {names[0]}" in text


def test_annotation_prefer_recompute_is_dropped_when_impossible():
    x, = leaves((8, 8))
    gm, n = capture(lambda x: F.dropout(x.cos(), p=0.5, training=True), x)
    mask = next(g for g in gm.graph.nodes
                if g.target is operator.getitem and g.args[1] == 1)
    mask.meta["recompute"] = CheckpointPolicy.PREFER_RECOMPUTE
    d = fusioncut.decide(gm, num_fwd_outputs=n)
    assert d.dropped_preferences == [d.graph.index[mask]]
    assert mask.name in [x.name for x in d.saved_nodes]


def test_annotation_must_save_keeps_a_fusible_node_out_of_the_backward():
    gm, n = capture(lambda a, b: (a + b).cos().cos(), *leaves((16,), (16,)))
    assert saved_names(copy.deepcopy(gm), n) == ["add"]
    node(gm, "cos").meta["recompute"] = CheckpointPolicy.MUST_SAVE
    d = fusioncut.decide(copy.deepcopy(gm), num_fwd_outputs=n)
    i = [x.name for x in d.graph.nodes].index("cos")
    assert d.policy.ban[i].kind is ReasonKind.ANNOTATION
    _, bw = fusioncut.partition(gm, None, num_fwd_outputs=n)
    assert "cos" not in {x.name for x in bw.graph.nodes if x.op == "call_function"}


def test_annotation_checkpoint_region_boundary_is_saved():
    # torch's cleanup_recompute_tags: a recompute-tagged node feeding a later region.
    gm, n = capture(lambda a: a.sin().cos().tanh(), *leaves((16,)))
    for name, region in (("sin", 1), ("cos", 2), ("tanh", 2)):
        node(gm, name).meta["recompute"] = CheckpointPolicy.MUST_RECOMPUTE
        node(gm, name).meta["ac_graph_id"] = region
    d = fusioncut.decide(gm, num_fwd_outputs=n)
    i = d.graph.index[node(gm, "sin")]
    tag, why = effective_annotations(d.graph)[i]
    assert tag == CheckpointPolicy.MUST_SAVE and "region 1" in why
    assert d.policy.recompute[i] is None and d.policy.ban[i] is not None
    assert node(gm, "sin").meta["recompute"] == CheckpointPolicy.MUST_RECOMPUTE  # untouched
    assert "sin" in [x.name for x in d.saved_nodes]


def test_annotation_deepspeed_style_recompute_of_a_downcast_parameter():
    # The bf16 copy of an fp32 parameter is half its size, so the min cut would save it;
    # DeepSpeed marks the cast MUST_RECOMPUTE so that the parameter itself is saved.
    x = torch.randn(4, 8, dtype=torch.bfloat16, requires_grad=True)
    w = torch.randn(8, 8, requires_grad=True)
    gm, n = capture(lambda x, w: (x @ w.to(torch.bfloat16)).float().sin(), x, w)
    cast = next(g for g in gm.graph.nodes if g.target is torch.ops.aten._to_copy.default
                and g.args[0].name == "primals_2")
    assert cast.name in saved_names(copy.deepcopy(gm), n)
    cast.meta["recompute"] = CheckpointPolicy.MUST_RECOMPUTE
    saved = saved_names(gm, n)
    assert cast.name not in saved and "primals_2" in saved
