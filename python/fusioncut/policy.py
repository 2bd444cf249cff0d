"""What may be recomputed, what must be, and what can never be saved -- each with a reason.

``analyze(graph, options)`` turns a ``JointGraph`` into a ``Policy``, three per-node lists of
``Reason | None`` that become the infinite edges of the flow network::

    ban[i]        i's in-vertex is tied to the source: i is not recomputed in the backward
                  (graph inputs; compute-intensive, random, collective, mutating, ... ops;
                  MUST_SAVE; small reduction outputs; values a backward op materializes)
    recompute[i]  i's in-vertex is tied to the sink: the backward computes i itself
                  (MUST_RECOMPUTE / PREFER_RECOMPUTE annotations)
    unsaveable[i] i's own edge is infinite: i is not a tensor or SymInt

A node with both a ban and a recompute reason is a contradiction the solver reports as a path
of one node. ``soft[i]`` marks constraints that come from PREFER_* annotations: the
partitioner drops them when they lie on a path that makes every cut infinite.

Bans apply to FORWARD nodes only: a node the forward does not need is computed once, in the
backward, which is not recomputation. Views and getitems are never banned (they cost nothing;
the op that produced their storage carries the ban). The structure is size-independent except
for the reduction ban, which compares element counts (size hints under dynamic shapes).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import numpy as np
from torch.utils.checkpoint import CheckpointPolicy

from fusioncut.graph import JointGraph, Role, Value
from fusioncut.ops import OpKind, RUNTIME_RECOMPUTABLE
from fusioncut.options import Options


class ReasonKind(enum.Enum):
    INPUT = "graph input"
    COMPUTE_INTENSIVE = "compute-intensive"
    RANDOM = "random"
    COLLECTIVE = "collective"
    MUTATING = "mutating"
    EFFECTFUL = "effectful"
    OPAQUE = "opaque op"
    NOT_FUSIBLE = "not fusible"
    REDUCTION = "reduction"
    MATERIALIZED_IN_BACKWARD = "materialized in backward"
    ANNOTATION = "annotation"
    NOT_SAVEABLE = "not a tensor or SymInt"


@dataclass(frozen=True)
class Reason:
    kind: ReasonKind
    detail: str

    def __str__(self) -> str:
        return f"{self.kind.value}: {self.detail}"


_RECOMPUTE_TAGS = (CheckpointPolicy.MUST_RECOMPUTE, CheckpointPolicy.PREFER_RECOMPUTE)
# Bans that keep the graph correct; no annotation lifts them.
_HARD_KINDS = frozenset({OpKind.MUTATING, OpKind.EFFECTFUL})
_NEVER_BANNED = frozenset({OpKind.VIEW, OpKind.GETITEM, OpKind.SYMBOLIC,
                           OpKind.PLACEHOLDER, OpKind.GET_ATTR})
_LOOK_THROUGH = (OpKind.VIEW, OpKind.GETITEM)
_VALUE_NAMES = {Value.SYMOTHER: "SymFloat/SymBool/scalar", Value.MULTI: "tuple",
                Value.NONE: "None", Value.OPAQUE: "opaque object", Value.MISSING: "no meta['val']"}


@dataclass
class Policy:
    ban: list[Reason | None]
    recompute: list[Reason | None]
    unsaveable: list[Reason | None]
    soft: np.ndarray  # bool (n,): the ban/recompute of node i comes from a PREFER_* tag
    replays_rng: bool  # an annotated random op is recomputed: the emitter must replay its RNG

    def banned_mask(self) -> np.ndarray:
        return np.fromiter((r is not None for r in self.ban), dtype=bool, count=len(self.ban))

    def recompute_mask(self) -> np.ndarray:
        return np.fromiter((r is not None for r in self.recompute), dtype=bool,
                           count=len(self.recompute))

    def unsaveable_mask(self) -> np.ndarray:
        return np.fromiter((r is not None for r in self.unsaveable), dtype=bool,
                           count=len(self.unsaveable))


def effective_annotations(graph: JointGraph) -> list[tuple[object, str] | None]:
    """``(CheckpointPolicy, why)`` per node after torch's ``cleanup_recompute_tags`` rules.

    A recompute-tagged node whose recompute-tagged user belongs to a later checkpoint region
    (``ac_graph_id``) is the boundary between two regions and is saved; so is the output of a
    region that has a backward hook. The graph's metadata is not modified.
    """
    nodes = graph.nodes
    out: list[tuple[object, str] | None] = [None] * len(nodes)
    for i, node in enumerate(nodes):
        tag = node.meta.get("recompute")
        if tag is None:
            continue
        why = f"{tag.name} (node.meta['recompute'])"
        if tag in _RECOMPUTE_TAGS:
            my_id = node.meta.get("ac_graph_id")
            recompute_user = False
            for u in graph.users[i]:
                umeta = nodes[u].meta
                if umeta.get("recompute") in _RECOMPUTE_TAGS:
                    recompute_user = True
                    uid = umeta.get("ac_graph_id")
                    if my_id is not None and uid is not None and uid > my_id:
                        tag = CheckpointPolicy.MUST_SAVE
                        why = (f"MUST_SAVE (output of checkpoint region {my_id} feeding "
                               f"region {uid})")
                        break
            if tag in _RECOMPUTE_TAGS and node.meta.get("has_backward_hook", False) \
                    and not recompute_user:
                tag = CheckpointPolicy.MUST_SAVE
                why = "MUST_SAVE (checkpoint region output with a backward hook)"
        out[i] = (tag, why)
    _force_save_backward_mutation_sources(graph, out)
    return out


def _force_save_backward_mutation_sources(graph: JointGraph, out: list) -> None:
    """An input mutated in the forward and again in the backward: the forward's source value
    must be saved, not recomputed, or the backward would apply the mutation twice. AOTAutograd
    emits those ``copy_`` nodes at the end of the joint graph, so a reverse scan stops early."""
    mutated_in_bw: set = set()
    for node in reversed(graph.nodes):
        if getattr(node.target, "__name__", None) != "copy_.default":
            break
        tag = node.meta.get("partitioner_tag")
        if tag == "must_be_in_backward":
            mutated_in_bw.add(node.args[0])
        elif tag == "must_be_in_forward" and node.args[0] in mutated_in_bw:
            j = graph.index.get(node.args[1])
            if j is not None:
                out[j] = (CheckpointPolicy.MUST_SAVE,
                          f"MUST_SAVE (source of a forward mutation of {node.args[0].name} "
                          f"that the backward mutates again)")


def analyze(graph: JointGraph, options: Options) -> Policy:
    n = graph.num_nodes
    kind = graph.kind
    role = graph.role
    value = graph.value
    users = graph.users
    inputs = graph.inputs
    numel = graph.numel
    nodes = graph.nodes
    runtime = options.mode == "runtime"
    ratio = options.reduction_ratio
    ban_mat_bw = options.bans_materialized_in_backward
    override = options.annotations_override_bans

    ban: list[Reason | None] = [None] * n
    recompute: list[Reason | None] = [None] * n
    unsaveable: list[Reason | None] = [None] * n
    soft = np.zeros(n, dtype=bool)
    replays_rng = False

    blocker = _backward_blockers(graph) if ban_mat_bw else None
    annotations = effective_annotations(graph)

    for i in range(n):
        v = value[i]
        if v != Value.TENSOR and v != Value.SYMINT:
            unsaveable[i] = Reason(ReasonKind.NOT_SAVEABLE, _VALUE_NAMES.get(Value(v), "value"))
        r = role[i]
        if r == Role.PRIMAL or r == Role.FWD_SEED:
            ban[i] = Reason(ReasonKind.INPUT, nodes[i].name)
            continue
        k = kind[i]
        if k == OpKind.PLACEHOLDER or k == OpKind.GET_ATTR:
            continue
        ann = annotations[i]
        tag = ann[0] if ann is not None else None
        if tag in _RECOMPUTE_TAGS:
            recompute[i] = Reason(ReasonKind.ANNOTATION, ann[1])
            soft[i] = tag == CheckpointPolicy.PREFER_RECOMPUTE
            if k == OpKind.RANDOM:
                replays_rng = True
        if r != Role.FORWARD or k in _NEVER_BANNED:
            continue
        reason = None
        if k in _HARD_KINDS:
            reason = _op_reason(graph, i)
        elif tag in _RECOMPUTE_TAGS and override:
            continue
        elif tag == CheckpointPolicy.MUST_SAVE or tag == CheckpointPolicy.PREFER_SAVE:
            reason = Reason(ReasonKind.ANNOTATION, ann[1])
            soft[i] = tag == CheckpointPolicy.PREFER_SAVE
        else:
            reason = _op_reason(graph, i)
            if reason is None and runtime and k not in RUNTIME_RECOMPUTABLE:
                reason = Reason(ReasonKind.NOT_FUSIBLE, graph.op_name(i))
            if reason is None and ratio != float("inf"):
                total_in = 0
                for j in inputs[i]:
                    vj = value[j]
                    if vj == Value.TENSOR or vj == Value.MULTI:
                        total_in += int(numel[j])
                out = int(numel[i])
                if out * ratio <= total_in:
                    reason = Reason(
                        ReasonKind.REDUCTION,
                        f"{graph.op_name(i)} output {out} elements, inputs {total_in} "
                        f"({ratio:g}x+ smaller)")
            if reason is None and blocker is not None and blocker[i] >= 0:
                b = int(blocker[i])
                reason = Reason(ReasonKind.MATERIALIZED_IN_BACKWARD,
                                f"by {graph.op_name(b)} ({nodes[b].name})")
        ban[i] = reason
    return Policy(ban=ban, recompute=recompute, unsaveable=unsaveable, soft=soft,
                  replays_rng=replays_rng)


def _op_reason(graph: JointGraph, i: int) -> Reason | None:
    k = graph.kind[i]
    if k == OpKind.COMPUTE_INTENSIVE:
        return Reason(ReasonKind.COMPUTE_INTENSIVE, graph.op_name(i))
    if k == OpKind.RANDOM:
        return Reason(ReasonKind.RANDOM, graph.op_name(i))
    if k == OpKind.COLLECTIVE:
        return Reason(ReasonKind.COLLECTIVE, graph.op_name(i))
    if k == OpKind.MUTATING:
        return Reason(ReasonKind.MUTATING, graph.op_name(i))
    if k == OpKind.EFFECTFUL:
        return Reason(ReasonKind.EFFECTFUL, graph.op_name(i))
    if k == OpKind.OPAQUE:
        return Reason(ReasonKind.OPAQUE, graph.op_name(i))
    return None


def _backward_blockers(graph: JointGraph) -> np.ndarray:
    """For each node, a backward (non-FORWARD) user that could not fuse with it, or -1.

    Users are seen through views and getitems (Lemma 3.1 with aliasing looked through): the
    backward ``tanh_backward(detach(detach(tanh_1)))`` fuses with ``tanh_1``. One reverse pass:
    ``any_bw[v]`` / ``unfusible_bw[v]`` for a view ``v`` are the first backward user / the
    first non-fusing backward user reachable through aliases from ``v``.
    """
    n = graph.num_nodes
    kind = graph.kind
    role = graph.role
    users = graph.users
    producer = graph.producer_fusible()
    consumer = graph.consumer_fusible()
    any_bw = np.full(n, -1, dtype=np.int64)
    unfusible_bw = np.full(n, -1, dtype=np.int64)
    blocker = np.full(n, -1, dtype=np.int64)
    forward = Role.FORWARD
    for i in range(n - 1, -1, -1):
        a = -1
        u_nf = -1
        for u in users[i]:
            ku = kind[u]
            if ku == OpKind.VIEW or ku == OpKind.GETITEM:
                if a < 0 and any_bw[u] >= 0:
                    a = any_bw[u]
                if u_nf < 0 and unfusible_bw[u] >= 0:
                    u_nf = unfusible_bw[u]
            elif role[u] != forward:
                if a < 0:
                    a = u
                if u_nf < 0 and not consumer[u]:
                    u_nf = u
        any_bw[i] = a
        unfusible_bw[i] = u_nf
        blocker[i] = u_nf if producer[i] else a
    return blocker
