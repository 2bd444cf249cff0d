"""No option combination breaks the partition's invariants (issues 19 and 20, bad input): over
every mode, memory target, device, offload setting and margin, a random value is never drawn
again, annotations are kept (``MUST_SAVE`` on the device, ``MUST_RECOMPUTE`` recomputed,
``MUST_CPU_OFFLOAD`` never recomputed and offloaded whenever saved unless ``offload="never"``),
only what torch's pass can move is offloaded, and the plan trains exactly like eager."""

from __future__ import annotations

import dataclasses
import warnings

import pytest
import torch
import torch.nn.functional as F
from functorch.compile import aot_function, make_boxed_func
from hypothesis import example, given, settings
from hypothesis import strategies as st
from torch.utils.checkpoint import CheckpointPolicy

import fusioncut
from fusioncut.device import PRESETS
from fusioncut.graph import OpKind
from fusioncut.options import Options

pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning")

H100 = PRESETS["h100"]
FAST_LINK = dataclasses.replace(H100, name="fast-link", host_bandwidth=H100.bandwidth,
                                offload_hidden=0.5)
ANNOTATED = {"relu": CheckpointPolicy.MUST_SAVE, "sin": CheckpointPolicy.MUST_RECOMPUTE,
             "tanh": CheckpointPolicy.MUST_CPU_OFFLOAD}


def model(x, w1, w2, w3):
    """Matmuls, a dropout (random), and one annotated value of each kind (``ANNOTATED``)."""
    a = torch.mm(x, w1).relu()
    d = F.dropout(a, 0.3, True)
    s = torch.mm(d, w2).sin()
    t = (s * 2.0).tanh()
    h = torch.mm(t.exp(), w3).cos()
    return (h * h + t.sum()).sum()


def _leaves():
    torch.manual_seed(0)
    return [torch.randn(256, 32), *(torch.randn(32, 32, requires_grad=True) for _ in range(3))]


def _train(options: Options):
    """One step under ``aot_function`` with fusioncut partitioning by ``options`` (its
    decision kept) and the same step in eager with the same random state: the decision and
    both sets of gradients."""
    box: dict = {}

    def partition(joint, inputs, **kwargs):
        for node in joint.graph.nodes:
            if node.name in ANNOTATED:
                node.meta["recompute"] = ANNOTATED[node.name]
        box["d"] = fusioncut.decide(joint, num_fwd_outputs=kwargs["num_fwd_outputs"],
                                    options=options)
        return fusioncut.partition(joint, inputs, options=options, **kwargs)

    def compiler(gm, _):
        return make_boxed_func(gm)

    args = _leaves()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # targets below every plan warn, as they should
        warnings.simplefilter("error", fusioncut.FallbackWarning)
        torch.manual_seed(1)
        aot_function(model, compiler, compiler, partition_fn=partition)(*args).backward()
    grads = [a.grad for a in args[1:]]
    eager = _leaves()
    torch.manual_seed(1)
    model(*eager).backward()
    return box["d"], grads, [a.grad for a in eager[1:]]


targets = st.one_of(
    st.just({}),
    st.builds(lambda b: {"memory_budget": b}, st.sampled_from([0.0, 0.3, 1.0])),
    st.builds(lambda k: {"memory_budget_bytes": k}, st.sampled_from([0, 40_000, 10 ** 9])),
    st.builds(lambda k: {"peak_memory_bytes": k}, st.sampled_from([1, 150_000, 10 ** 9])))


@settings(max_examples=30, deadline=None)
@given(mode=st.sampled_from(["runtime", "memory"]), target=targets,
       device=st.sampled_from([None, "h100", "cpu", FAST_LINK]),
       offload=st.sampled_from(["never", "tagged", "auto"]),
       margin=st.sampled_from([None, 0.0, 0.5]))
@example(mode="runtime", target={"memory_budget": 0.0}, device=FAST_LINK, offload="auto",
         margin=None)  # the three-way cut at its tightest
@example(mode="runtime", target={"peak_memory_bytes": 150_000}, device=FAST_LINK,
         offload="auto", margin=0.0)  # and the peak search on top of it
def test_no_option_combination_breaks_the_invariants(mode, target, device, offload, margin):
    if mode == "memory" and target:
        target = {}  # a memory target is for the runtime mode (Options refuses the pair)
    options = Options(mode=mode, device=device, offload=offload,
                      **({} if margin is None or "peak_memory_bytes" not in target
                         else {"peak_margin": margin}), **target)
    d, grads, eager = _train(options)
    torch.testing.assert_close(grads, eager)
    graph, name = d.graph, {i: d.graph.nodes[i].name for i in range(d.graph.num_nodes)}
    saved = {name[int(i)] for i in d.saved}
    offloaded = {name[int(i)] for i in d.offloaded}
    recomputed = {name[int(i)] for i in d.budget.point.recomputed} if d.budget else set()
    random = {name[i] for i in range(graph.num_nodes) if graph.kind[i] == OpKind.RANDOM}
    assert random and not recomputed & random  # a random value is never drawn again
    assert "relu" in saved and "relu" not in offloaded  # MUST_SAVE: kept on the device
    assert "sin" not in saved  # MUST_RECOMPUTE
    assert offloaded <= saved
    if offload == "never":  # offload annotations are no annotation at all (as in torch's)
        assert not offloaded
    else:
        assert "tanh" not in recomputed  # MUST_CPU_OFFLOAD: never recomputed ...
        assert "tanh" not in saved or "tanh" in offloaded  # ... and offloaded whenever saved
    assert all(d.offload.blocked[int(i)] is None for i in d.offloaded)
