"""Two ranks (gloo, CPU) training under torch.compile with fusioncut.InductorPartitioner.

Each test starts two interpreters with different PYTHONHASHSEEDs (tests/_ranks_worker.py),
trains 2 SGD steps compiled and the same 2 steps uncompiled, and checks: every rank saved
the same values in every joint graph, the compiled gradients equal the uncompiled ones, no
joint graph fell back to PyTorch's partitioner, and every collective of a joint graph runs
exactly once (none is recomputed in the backward).

What torch 2.13 puts in the joint graphs (CPU, gloo):
- DDP: ``torch.compile(DDP(net))`` compiles the wrapped module's forward (DDP's own forward
  graph-breaks); the gradient all-reduces run in DDP's reducer hooks, outside every graph.
- FSDP2: ``torch.compile(net)`` with ``fully_shard`` blocks compiles each block's forward;
  FSDP2's hooks are ``torch._dynamo.disable``d, so its all-gathers and reduce-scatters run
  eagerly, outside every graph (a loop over blocks falls back to eager around them).
- Functional collectives called by the model (here sequence parallelism: all_gather in the
  forward, reduce_scatter in its backward) are traced into the joint graph.
- Tensor parallelism (DTensor, ``parallelize_module``): the row-wise Linear's all-reduce is
  traced, and the device mesh enters the joint graph as opaque objects (``FakeScriptObject``
  placeholders) that the backward's outputs use, so they must be saved.
"""

from __future__ import annotations

import torch

from _ranks_worker import launch

SYNC_LOG = "fusioncut: _sync_decision_cross_ranks: using rank 0's saved set"


def _check(results, *, same_grads_on_every_rank: bool) -> None:
    r0, r1 = results
    assert r0["hash_seed"] != r1["hash_seed"]
    assert r0["graphs"], "Inductor never called the partitioner"
    assert [g["saved"] for g in r0["graphs"]] == [g["saved"] for g in r1["graphs"]]
    for r in results:
        for g in r["graphs"]:
            assert g["fallbacks"] == []
            assert not set(g["fw_collectives"]) & set(g["bw_collectives"]), \
                "a collective is recomputed in the backward"
            assert sorted(g["fw_collectives"] + g["bw_collectives"]) == \
                sorted(g["joint_collectives"])
        for got, want in zip(r["compiled_grads"], r["eager_grads"], strict=True):
            for a, b in zip(got, want, strict=True):
                torch.testing.assert_close(a, b, rtol=1e-4, atol=1e-5)
    if same_grads_on_every_rank:
        for a, b in zip(r0["compiled_grads"][-1], r1["compiled_grads"][-1], strict=True):
            torch.testing.assert_close(a, b, rtol=1e-5, atol=1e-6)


def test_ranks_ddp_compiled_equals_uncompiled_and_ranks_agree(tmp_path):
    results = launch("ddp", str(tmp_path))
    _check(results, same_grads_on_every_rank=True)  # DDP averaged them


def test_ranks_fsdp2_compiled_equals_uncompiled_and_ranks_agree(tmp_path):
    results = launch("fsdp2", str(tmp_path))
    _check(results, same_grads_on_every_rank=True)  # gathered from the shards


def test_ranks_sync_flag_shares_rank0_decision_without_fallback(tmp_path):
    """_sync_decision_cross_ranks = True on a graph with traced collectives: no fallback,
    each rank logs that it uses rank 0's saved set, and the collectives stay where the
    joint graph put them (all_gather in the forward, reduce_scatter in the backward)."""
    results = launch("sp", str(tmp_path))
    _check(results, same_grads_on_every_rank=False)  # each rank owns its rows' gradient
    for r in results:
        (g,) = r["graphs"]
        fw_ops = {op for op, name in zip(g["joint_ops"], g["joint_collectives"])
                  if name in g["fw_collectives"]}
        bw_ops = {op for op, name in zip(g["joint_ops"], g["joint_collectives"])
                  if name in g["bw_collectives"]}
        assert "_c10d_functional.all_gather_into_tensor.default" in fw_ops
        assert "_c10d_functional.reduce_scatter_tensor.default" in bw_ops
        assert [m for m in r["log"] if m.startswith(SYNC_LOG)], r["log"]


def test_ranks_tensor_parallel_passes_the_device_mesh_to_the_backward(tmp_path):
    results = launch("tp", str(tmp_path))
    _check(results, same_grads_on_every_rank=True)  # replicated input, gathered gradients
    for r in results:
        graphs = [g for g in r["graphs"] if g["joint_objects"]]
        assert graphs, "no joint graph held the device mesh"
        for g in graphs:
            assert any("all_reduce" in op for op in g["joint_ops"])
            assert set(g["saved"]) & set(g["joint_objects"]), \
                "the backward uses the mesh, so it is saved"
