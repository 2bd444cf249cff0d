"""Hostile input to ``fusioncut.annotate`` and ``fusioncut.AnnotatingPartitioner``: a user's
mistakes and an adversary's graphs.

- bad arguments: each a ``TypeError`` / ``ValueError`` naming the argument and its range;
- checkpoint annotations of the wrong type (``meta["recompute"]``, ``meta["ac_graph_id"]``,
  ``meta["should_offload"]``): a ``ValueError`` naming the node and the key, from every entry
  point alike, before anything is written (an ``AttributeError`` or ``TypeError`` from deep
  inside the policy before);
- tags of the right type on every kind of node (inputs, tangents, the output, backward nodes,
  random ops, everything at once): annotate, then PyTorch's ``min_cut_rematerialization_
  partition``, trains to eager's gradients, and annotating twice writes the same tags (a
  recompute tag on an input made PyTorch's partitioner fail with an ``AssertionError``);
- a contradiction is a ``PartitionError`` that writes nothing; a graph fusioncut does not
  model is left untagged with a ``FallbackWarning`` naming the construct;
- ``AnnotatingPartitioner`` under torch's ``activation_memory_budget`` below 1 or region
  annotations that disagree: eager's gradients (PyTorch's knapsack over the tags saved
  ``native_dropout``'s tuple and failed at run time, and raised on the disagreement).
"""

from __future__ import annotations

import copy
import random
import warnings

import pytest
import torch
import torch.nn.functional as F
from functorch.compile import aot_function, min_cut_rematerialization_partition, nop
from torch.utils.checkpoint import CheckpointPolicy as CP

import fusioncut
from fusioncut import Options
from fusioncut.budget_annotation import REGION_KEY
from fusioncut.tags import TorchBudgetWarning

from models import capture_joint
from test_hostile_partition import _random_program

pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning")


def _fn(x, w):
    """mm, relu, native_dropout (a random op returning a tuple), sin, a sum."""
    return (F.dropout(torch.relu(x @ w), 0.5, training=True).sin() * 2).sum()


def _inputs():
    g = torch.Generator().manual_seed(0)
    return (torch.randn(8, 8, generator=g).requires_grad_(),
            torch.randn(8, 8, generator=g).requires_grad_())


@pytest.fixture(scope="module")
def joint():
    cap = capture_joint(_fn, *_inputs())
    return cap.joint_module, cap.num_fwd_outputs


def _node(gm, name):
    return next(n for n in gm.graph.nodes if n.name == name)


def _tags(gm) -> dict:
    return {n.name: n.meta.get("recompute") for n in gm.graph.nodes}


def _train(partition_fn) -> tuple[torch.Tensor, ...]:
    x, w = _inputs()
    torch.manual_seed(1)
    compiled = _fn(x, w) if partition_fn is None else \
        aot_function(_fn, nop, nop, partition_fn=partition_fn)(x, w)
    compiled.backward()
    return x.grad, w.grad


@pytest.fixture(scope="module")
def eager():
    return _train(None)


# --- arguments --------------------------------------------------------------------------------


@pytest.mark.parametrize("kwargs, error, needle", [
    ({"joint_module": 3}, TypeError, "annotate: joint_module must be a torch.fx.GraphModule, "
                                     "got int"),
    ({"joint_module": None}, TypeError, "joint_module must be a torch.fx.GraphModule, got "
                                        "NoneType"),
    ({"joint_module": torch.nn.Linear(2, 2)}, TypeError, "got Linear"),
    ({"num_fwd_outputs": None}, TypeError, "annotate: num_fwd_outputs must be an int in [0, "),
    ({"num_fwd_outputs": 1.0}, TypeError, "num_fwd_outputs must be an int"),
    ({"num_fwd_outputs": True}, TypeError, "num_fwd_outputs must be an int"),
    ({"num_fwd_outputs": "1"}, TypeError, "num_fwd_outputs must be an int"),
    ({"num_fwd_outputs": -1}, ValueError, "annotate: num_fwd_outputs = -1 is out of range [0, "),
    ({"num_fwd_outputs": 99}, ValueError, "num_fwd_outputs = 99 is out of range"),
    ({"num_fwd_outputs": 3}, ValueError, "no backward to partition"),
    ({"static_lifetime_input_indices": [5]}, ValueError,
     "annotate: static_lifetime_input_indices[0] = 5 is out of range [0, 2)"),
    ({"static_lifetime_input_indices": "01"}, TypeError,
     "static_lifetime_input_indices must be a sequence of ints"),
    ({"static_lifetime_input_indices": [0.0]}, TypeError,
     "static_lifetime_input_indices[0] = 0.0 is not an int"),
    ({"options": 3}, TypeError, "annotate: options must be a fusioncut.Options, got int"),
    ({"options": Options}, TypeError, "options must be a fusioncut.Options, got type"),
    ({"options": {"mode": "memory"}}, TypeError, "options must be a fusioncut.Options, got dict"),
])
def test_annotate_bad_arguments_name_the_argument(joint, kwargs, error, needle):
    gm, n = joint
    call = {"joint_module": copy.deepcopy(gm), "num_fwd_outputs": n, **kwargs}
    before = _tags(call["joint_module"]) if isinstance(call["joint_module"],
                                                         torch.fx.GraphModule) else None
    with pytest.raises(error) as info:
        fusioncut.annotate(call.pop("joint_module"), **call)
    assert needle in str(info.value)
    if before is not None:
        assert _tags(gm) == before


def test_annotate_takes_num_fwd_outputs_by_keyword_only(joint):
    gm, n = joint
    with pytest.raises(TypeError, match="positional argument"):
        fusioncut.annotate(copy.deepcopy(gm), n)
    with pytest.raises(TypeError, match="AnnotatingPartitioner: missing the keyword argument "
                                        "num_fwd_outputs"):
        fusioncut.AnnotatingPartitioner()(copy.deepcopy(gm), [])


# --- annotations of the wrong type -------------------------------------------------------------


@pytest.mark.parametrize("key, value, valid", [
    ("recompute", "MUST_SAVE", "expected a torch.utils.checkpoint.CheckpointPolicy (MUST_SAVE"),
    ("recompute", 1, "CheckpointPolicy"),
    ("recompute", True, "CheckpointPolicy"),
    ("recompute", [CP.MUST_SAVE], "CheckpointPolicy"),
    pytest.param("recompute", 10**5000, "CheckpointPolicy", id="recompute-5000-digits"),
    ("ac_graph_id", "a", "expected an int (the checkpoint region it belongs to) or None"),
    ("ac_graph_id", 1.5, "expected an int"),
    ("ac_graph_id", False, "expected an int"),
    ("should_offload", "no", "expected True or False"),
    ("should_offload", 1, "expected True or False"),
    ("should_offload", [True], "expected True or False"),
])
def test_annotation_of_the_wrong_type_is_named_by_every_entry_point(joint, key, value, valid):
    gm, n = joint
    entry = {
        "annotate": lambda g: fusioncut.annotate(g, num_fwd_outputs=n),
        "partition": lambda g: fusioncut.partition(g, [], num_fwd_outputs=n),
        "decide": lambda g: fusioncut.decide(g, num_fwd_outputs=n),
        "plan": lambda g: fusioncut.plan(g, num_fwd_outputs=n),
    }
    for function, call in entry.items():
        bad = copy.deepcopy(gm)
        _node(bad, "relu").meta["recompute"] = CP.MUST_RECOMPUTE
        _node(bad, "sin").meta[key] = value
        before = _tags(bad)
        with warnings.catch_warnings():
            warnings.simplefilter("error", fusioncut.FallbackWarning)
            with pytest.raises(ValueError) as info:
                call(bad)
        text = str(info.value)
        assert text.startswith(f"{function}: node 'sin' has meta[{key!r}] = "), text
        assert valid in text and len(text) < 400
        assert _tags(bad) == before  # nothing written


# --- tags of the right type on every kind of node ------------------------------------------------


def _tag(name, tag, key="recompute"):
    def mutate(gm):
        for node in gm.graph.nodes:
            if node.name == name or (name == "*" and node.op == "call_function"):
                node.meta[key] = tag
    return mutate


@pytest.mark.parametrize("case, mutate", [
    ("MUST_RECOMPUTE on a primal input", _tag("primals_1", CP.MUST_RECOMPUTE)),
    ("PREFER_RECOMPUTE on a primal input", _tag("primals_2", CP.PREFER_RECOMPUTE)),
    ("MUST_SAVE on a primal input", _tag("primals_1", CP.MUST_SAVE)),
    ("MUST_RECOMPUTE on a tangent", _tag("tangents_1", CP.MUST_RECOMPUTE)),
    ("MUST_RECOMPUTE on the output node", _tag("output", CP.MUST_RECOMPUTE)),
    ("MUST_SAVE on a backward matmul", _tag("mm_1", CP.MUST_SAVE)),
    ("MUST_RECOMPUTE on a backward matmul", _tag("mm_2", CP.MUST_RECOMPUTE)),
    ("MUST_SAVE on the random op", _tag("native_dropout", CP.MUST_SAVE)),
    ("MUST_RECOMPUTE on the random op", _tag("native_dropout", CP.MUST_RECOMPUTE)),
    ("MUST_SAVE on a pointwise op", _tag("sin", CP.MUST_SAVE)),
    ("MUST_CPU_OFFLOAD, offloading off", _tag("mm", CP.MUST_CPU_OFFLOAD)),
    ("MUST_SAVE on every op", _tag("*", CP.MUST_SAVE)),
    ("MUST_RECOMPUTE on every op", _tag("*", CP.MUST_RECOMPUTE)),
    ("PREFER_RECOMPUTE on every op", _tag("*", CP.PREFER_RECOMPUTE)),
    ("should_offload on every op, offloading off", _tag("*", True, "should_offload")),
])
def test_annotate_then_torch_trains_to_eager_gradients(eager, case, mutate):
    written = []

    def partition_fn(gm, joint_inputs, **kwargs):
        mutate(gm)
        fusioncut.annotate(gm, num_fwd_outputs=kwargs["num_fwd_outputs"])
        first = _tags(gm)
        fusioncut.annotate(gm, num_fwd_outputs=kwargs["num_fwd_outputs"])
        written.append((first, _tags(gm)))
        return min_cut_rematerialization_partition(gm, joint_inputs, **kwargs)

    grads = _train(partition_fn)
    for mine, ref in zip(grads, eager):
        torch.testing.assert_close(mine, ref)
    (first, second), = written
    assert first == second, "annotating twice changed the tags"
    assert first["primals_1"] not in (CP.MUST_RECOMPUTE, CP.PREFER_RECOMPUTE)


def test_a_contradiction_writes_nothing(joint):
    gm, n = joint
    bad = copy.deepcopy(gm)
    _node(bad, "getitem").meta["recompute"] = CP.MUST_RECOMPUTE  # needs the tuple re-drawn
    before = _tags(bad)
    with pytest.raises(fusioncut.PartitionError) as info:
        fusioncut.annotate(bad, num_fwd_outputs=n)
    assert {"native_dropout", "getitem"} <= {x.name for x in info.value.nodes}
    assert _tags(bad) == before


def test_a_graph_fusioncut_does_not_model_is_left_untagged(joint):
    gm, n = joint
    odd = copy.deepcopy(gm)
    _node(odd, "relu").meta["val"] = object()  # nothing fusioncut can size or hand on
    before = {k: v for k, v in _tags(odd).items()}
    with pytest.warns(fusioncut.FallbackWarning, match="left the graph untagged for PyTorch's "
                                                       "partitioner: opaque value of type "
                                                       "object on node relu"):
        assert fusioncut.annotate(odd, num_fwd_outputs=n) is None
    assert _tags(odd) == before


# --- AnnotatingPartitioner and torch's budget ----------------------------------------------------


@pytest.mark.parametrize("budget", [0.5, 0.0])
def test_annotating_partitioner_under_torch_budget_trains_to_eager_gradients(eager, budget):
    with fusioncut._torch_compat.functorch_config().patch(activation_memory_budget=budget), \
            warnings.catch_warnings():
        warnings.simplefilter("error", TorchBudgetWarning)  # nothing re-decides: no warning
        grads = _train(fusioncut.AnnotatingPartitioner())
    for mine, ref in zip(grads, eager):
        torch.testing.assert_close(mine, ref)


def test_annotate_under_torch_budget_warns_of_torchs_second_pass(joint):
    """annotate alone cannot stop PyTorch's partitioner from applying the budget again: on
    torch 2.13 it then saves native_dropout's tuple and the forward fails. Said up front."""
    gm, n = joint
    config = fusioncut._torch_compat.functorch_config()
    with config.patch(activation_memory_budget=0.5), \
            pytest.warns(TorchBudgetWarning, match="decided under PyTorch's activation memory "
                                                   "budget 0.5.*saves the tuple of "
                                                   "native_dropout.*AnnotatingPartitioner"):
        fusioncut.annotate(copy.deepcopy(gm), num_fwd_outputs=n)
    with warnings.catch_warnings():  # the budget in Options: torch's is at 1, nothing to say
        warnings.simplefilter("error", TorchBudgetWarning)
        fusioncut.annotate(copy.deepcopy(gm), num_fwd_outputs=n,
                           options=Options(memory_budget=0.5))


def test_annotating_partitioner_with_disagreeing_region_budgets(eager):
    seen = []

    def partition_fn(gm, joint_inputs, **kwargs):
        calls = [n for n in gm.graph.nodes if n.op == "call_function"]
        for k, node in enumerate(calls):
            node.meta["custom"] = {REGION_KEY: (0.2, 0.7)[k % 2], "keep": k}
        with pytest.warns(fusioncut.BudgetWarning, match="conflicting activation memory "
                                                         "budget annotations"):
            out = fusioncut.AnnotatingPartitioner()(gm, joint_inputs, **kwargs)
        seen.append([n.meta["custom"] for n in calls])  # put back as they were
        return out

    grads = _train(partition_fn)
    for mine, ref in zip(grads, eager):
        torch.testing.assert_close(mine, ref)
    (customs,) = seen
    assert all(c[REGION_KEY] in (0.2, 0.7) and "keep" in c for c in customs)


@pytest.mark.parametrize("seed", range(12))
def test_fuzz_annotating_partitioner_with_random_tags_trains_to_eager(seed):
    """Random programs, random tags of every policy on random nodes, torch's budget at 1,
    0.5 or 0 and various options: eager's loss and gradients, or an error naming nodes."""
    rng = random.Random(1000 + seed)
    fn = _random_program(rng)
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(4, 8, generator=g, requires_grad=True)
    w = (torch.randn(8, 8, generator=g) / 3).requires_grad_(True)
    policies = [*CP, None]
    options = rng.choice([None, Options(mode="memory"), Options(memory_budget=0.3),
                          Options(offload="tagged")])

    def partition_fn(gm, joint_inputs, **kwargs):
        for node in gm.graph.nodes:
            tag = rng.choice(policies)
            if node.op != "output" and tag is not None and rng.random() < 0.3:
                node.meta["recompute"] = tag
        return fusioncut.AnnotatingPartitioner(options)(gm, joint_inputs, **kwargs)

    config = fusioncut._torch_compat.functorch_config()
    try:
        with config.patch(activation_memory_budget=rng.choice([1.0, 0.5, 0.0])):
            loss = aot_function(fn, nop, nop, partition_fn=partition_fn)(x, w)
    except (fusioncut.PartitionError, fusioncut.OffloadError) as e:
        assert e.nodes and all(node.name in str(e) for node in e.nodes[:8])
        return
    grads = torch.autograd.grad(loss, (x, w), allow_unused=True, materialize_grads=True)
    x2, w2 = (t.detach().clone().requires_grad_(True) for t in (x, w))
    ref = fn(x2, w2)
    refs = torch.autograd.grad(ref, (x2, w2), allow_unused=True, materialize_grads=True)
    torch.testing.assert_close(loss, ref)
    for mine, theirs in zip(grads, refs):
        torch.testing.assert_close(mine, theirs)
