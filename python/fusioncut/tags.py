"""``fusioncut.annotate``: fusioncut's decision written onto the joint graph as PyTorch's
``CheckpointPolicy`` tags, for tools that run a partitioner of their own.

PyTorch's ``min_cut_rematerialization_partition`` honours ``node.meta["recompute"]``: a
``MUST_SAVE`` node is never recomputed (its in-vertex hangs off the source), a
``MUST_RECOMPUTE`` node always is (its in-vertex feeds the sink). ``annotate`` decides as
``fusioncut.partition`` would and tags every forward node of the joint graph (inputs aside)
with where fusioncut's plan runs it::

    node the plan recomputes in the backward (a forward   -> MUST_RECOMPUTE
      node, or one only the backward needs: a detach)
    any other forward node                                -> MUST_SAVE  (computed once, forward)

Then no recomputation is left for the other partitioner to choose: a ``MUST_SAVE`` node
crosses into the backward exactly when a recomputed node or a backward op reads it, which is
fusioncut's saved set. Views and getitems are the exception PyTorch makes (no tag bans them);
they follow their producer, as fusioncut's do. DeepSpeed's DeepCompile calls that same
partitioner; torchtitan's graph trainer applies the tags itself. ``Placement`` names the
decision per node, so a third placement (``MUST_CPU_OFFLOAD``, once fusioncut offloads) is
one more case of ``_TAGS``.

Precedence with tags already on the graph: ``MUST_SAVE`` / ``MUST_RECOMPUTE`` are
constraints the decision obeys (a contradiction is ``PartitionError`` naming the nodes,
before anything is written); ``PREFER_SAVE`` / ``PREFER_RECOMPUTE`` are preferences the
decision may override, and the written tag says what it chose. A node recomputed under a
checkpoint region id (``ac_graph_id``) lower than that of a recomputed user would be turned
back into ``MUST_SAVE`` by PyTorch's ``cleanup_recompute_tags``; fusioncut's decision already
applied that rule where it wanted it, so annotate drops the id from such a node.
"""

from __future__ import annotations

import enum
import warnings
from collections.abc import Sequence

import numpy as np
import torch.fx as fx
from torch.utils.checkpoint import CheckpointPolicy

from fusioncut.budget import BudgetWarning
from fusioncut.decision import Decision, decide_graph
from fusioncut.emit.offload import side_stream_problem
from fusioncut.fallback import FallbackWarning, unsupported_config
from fusioncut.graph import JointGraph, Role, Value
from fusioncut.options import Options
from fusioncut.partitioner import with_torch_budget, with_torch_offload

__all__ = ["Placement", "TorchBudgetWarning", "annotate", "placements"]


class Placement(enum.Enum):
    """Where fusioncut's plan runs a forward node."""

    FORWARD = "forward only"  # computed in the forward; saved if the backward reads it
    RECOMPUTED = "recomputed in the backward"


_TAGS = {Placement.FORWARD: CheckpointPolicy.MUST_SAVE,
         Placement.RECOMPUTED: CheckpointPolicy.MUST_RECOMPUTE}
_RECOMPUTE_TAGS = (CheckpointPolicy.MUST_RECOMPUTE, CheckpointPolicy.PREFER_RECOMPUTE)


def annotate(joint_module: fx.GraphModule, *, num_fwd_outputs: int,
             static_lifetime_input_indices: Sequence[int] | None = None,
             options: Options | None = None) -> Decision | None:
    """Tag ``joint_module``'s forward nodes with fusioncut's decision (``meta["recompute"]``,
    in place) and return the ``Decision``; any partitioner that honours ``CheckpointPolicy``
    tags then saves fusioncut's set.

    Torch's settings are read as ``partition`` reads them: a memory budget from
    ``activation_memory_budget`` or region annotations (the strictest, with a
    ``BudgetWarning``, when they disagree), offloading from ``enable_activation_offloading``.
    A recompute tag on an input is removed (an input is never recomputed, and PyTorch's
    partitioner fails on one); with offloading on (``Options.offload`` or torch's flag),
    ``meta["should_offload"]`` marks exactly the values the decision offloads, refused
    (``ValueError``) where torch's ``activation_offload_separate_stream`` could not run them
    (values on the CPU). Annotating again with the same options writes the same tags. A
    budget taken from torch (not ``options``) warns (``TorchBudgetWarning``) when PyTorch's
    partitioner, applying it again, would save a tagged multi-output op's tuple.

    A graph fusioncut does not model (a construct or torch setting that would make
    ``fusioncut.partition`` fall back) is left untagged with a ``FallbackWarning`` naming it,
    and None is returned.

    Rejects what ``fusioncut.partition`` rejects (a malformed graph, a checkpoint annotation
    of the wrong type, a bad ``num_fwd_outputs``, ``static_lifetime_input_indices`` or
    ``options``); tags that contradict each other or what can be saved raise
    ``PartitionError`` and leave the graph as it was.
    """
    if options is None:
        options = Options()
    if not isinstance(options, Options):
        raise TypeError(f"annotate: options must be a fusioncut.Options, got "
                        f"{type(options).__name__}")
    graph = JointGraph.from_fx(joint_module, num_fwd_outputs, options.unbacked_size_hint,
                               function="annotate",
                               static_lifetime_input_indices=static_lifetime_input_indices)
    reason = unsupported_config() or graph.unsupported
    if reason is not None:
        warnings.warn(f"fusioncut.annotate: left the graph untagged for PyTorch's "
                      f"partitioner: {reason}", FallbackWarning, stacklevel=2)
        return None
    resolved = with_torch_budget(with_torch_offload(options), graph.memory_budget,
                                 graph.budget_conflict)
    decision = decide_graph(graph, static_lifetime_input_indices, resolved)
    problem = side_stream_problem(decision.offloaded_nodes)
    if problem is not None:
        raise ValueError(f"annotate: {problem}")
    where = placements(decision)
    nodes = graph.nodes
    for i, placement in where.items():
        nodes[i].meta["recompute"] = _TAGS[placement]
    for node in joint_module.graph.find_nodes(op="placeholder"):
        if node.meta.get("recompute") in _RECOMPUTE_TAGS:
            del node.meta["recompute"]  # an input is never recomputed; torch's cut fails on it
    if decision.offload is not None:
        _mark_offloaded(graph, decision.offloaded)
    _keep_recomputed_boundaries(graph, where)
    if resolved.memory_budget != options.memory_budget:
        _warn_torch_budget(graph, where, resolved.memory_budget)
    return decision


class TorchBudgetWarning(BudgetWarning):
    """``annotate`` decided under a budget PyTorch's partitioner will apply again over the
    tags (``AnnotatingPartitioner`` runs it at budget 1 and silences this)."""


def _warn_torch_budget(graph: JointGraph, where: dict[int, Placement], budget: float) -> None:
    """torch 2.13's knapsack saves what MUST_SAVE names among the ops it would ban, a
    multi-output op's tuple included, which fails when the forward runs."""
    tuples = [graph.nodes[i].name for i, placement in where.items()
              if placement is Placement.FORWARD and graph.value[i] == Value.MULTI]
    if tuples:
        warnings.warn(
            f"fusioncut.annotate: decided under PyTorch's activation memory budget "
            f"{budget:g} (its config or the graph's annotations); PyTorch's partitioner reads "
            f"that budget too and re-decides over the tags: on torch 2.13 it saves the tuple "
            f"of {tuples[0]} (tagged MUST_SAVE), which fails at run time. Run it at "
            f"activation_memory_budget 1 without the annotations, as "
            f"fusioncut.AnnotatingPartitioner does, and give fusioncut the budget",
            TorchBudgetWarning, stacklevel=3)


def _mark_offloaded(graph: JointGraph, offloaded: np.ndarray) -> None:
    """``meta["should_offload"]`` on exactly the nodes the decision offloads, the mark
    PyTorch's partitioner offloads by under ``enable_activation_offloading`` (torch 2.13
    reads no offload tag): a value the rule refused, an input among them, keeps no mark."""
    chosen = set(offloaded.tolist())
    for i, node in enumerate(graph.nodes):
        if i in chosen:
            node.meta["should_offload"] = True
        else:
            node.meta.pop("should_offload", None)


def placements(decision: Decision) -> dict[int, Placement]:
    """``{node index: Placement}`` for every forward or saved node that is not an input, and every
    node the forward does not need but the backward computes from saved values (a detach of
    a saved activation): recomputed when the backward, reading only the saved values and the
    inputs, needs it (or an annotation ties it to the backward), forward only otherwise.
    Left untagged, PyTorch would be free to save such a backward-only view instead of its
    saved base."""
    graph = decision.graph
    role = graph.role
    stop = np.zeros(graph.num_nodes, dtype=bool)
    stop[decision.saved] = True
    stop |= role <= Role.CONSTANT  # inputs, tangents, seeds, constants
    recomputed = np.zeros(graph.num_nodes, dtype=bool)
    seen = stop.copy()
    pending = np.flatnonzero(role == Role.BACKWARD).tolist()
    inputs = graph.inputs
    while pending:
        for j in inputs[pending.pop()]:
            if not seen[j]:
                seen[j] = True
                recomputed[j] = True
                pending.append(j)
    saved = np.zeros(graph.num_nodes, dtype=bool)
    saved[decision.saved] = True
    forward = (role == Role.FORWARD) | (saved & (role > Role.CONSTANT))
    recomputed &= forward | (role == Role.UNCLAIMED)
    recomputed |= decision.sink_in & forward  # recompute annotations the backward skips
    return {i: Placement.RECOMPUTED if recomputed[i] else Placement.FORWARD
            for i in np.flatnonzero(forward | recomputed).tolist()}


def _keep_recomputed_boundaries(graph: JointGraph, where: dict[int, Placement]) -> None:
    """Drop ``ac_graph_id`` from a recomputed node that has a recomputed user of a later
    checkpoint region: PyTorch's ``cleanup_recompute_tags`` would otherwise save it."""
    nodes = graph.nodes
    for i, placement in where.items():
        if placement is not Placement.RECOMPUTED:
            continue
        mine = nodes[i].meta.get("ac_graph_id")
        if mine is None:
            continue
        for u in graph.users(i).tolist():
            theirs = nodes[u].meta.get("ac_graph_id")
            if (nodes[u].meta.get("recompute") in _RECOMPUTE_TAGS and theirs is not None
                    and theirs > mine):
                del nodes[i].meta["ac_graph_id"]
                break
