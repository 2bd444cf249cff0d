"""``fusioncut.annotate``: fusioncut's decision as ``CheckpointPolicy`` tags, reproduced by
PyTorch's own ``min_cut_rematerialization_partition`` (what DeepSpeed's DeepCompile calls).

On every model of the zoo (bench/partition_models.py's, without the 48-layer GPT, and
``fusioncut.models``' GPT, Llama and ResNet), every joint graph is partitioned by fusioncut
and, annotated, by PyTorch: the saved sets are equal, and training through the annotated
graph and PyTorch's partitioner gives eager's gradients. The transformers models are in
tests/test_zoo_transformers.py.
"""

from __future__ import annotations

import copy
import warnings

import pytest
import torch
from functorch.compile import aot_module, min_cut_rematerialization_partition, nop
from torch._subclasses.fake_tensor import unset_fake_temporarily
from torch.utils.checkpoint import CheckpointPolicy

import partition_models
from test_hops_errors import _collective_joint

import fusioncut
from fusioncut import models
from fusioncut.fallback import FallbackWarning


def saved_names(fw, num_fwd_outputs) -> list[str]:
    out = fw.graph.find_nodes(op="output")[0].args[0]
    return sorted(o.name for o in out[num_fwd_outputs:] if o is not None)


class TorchOnTags:
    """A partition_fn: annotate the joint graph, then PyTorch's min-cut partitioner. Each call
    records (fusioncut's saved set on a copy, PyTorch's on the annotated graph)."""

    def __init__(self, options=None):
        self.options = options
        self.pairs: list[tuple[list[str], list[str]]] = []

    def __call__(self, gm, joint_inputs, **kwargs):
        n = kwargs["num_fwd_outputs"]
        with warnings.catch_warnings():
            warnings.simplefilter("error", FallbackWarning)
            with unset_fake_temporarily():  # inside a compile: copy real constants as such
                mine = copy.deepcopy(gm)
            ours, _ = fusioncut.partition(mine, joint_inputs, options=self.options, **kwargs)
            fusioncut.annotate(gm, num_fwd_outputs=n, options=self.options,
                               static_lifetime_input_indices=kwargs.get(
                                   "static_lifetime_input_indices"))
        fw, bw = min_cut_rematerialization_partition(gm, joint_inputs, **kwargs)
        self.pairs.append((saved_names(ours, n), saved_names(fw, n)))
        return fw, bw


def _zoo():
    for name, bench_model in partition_models.MODELS.items():
        if name != "gpt48":
            yield name, lambda m=bench_model: m.build(0), bench_model.random

    def gpt():
        cfg = models.GPTConfig(n_layer=2)
        return models.GPT(cfg), models.gpt_inputs(cfg)

    def llama():
        cfg = models.LlamaConfig()
        return models.Llama(cfg), models.llama_inputs(cfg)

    def resnet():
        return models.resnet("resnet18"), (torch.randn(2, 3, 32, 32, requires_grad=True),)

    yield "models.gpt", gpt, False
    yield "models.llama", llama, False
    yield "models.resnet18", resnet, False


ZOO = list(_zoo())


def _grads(module, inputs):
    return [p.grad for p in module.parameters()] + [x.grad for x in inputs if x.requires_grad]


def _loss(out):
    return out.sum() if out.dim() else out


@pytest.mark.parametrize("name,build,random", ZOO, ids=[z[0] for z in ZOO])
def test_annotate_reproduces_fusioncut_through_torchs_partitioner(name, build, random):
    torch.manual_seed(0)
    module, inputs = build()
    eager = copy.deepcopy(module)
    partition = TorchOnTags()
    leaves = [x.detach().clone().requires_grad_(x.requires_grad) for x in inputs]
    refs = [x.detach().clone().requires_grad_(x.requires_grad) for x in inputs]
    torch.manual_seed(1)
    out = aot_module(module, fw_compiler=nop, bw_compiler=nop, partition_fn=partition)(*leaves)
    _loss(out).backward()
    assert partition.pairs
    for ours, theirs in partition.pairs:
        assert ours == theirs, (f"{name}: fusioncut only {sorted(set(ours) - set(theirs))}, "
                                f"PyTorch only {sorted(set(theirs) - set(ours))}")
    if random:  # the mask is drawn under the compiled step's RNG: gradients compared by shape
        return
    torch.manual_seed(1)
    _loss(eager(*refs)).backward()
    for got, want in zip(_grads(module, leaves), _grads(eager, refs), strict=True):
        torch.testing.assert_close(got, want, rtol=1e-4, atol=1e-5)


def test_annotate_tags_every_forward_node_with_its_placement():
    cfg = models.GPTConfig(n_layer=1)
    joints = []

    def record(gm, joint_inputs, **kwargs):
        joints.append((copy.deepcopy(gm), kwargs["num_fwd_outputs"]))
        return fusioncut.partition(gm, joint_inputs, **kwargs)

    aot_module(models.GPT(cfg), fw_compiler=nop, bw_compiler=nop,
               partition_fn=record)(*models.gpt_inputs(cfg))
    (gm, n), = joints
    decision = fusioncut.annotate(gm, num_fwd_outputs=n)
    tags = {nd.name: nd.meta.get("recompute") for nd in gm.graph.nodes}
    forward = [decision.graph.nodes[i].name for i in range(decision.graph.num_nodes)
               if decision.graph.role[i] == fusioncut.graph.Role.FORWARD]
    assert forward and all(tags[name] in (CheckpointPolicy.MUST_SAVE,
                                          CheckpointPolicy.MUST_RECOMPUTE) for name in forward)
    assert all(tags[nd.name] == CheckpointPolicy.MUST_SAVE for nd in decision.saved_nodes
               if nd.op != "placeholder")
    assert not any(tags[nd.name] for nd in gm.graph.nodes if nd.op == "placeholder")


def test_annotate_conflicting_tags_are_a_partition_error_and_write_nothing():
    gm = _collective_joint(CheckpointPolicy.MUST_RECOMPUTE)
    before = {nd.name: nd.meta.get("recompute") for nd in gm.graph.nodes}
    with pytest.raises(fusioncut.PartitionError) as info:
        fusioncut.annotate(gm, num_fwd_outputs=1)
    assert {n.name for n in info.value.nodes} & {"all_reduce_default", "wait_tensor_default"}
    assert {nd.name: nd.meta.get("recompute") for nd in gm.graph.nodes} == before


def test_annotate_overrides_a_preference_it_cannot_keep():
    # PREFER_RECOMPUTE on a collective: fusioncut saves it, and says so in the tag.
    gm = _collective_joint(CheckpointPolicy.PREFER_RECOMPUTE)
    fusioncut.annotate(gm, num_fwd_outputs=1)
    tags = {nd.name: nd.meta.get("recompute") for nd in gm.graph.nodes}
    assert tags["wait_tensor_default"] == CheckpointPolicy.MUST_SAVE
    assert tags["all_reduce_default"] == CheckpointPolicy.MUST_SAVE


def test_annotate_leaves_a_graph_it_does_not_model_untagged(monkeypatch):
    gm = _collective_joint(None)
    monkeypatch.setattr(fusioncut.tags, "unsupported_config", lambda: "a torch setting")
    with pytest.warns(FallbackWarning, match="left the graph untagged.*a torch setting"):
        assert fusioncut.annotate(gm, num_fwd_outputs=1) is None
    assert not any(nd.meta.get("recompute") for nd in gm.graph.nodes)


def test_annotate_names_bad_arguments():
    gm = _collective_joint(None)
    with pytest.raises(TypeError, match="annotate: options must be a fusioncut.Options"):
        fusioncut.annotate(gm, num_fwd_outputs=1, options="memory")
    with pytest.raises(ValueError, match="annotate"):
        fusioncut.annotate(gm, num_fwd_outputs=7)


def test_annotating_partitioner_hands_the_tagged_graph_to_torch():
    calls = []

    class Spy(fusioncut.AnnotatingPartitioner):
        def __call__(self, gm, joint_inputs, **kwargs):
            fw, bw = super().__call__(gm, joint_inputs, **kwargs)
            calls.append((gm, saved_names(fw, kwargs["num_fwd_outputs"]),
                          kwargs["num_fwd_outputs"]))
            return fw, bw

    module = models.MLP()
    x = torch.randn(4, 8, requires_grad=True)
    aot_module(module, fw_compiler=nop, bw_compiler=nop, partition_fn=Spy())(x).sum().backward()
    (gm, theirs, n), = calls
    assert any(nd.meta.get("recompute") for nd in gm.graph.nodes)
    # Re-deciding the tagged graph saves what PyTorch saved on it.
    decision = fusioncut.decide(gm, num_fwd_outputs=n)
    assert sorted(nd.name for nd in decision.saved_nodes) == theirs
    plain = fusioncut.InductorPartitioner()
    assert fusioncut.AnnotatingPartitioner().uuid() != plain.uuid()
