"""``_sync_decision_cross_ranks``: rank 0's saved set on every rank (fusioncut.ranks).

The two-rank cases run once, in two interpreters with different PYTHONHASHSEEDs
(tests/_ranks_worker.py, scenario ``direct``: ``fusioncut.partition`` through aot_function,
no Inductor); the rest run in this process.
"""

from __future__ import annotations

import warnings

import pytest
import torch

import fusioncut
from fusioncut import ranks
from fusioncut.fallback import FallbackWarning, unsupported_config
from fusioncut.graph import JointGraph
from _ranks_worker import launch

SYNC_LOG = "fusioncut: _sync_decision_cross_ranks: using rank 0's saved set"


@pytest.fixture(scope="module")
def direct(tmp_path_factory):
    return launch("direct", str(tmp_path_factory.mktemp("ranks_direct")))


def _syncs(result):
    return [m for m in result["log"] if m.startswith(SYNC_LOG)]


def test_sync_rank1_uses_rank0_saved_set(direct):
    r0, r1 = direct
    # rank 1 alone (a byte budget of 0) would save less than rank 0 ...
    assert r1["own_saved"] != r0["own_saved"]
    # ... but with the flag every rank emits rank 0's saved set, and computes the right thing
    (g0,), (g1,) = r0["sp_graphs"], r1["sp_graphs"]
    assert g0["saved"] == g1["saved"] == r0["own_saved"]
    assert g0["fallbacks"] == g1["fallbacks"] == []
    for r in direct:
        for a, b in zip(r["sp_got"], r["sp_want"], strict=True):
            torch.testing.assert_close(a, b, rtol=1e-5, atol=1e-6)
    assert f"{SYNC_LOG} ({len(r0['own_saved'])} values)" in r1["log"]
    assert any(m.startswith("fusioncut: _sync_decision_cross_ranks: rank 1 had decided")
               for m in r1["log"])


def test_sync_partition_for_sizes_on_a_dynamic_graph(direct):
    r0, r1 = direct
    (g0,), (g1,) = r0["sized_graphs"], r1["sized_graphs"]
    assert g0["saved"] == g1["saved"]
    assert any(n.startswith("sym_size") for n in g0["saved"])  # the graph is symbolic
    assert g0["fallbacks"] == g1["fallbacks"] == []
    for r in direct:
        for a, b in zip(r["sized_got"], r["sized_want"], strict=True):
            torch.testing.assert_close(a, b, rtol=1e-5, atol=1e-6)


def test_sync_leaves_graphs_without_collectives_alone(direct):
    """No collective, no exchange (torch's rule: such a graph may be compiled on some ranks
    only): each rank keeps its own decision, and logs no sync for it."""
    r0, r1 = direct
    (g0,), (g1,) = r0["local_graphs"], r1["local_graphs"]
    assert g0["joint_collectives"] == [] and g0["fallbacks"] == []
    assert g0["saved"] != g1["saved"]  # rank 1's Options differ
    assert len(_syncs(r0)) == len(_syncs(r1)) == 2  # the static and the dynamic sp graphs


def test_sync_different_graphs_raise_on_every_rank_naming_the_node(direct):
    errors = [r["mismatch_error"] for r in direct]
    assert errors[0] == errors[1]  # the same error on both ranks: neither goes on alone
    kind, message, rank, index = errors[0]
    assert kind == "StructureMismatchError"
    assert rank == 1 and index >= 0
    assert "rank 1's graph differs from rank 0's at node" in message
    assert "rank 0 has 'tanh' (call_function aten.tanh.default" in message
    assert "rank 1 has 'sin' (call_function aten.sin.default" in message


# --- one process ------------------------------------------------------------------------------


def _fn(x, w):
    return torch.tanh(x @ w).sin().sum()


def _args(rows=4):
    return torch.randn(rows, 8), torch.randn(8, 8, requires_grad=True)


def test_sync_flag_is_no_longer_a_fallback():
    with torch._functorch.config.patch(_sync_decision_cross_ranks=True):
        assert unsupported_config() is None
        assert not ranks.sync_flag_active()  # no process group here
        cap = fusioncut.capture(_fn, *_args(), via="aot")
        with warnings.catch_warnings():
            warnings.simplefilter("error", FallbackWarning)
            fw, bw = fusioncut.partition(cap.joint_module, cap.joint_inputs,
                                         num_fwd_outputs=cap.num_fwd_outputs)
    assert fw is not None and bw is not None


def test_sync_single_rank_group_exchanges_nothing(tmp_path):
    """A world of one rank has nothing to agree on: no exchange."""
    import torch.distributed as dist

    dist.init_process_group("gloo", init_method=f"file://{tmp_path / 'init'}", rank=0,
                            world_size=1)
    try:
        with torch._functorch.config.patch(_sync_decision_cross_ranks=True):
            assert not ranks.sync_flag_active()
    finally:
        dist.destroy_process_group()


def _graph(fn, rows):
    cap = fusioncut.capture(fn, *_args(rows), via="aot")
    return JointGraph.from_fx(cap.joint_module, cap.num_fwd_outputs)


def test_structure_ignores_sizes_and_sees_ops():
    a, b = ranks.structure(_graph(_fn, 4)), ranks.structure(_graph(_fn, 64))
    assert a == b  # ranks with other batch sizes still share rank 0's decision
    c = ranks.structure(_graph(lambda x, w: torch.sigmoid(x @ w).sin().sum(), 4))
    diff = ranks._first_difference(a, c)
    assert diff is not None and diff[1][2] == "aten.tanh.default" \
        and diff[2][2] == "aten.sigmoid.default"


def test_structure_names_python_targets_without_addresses():
    def local_op(t):  # a plain function as a node target renders with its address
        return t

    text = ranks._target_text(local_op)
    assert " at 0x" not in text and text.endswith("local_op")
    assert ranks._target_text(torch.ops.aten.mm.default) == "aten.mm.default"


def test_mismatch_message_when_a_rank_has_more_nodes():
    ref = [("x", "placeholder", "x", ())]
    mine = ref + [("y", "call_function", "aten.sin.default", ("x",))]
    err = ranks._mismatch("partition", [None, ranks._first_difference(ref, mine), None])
    assert isinstance(err, ranks.StructureMismatchError)
    assert (err.rank, err.index) == (1, 1)
    assert "rank 0 has no node there, rank 1 has 'y' (call_function aten.sin.default, " \
        "arguments ['x'])" in str(err)
