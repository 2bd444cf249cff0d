"""Every rank saves the same values: ``torch._functorch.config._sync_decision_cross_ranks``.

fusioncut's decision is a pure function of the joint graph and the ``Options``, so ranks that
trace the same program decide the same. PyTorch's flag exists for what can still differ
between ranks: size hints (a rank with an uneven batch), or anything else a rank's trace
picked up. When the flag is set, torch.distributed is initialized with more than one rank
and the joint graph holds a collective, every rank decides, then takes rank 0's saved set
from the compiler's process group (torch 2.15+: ``get_compile_sync_pg``, a gloo group of its
own that AOTAutograd's cache-hit sync, ``_sync_cache_decision_cross_ranks``, builds on every
rank; the default group before)::

    every rank:  decide ─> structure digest ──all_gather_object──> digests
                   digests equal:    rank 0's saved names ──broadcast_object_list──> every rank
                   digests differ:   rank 0's structure ──broadcast──> each rank's first
                                     difference ──all_gather──> StructureMismatchError on all

The structure (``structure``: per node name, op, target, argument nodes; the outputs) holds
no sizes, so ranks whose shapes differ still agree on it and share rank 0's saved set: what
makes a saved set correct (bans that keep the graph correct, what cannot be saved) is
structure; sizes only change which set is cheapest. Ranks whose graphs
differ in structure all raise the same error, naming the first differing node, instead of
emitting graphs that would wait on each other's collectives.

Graphs without a collective are left alone, as torch does: every rank runs (so compiles) a
graph with a collective in the same order, but a graph without one may be compiled on some
ranks only (a rank-dependent branch, a recompile after a guard failed on one rank), and a
collective in its partitioner would then wait forever.
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np
import torch

from fusioncut import _torch_compat
from fusioncut._log import logger
from fusioncut.decision import Decision
from fusioncut.graph import JointGraph
from fusioncut.ops import OpKind

__all__ = ["StructureMismatchError", "adopt_rank0", "structure", "sync_flag_active",
           "sync_requested", "sync_saved"]


class StructureMismatchError(RuntimeError):
    """Ranks asked to share a decision traced structurally different joint graphs.
    ``rank`` is the first rank whose graph differs from rank 0's, ``index`` the position of
    the first differing node (graph order)."""

    def __init__(self, message: str, rank: int, index: int):
        super().__init__(message)
        self.rank = rank
        self.index = index


def sync_flag_active() -> bool:
    """The flag is set and torch.distributed runs more than one rank (read on every call)."""
    if not getattr(_torch_compat.functorch_config(), "_sync_decision_cross_ranks", False):
        return False
    dist = torch.distributed
    return dist.is_available() and dist.is_initialized() and dist.get_world_size() > 1


def sync_requested(graph: JointGraph) -> bool:
    """Whether this graph's saved set must be rank 0's: the flag is active and the graph
    holds a collective (see the module docstring for why only then)."""
    return sync_flag_active() and bool(np.any(graph.kind == int(OpKind.COLLECTIVE)))


def adopt_rank0(decision: Decision, *, function: str = "partition") -> None:
    """Replace ``decision.saved`` (its cut value and offloaded values follow) by rank 0's
    saved set. Values a budget plan chose to offload stay offloaded where rank 0 saves them
    too (offloading adds no collective, so ranks need not agree on it)."""
    saved = sync_saved(decision.graph, decision.saved, function=function)
    budget = decision.budget
    chose = budget is not None and budget.frontier.generator.bnet.offload is not None
    decision.replace_saved(saved, np.intersect1d(decision.offloaded, saved) if chose else None)


def sync_saved(graph: JointGraph, saved: np.ndarray, *, function: str = "partition"
               ) -> np.ndarray:
    """Rank 0's saved set as indices into ``graph`` (ascending), exchanged through the
    default process group; every rank must call this for the same graph. Raises
    ``StructureMismatchError`` on every rank when some rank's graph differs from rank 0's."""
    dist = torch.distributed
    signature = structure(graph)
    digest = hashlib.sha256(repr(signature).encode()).hexdigest()
    with _torch_compat.outside_tracing():
        # torch 2.15+: the compiler's own gloo group, apart from the model's collectives
        # (a rank already running the model must not match a compile-time collective).
        group = _torch_compat.compile_sync_group()
        world = dist.get_world_size(group)
        rank = dist.get_rank(group)
        digests: list[Any] = [None] * world
        dist.all_gather_object(digests, digest, group=group)
        if all(d == digests[0] for d in digests):
            box = [[graph.nodes[i].name for i in saved.tolist()] if rank == 0 else None]
            dist.broadcast_object_list(box, src=_global_rank0(group), group=group)
            names = box[0]
        else:
            box = [signature if rank == 0 else None]
            dist.broadcast_object_list(box, src=_global_rank0(group), group=group)
            mine = _first_difference(box[0], signature)
            differences: list[Any] = [None] * world
            dist.all_gather_object(differences, mine, group=group)
            raise _mismatch(function, differences)
    index = {nd.name: i for i, nd in enumerate(graph.nodes)}
    missing = [name for name in names if name not in index]
    if missing:  # equal digests make this unreachable short of a hash collision
        raise StructureMismatchError(
            f"fusioncut.{function}: _sync_decision_cross_ranks: rank 0 saved {missing[0]!r}, "
            f"which rank {rank}'s joint graph does not have", rank, -1)
    chosen = np.array(sorted(index[name] for name in names), dtype=np.int64)
    logger.info("fusioncut: _sync_decision_cross_ranks: using rank 0's saved set (%d values)",
                len(chosen))
    if not np.array_equal(chosen, np.sort(saved)):
        logger.info("fusioncut: _sync_decision_cross_ranks: rank %d had decided %d values, "
                    "%d of them not in rank 0's set", rank, len(saved),
                    len(np.setdiff1d(saved, chosen)))
    return chosen


def _global_rank0(group: Any) -> int:
    """The global rank of ``group``'s rank 0 (0 for the default group)."""
    return 0 if group is None else torch.distributed.get_global_rank(group, 0)


def structure(graph: JointGraph) -> list[tuple]:
    """Per node ``(name, op, target, argument node names)``, then the output node's
    arguments and ``num_fwd_outputs``: what two ranks must share to share a saved set.
    Sizes are left out on purpose (ranks with different shapes share one decision)."""
    out: list[tuple] = []
    for i, node in enumerate(graph.nodes):
        out.append((node.name, node.op, _target_text(node.target),
                    tuple(graph.nodes[j].name for j in graph.inputs[i])))
    output = graph.gm.graph.find_nodes(op="output")[0]
    out.append(("output", "output", str(graph.num_fwd_outputs),
                tuple(a.name if hasattr(a, "name") else repr(a)
                      for a in _torch_compat.tree_leaves(list(output.args)))))
    return out


def _target_text(target: Any) -> str:
    """A name for a node's target that is the same in every process (no object address)."""
    text = target if isinstance(target, str) else str(target)
    if " at 0x" in text:
        text = f"{getattr(target, '__module__', '')}.{getattr(target, '__qualname__', text)}"
    return text


def _describe(entry: tuple | None) -> str:
    if entry is None:
        return "no node there"
    name, op, target, args = entry
    return f"{name!r} ({op} {target}, arguments {list(args)})"


def _first_difference(reference: list[tuple], mine: list[tuple]) -> tuple | None:
    """``(index, rank 0's entry, this rank's entry)`` at the first difference, or None."""
    for k in range(max(len(reference), len(mine))):
        a = reference[k] if k < len(reference) else None
        b = mine[k] if k < len(mine) else None
        if a != b:
            return k, a, b
    return None


def _mismatch(function: str, differences: list[Any]) -> StructureMismatchError:
    head = (f"fusioncut.{function}: _sync_decision_cross_ranks: the ranks traced different "
            f"joint graphs, so rank 0's saved set cannot be used; ")
    ranks = [r for r, d in enumerate(differences) if d is not None]
    if not ranks:  # the digests differed but no signature does: repr is not deterministic
        return StructureMismatchError(head + "the graphs' signatures differ in rendering "
                                      "only", -1, -1)
    rank = ranks[0]
    k, theirs, mine = differences[rank]
    entry = theirs if theirs is not None else mine
    where = "the output" if entry[1] == "output" else f"node {k}"
    also = f" (ranks {ranks} differ)" if len(ranks) > 1 else ""
    return StructureMismatchError(
        head + f"rank {rank}'s graph differs from rank 0's at {where}: rank 0 has "
        f"{_describe(theirs)}, rank {rank} has {_describe(mine)}{also}", rank, k)
