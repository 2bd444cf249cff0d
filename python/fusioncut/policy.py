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
of one node. ``soft_ban[i]`` / ``soft_recompute[i]`` mark constraints that come from PREFER_*
annotations: the partitioner drops them when they lie on a path that makes every cut
infinite.

Bans apply to FORWARD nodes (and random ops the forward does not need): any other node the
forward does not need is computed once, wherever the cut puts it, which is not recomputation.
Views and getitems are never banned (``NEVER_BANNED``: they cost nothing; the op that produced
their storage carries the ban). The structure is size-independent except for the reduction ban
(``reduction_ban``), which compares element counts; ``Policy.reduction_decides`` marks the
nodes whose ban it alone decides, so dynamic shapes re-evaluate exactly that rule at other
sizes.
"""

from __future__ import annotations

import enum
import itertools
import operator
from dataclasses import dataclass

import numpy as np
from torch.utils.checkpoint import CheckpointPolicy

from fusioncut import hops
from fusioncut.graph import SAVEABLE_VALUES, JointGraph, Role, Value
from fusioncut.ops import RUNTIME_RECOMPUTABLE, OpKind, op_name
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
    SMALL_OUTPUT = "small output"  # the reduction rule, on an op that is not a reduction
    MATERIALIZED_IN_BACKWARD = "materialized in backward"
    ANNOTATION = "annotation"
    NOT_SAVEABLE = "not a tensor or SymInt"
    HIGHER_ORDER = "higher-order op"
    EFFECT_TOKEN = "effect token"
    MUTATED_INPUT = "reads a mutated input"


BUDGET_LIFTS = frozenset({ReasonKind.COMPUTE_INTENSIVE, ReasonKind.NOT_FUSIBLE,
                          ReasonKind.REDUCTION, ReasonKind.SMALL_OUTPUT,
                          ReasonKind.MATERIALIZED_IN_BACKWARD})
"""Bans a memory budget turns into prices (recomputing costs time, nothing more); every other
ban (inputs, random, collective, mutating, effectful, opaque ops, annotations) stands under
any budget."""


@dataclass(frozen=True)
class Reason:
    """Why a node is constrained: a ``ReasonKind``, a human detail (the op, the sizes) and,
    where another node is the cause (the backward op that materializes a value), its index."""

    kind: ReasonKind
    detail: str
    cause: int | None = None
    group: str | None = None
    """What reasons of one kind have in common (the op), for summaries; None: the detail."""

    def __str__(self) -> str:
        return f"{self.kind.value}: {self.detail}"

    @property
    def summary(self) -> str:
        """``str(self)`` without what is specific to one node: one row per kind and op."""
        return f"{self.kind.value}: {self.detail if self.group is None else self.group}"


_RECOMPUTE_TAGS = (CheckpointPolicy.MUST_RECOMPUTE, CheckpointPolicy.PREFER_RECOMPUTE)
# Offload tags ask for a saved value (offload.py): MUST_CPU_OFFLOAD bans recomputation as
# MUST_SAVE does, PREFER_CPU_OFFLOAD as PREFER_SAVE does. With Options.offload "never" they
# are no annotation at all, as in PyTorch's partitioner.
_MUST_SAVE_TAGS = (CheckpointPolicy.MUST_SAVE, CheckpointPolicy.MUST_CPU_OFFLOAD)
_PREFER_SAVE_TAGS = (CheckpointPolicy.PREFER_SAVE, CheckpointPolicy.PREFER_CPU_OFFLOAD)
_OFFLOAD_TAGS = (CheckpointPolicy.MUST_CPU_OFFLOAD, CheckpointPolicy.PREFER_CPU_OFFLOAD)
# Bans that keep the graph correct; no annotation lifts them. A collective recomputed in
# the backward runs on this rank only if this rank's decision says so: a deadlock waiting.
_HARD_KINDS = frozenset({OpKind.MUTATING, OpKind.EFFECTFUL, OpKind.COLLECTIVE})
NEVER_BANNED = frozenset({OpKind.VIEW, OpKind.GETITEM, OpKind.SYMBOLIC,
                          OpKind.PLACEHOLDER, OpKind.GET_ATTR})
"""Op kinds no ban applies to: they cost nothing to recompute, or are inputs. (Nor does any
ban apply to a ``torch.device`` value, torch 2.15+: reading the device is free.)"""
_VALUE_NAMES = {Value.SYMOTHER: "SymFloat/SymBool/scalar", Value.MULTI: "tuple",
                Value.NONE: "None", Value.OPAQUE: "opaque object", Value.MISSING: "no meta['val']",
                Value.DEVICE: "torch.device (recomputed where needed)"}


@dataclass
class Policy:
    ban: list[Reason | None]
    recompute: list[Reason | None]
    unsaveable: list[Reason | None]
    soft_ban: np.ndarray  # bool (n,): ban[i] comes from PREFER_SAVE
    soft_recompute: np.ndarray  # bool (n,): recompute[i] comes from PREFER_RECOMPUTE
    replays_rng: bool  # an annotated random op is recomputed: the emitter must replay its RNG
    reduction_decides: np.ndarray
    """bool (n,): the reduction rule alone decides whether node i is banned (no other ban,
    annotation or lifting applies). Under other sizes only these nodes' bans can change."""

    def banned_mask(self) -> np.ndarray:
        return _not_none(self.ban)

    def recompute_mask(self) -> np.ndarray:
        return _not_none(self.recompute)

    def unsaveable_mask(self) -> np.ndarray:
        return _not_none(self.unsaveable)


def _not_none(reasons: list) -> np.ndarray:
    return np.fromiter(map(operator.is_not, reasons, itertools.repeat(None)), dtype=bool,
                       count=len(reasons))


def reduction_ban(out_numel, in_numel, ratio: float):
    """The reduction rule: recomputing an op whose output has ``ratio`` times fewer elements
    than its tensor inputs together is banned. Element counts (ints, numpy arrays or Python
    ints of any size) are compared in float64, the same way at every call site."""
    out_f = np.asarray(out_numel, dtype=np.float64)
    in_f = np.asarray(in_numel, dtype=np.float64)
    return (out_f * ratio <= in_f) & (in_f > 0)


_COUNTED_VALUES = (Value.TENSOR, Value.MULTI)
"""Inputs whose elements count towards a node's input size: tensors and tuples of tensors
(SymInts and scalars do not)."""


def reduction_input_edges(graph: JointGraph) -> np.ndarray:
    """bool over edges: the producer's elements count towards its user's input size."""
    return np.isin(graph.value[graph.edge_src], _COUNTED_VALUES)


def reduction_inputs(graph: JointGraph, i: int) -> list[int]:
    """The inputs of node ``i`` whose elements count towards its input size."""
    value = graph.value
    return [j for j in graph.inputs[i] if value[j] in _COUNTED_VALUES]


def effective_annotations(graph: JointGraph) -> list[tuple[object, str] | None]:
    """``(CheckpointPolicy, why)`` per node after torch's ``cleanup_recompute_tags`` rules.

    A recompute-tagged node whose recompute-tagged user belongs to a later checkpoint region
    (``ac_graph_id``) is the boundary between two regions and is saved; so is the output of a
    region that has a backward hook. The graph's metadata is not modified.
    """
    nodes = graph.nodes
    out: list[tuple[object, str] | None] = [None] * len(nodes)
    for i in graph.annotated:
        node = nodes[i]
        tag = node.meta["recompute"]
        if tag is None:
            continue
        why = f"{tag.name} (node.meta['recompute'])"
        if tag in _RECOMPUTE_TAGS:
            my_id = node.meta.get("ac_graph_id")
            recompute_user = False
            for u in graph.users(i).tolist():
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
    nodes = graph.nodes
    ratio = options.reduction_ratio
    override = options.annotations_override_bans

    ban: list[Reason | None] = [None] * n
    recompute: list[Reason | None] = [None] * n
    unsaveable: list[Reason | None] = [None] * n
    soft_ban = np.zeros(n, dtype=bool)
    soft_recompute = np.zeros(n, dtype=bool)
    replays_rng = False

    # Reasons are immutable: one shared instance per value kind.
    by_value = {int(v): Reason(ReasonKind.NOT_SAVEABLE, name) for v, name in _VALUE_NAMES.items()}
    by_value[int(Value.TOKEN)] = _TOKEN_REASON
    unsaveable_idx = np.flatnonzero(~np.isin(value, SAVEABLE_VALUES))
    for i, v in zip(unsaveable_idx.tolist(), value[unsaveable_idx].tolist()):
        unsaveable[i] = by_value[v]
    for i in np.flatnonzero((role == Role.PRIMAL) | (role == Role.FWD_SEED)).tolist():
        ban[i] = Reason(ReasonKind.INPUT, nodes[i].name)
        if nodes[i].meta.get("aot_runtime_epilogue_input_mutation", False):
            # torch 2.15: AOTAutograd mutates this input after the forward returns (the
            # joint graph cloned it for the backward), so the input itself is no activation.
            unsaveable[i] = _EPILOGUE_REASON

    annotations = effective_annotations(graph)
    annotated = [i for i, a in enumerate(annotations) if a is not None]
    tags: dict[int, object] = {}
    ignored = _OFFLOAD_TAGS if options.offload_mode == "never" else ()
    for i in annotated:
        tag, why = annotations[i]
        if kind[i] == OpKind.PLACEHOLDER or kind[i] == OpKind.GET_ATTR or tag in ignored:
            continue
        tags[i] = tag
        if tag in _RECOMPUTE_TAGS:
            recompute[i] = Reason(ReasonKind.ANNOTATION, why, group=tag.name)
            soft_recompute[i] = tag == CheckpointPolicy.PREFER_RECOMPUTE
            if kind[i] == OpKind.RANDOM:
                replays_rng = True

    # Ban candidates: forward nodes that are not views, getitems, SymInt arithmetic or inputs.
    never = np.zeros(len(OpKind), dtype=bool)
    never[list(NEVER_BANNED)] = True
    candidate = (role == Role.FORWARD) & ~never[kind] & (value != Value.DEVICE)
    # A random op the forward does not need could still run in both graphs (in the forward
    # for a saved descendant, in the backward for a direct use): tie it to the forward too.
    candidate |= (role == Role.UNCLAIMED) & (kind == OpKind.RANDOM)
    op_ban = np.zeros(len(OpKind), dtype=bool)
    op_ban[[OpKind.COMPUTE_INTENSIVE, OpKind.RANDOM, OpKind.COLLECTIVE, OpKind.MUTATING,
            OpKind.EFFECTFUL, OpKind.OPAQUE, OpKind.HIGHER_ORDER]] = True
    if options.mode == "runtime":
        not_fusible = candidate & ~_mask_of(kind, RUNTIME_RECOMPUTABLE) & ~op_ban[kind]
    else:
        not_fusible = np.zeros(n, dtype=bool)
    if ratio != float("inf"):
        counted = reduction_input_edges(graph)
        total_in = np.bincount(graph.edge_dst[counted], weights=graph.numel[graph.edge_src[counted]],
                               minlength=n)
        small = candidate & reduction_ban(graph.numel, total_in, ratio)
    else:
        total_in = None
        small = np.zeros(n, dtype=bool)
    blocker = backward_blockers(graph) if options.bans_materialized_in_backward else \
        np.full(n, -1, dtype=np.int64)
    heuristic = candidate & (op_ban[kind] | not_fusible | small | (blocker >= 0))
    hard = candidate & _mask_of(kind, _HARD_KINDS)
    hop_bans = _hop_bans(graph, candidate, tags, override)
    for i, (_, is_hard) in hop_bans.items():
        hard[i] |= is_hard
    reads_mutated = _reads_mutated_input(graph) & candidate
    hard |= reads_mutated

    # Where the reduction rule alone decides: no other ban and no annotation that decides
    # instead (a recompute tag that lifts bans, MUST_SAVE, or PREFER_SAVE, which bans anyway).
    decided = np.zeros(n, dtype=bool)
    decided[[i for i, tag in tags.items()
             if (tag in _RECOMPUTE_TAGS and override) or tag not in _RECOMPUTE_TAGS]] = True
    reduction_decides = (candidate & ~hard & ~decided & ~op_ban[kind] & ~not_fusible
                         & (blocker < 0))

    consider = np.flatnonzero(heuristic | hard).tolist()
    consider = sorted(set(consider) | {i for i in tags if candidate[i]})
    # Python lists: indexing numpy arrays element by element is slow.
    hard, not_fusible, small, blocker = (
        a[consider].tolist() for a in (hard, not_fusible, small, blocker))
    for pos, i in enumerate(consider):
        tag = tags.get(i)
        if hard[pos]:
            ban[i] = hop_bans[i][0] if i in hop_bans else _op_reason(graph, i)
            if ban[i] is None:
                ban[i] = _mutated_reason(graph, i)
            continue
        if tag in _RECOMPUTE_TAGS and override:
            continue
        if tag in _MUST_SAVE_TAGS:
            ban[i] = Reason(ReasonKind.ANNOTATION, annotations[i][1], group=tag.name)
            continue
        reason = hop_bans[i][0] if i in hop_bans else _op_reason(graph, i)
        if reason is None and not_fusible[pos]:
            reason = Reason(ReasonKind.NOT_FUSIBLE, graph.op_name(i))
        if reason is None and small[pos]:
            # The rule counts every tensor input: a lookup (embedding, gather, index) into a
            # large table trips it too, and is named for what it is, not a reduction.
            reason = Reason(
                ReasonKind.REDUCTION if kind[i] == OpKind.REDUCTION else ReasonKind.SMALL_OUTPUT,
                f"{graph.op_name(i)} output has {int(graph.numel[i])} elements, its inputs "
                f"{int(total_in[i])} ({ratio:g}x or more smaller)", group=graph.op_name(i))
        if reason is None and blocker[pos] >= 0:
            b = blocker[pos]
            reason = Reason(ReasonKind.MATERIALIZED_IN_BACKWARD,
                            f"by {graph.op_name(b)} ({nodes[b].name})", cause=b,
                            group=f"by {graph.op_name(b)}")
        if reason is None and tag in _PREFER_SAVE_TAGS:
            # A preference only: dropped if it makes every cut infinite. Where a ban applies
            # anyway, the ban (hard) stands instead.
            reason = Reason(ReasonKind.ANNOTATION, annotations[i][1], group=tag.name)
            soft_ban[i] = True
        ban[i] = reason
    return Policy(ban=ban, recompute=recompute, unsaveable=unsaveable, soft_ban=soft_ban,
                  soft_recompute=soft_recompute, replays_rng=replays_rng,
                  reduction_decides=reduction_decides)


def _mask_of(kind: np.ndarray, kinds) -> np.ndarray:
    table = np.zeros(len(OpKind), dtype=bool)
    table[[int(k) for k in kinds]] = True
    return table[kind]


_REASON_OF_KIND = {
    int(OpKind.COMPUTE_INTENSIVE): ReasonKind.COMPUTE_INTENSIVE,
    int(OpKind.RANDOM): ReasonKind.RANDOM,
    int(OpKind.COLLECTIVE): ReasonKind.COLLECTIVE,
    int(OpKind.MUTATING): ReasonKind.MUTATING,
    int(OpKind.EFFECTFUL): ReasonKind.EFFECTFUL,
    int(OpKind.OPAQUE): ReasonKind.OPAQUE,
    int(OpKind.HIGHER_ORDER): ReasonKind.HIGHER_ORDER,
}
_EPILOGUE_REASON = Reason(ReasonKind.NOT_SAVEABLE, "input mutation replayed after the forward "
                          "(meta['aot_runtime_epilogue_input_mutation'])")
_TOKEN_REASON = Reason(ReasonKind.EFFECT_TOKEN, "never saved: AOTAutograd needs each token "
                                                "chain whole inside one graph")


def mutated_inputs(graph: JointGraph) -> np.ndarray:
    """bool (n,): graph inputs the step mutates: AOTAutograd returns their new values as
    forward outputs described by ``InputMutationAOTOutput`` (torch >= 2.9 records output
    descriptors), or writes them with ``copy_`` at the end of the joint graph. A node that
    reads one, recomputed in the backward, would read the value after the mutation. Computed
    once per graph (every ban's reason asks again)."""
    cached = graph.__dict__.get("_mutated_inputs")
    if cached is None:
        cached = graph.__dict__["_mutated_inputs"] = _find_mutated_inputs(graph)
        cached.flags.writeable = False
    return cached


def _find_mutated_inputs(graph: JointGraph) -> np.ndarray:
    n = graph.num_nodes
    out = np.zeros(n, dtype=bool)
    for i in np.flatnonzero(graph.kind == OpKind.MUTATING).tolist():
        j = graph.first_input[i]
        if j >= 0 and graph.role[graph.base[j]] <= Role.CONSTANT:
            out[graph.base[j]] = True
    output = graph.gm.graph.find_nodes(op="output")
    descs = output[0].meta.get("desc") if output else None
    if isinstance(descs, (list, tuple)):
        wanted = [d.mutated_input for d in descs if hasattr(d, "mutated_input")]
        if wanted:
            try:  # torch's descriptors are frozen dataclasses: a set compares each once
                lookup = frozenset(wanted)
            except TypeError:
                lookup = wanted
            for i in np.flatnonzero(graph.role == Role.PRIMAL).tolist():
                desc = graph.nodes[i].meta.get("desc")
                try:
                    hit = desc in lookup
                except TypeError:  # an unhashable descriptor: compared pairwise
                    hit = desc in wanted
                if hit:
                    out[i] = True
    return out


def _reads_mutated_input(graph: JointGraph) -> np.ndarray:
    """bool (n,): non-mutating nodes reading (through views) an input the graph mutates.
    Recomputed in the backward they would read the value after the mutation."""
    mutated = mutated_inputs(graph)
    if not mutated.any():
        return mutated
    src, dst = graph.edge_src, graph.edge_dst
    hit = mutated[graph.base[src]] & (graph.kind[dst] != OpKind.MUTATING)
    out = np.zeros(graph.num_nodes, dtype=bool)
    out[dst[hit]] = True
    out &= ~np.isin(graph.kind, (OpKind.VIEW, OpKind.GETITEM))
    return out


def _mutated_reason(graph: JointGraph, i: int) -> Reason:
    mutated = mutated_inputs(graph)
    names = [graph.nodes[j].name for j in graph.inputs[i] if mutated[graph.base[j]]]
    return Reason(ReasonKind.MUTATED_INPUT, f"{graph.op_name(i)} reads "
                  f"{', '.join(names) or 'a mutated input'}, which the graph mutates",
                  group=graph.op_name(i))


def _hop_bans(graph: JointGraph, candidate: np.ndarray, tags: dict,
              override: bool) -> dict[int, tuple[Reason, bool]]:
    """``{node: (ban, hard)}`` for the higher-order ops among the ban candidates (see
    ``hops``): effectful and mutating ones are banned hard; a pure one is banned unless a
    recompute annotation lifts it and its bodies hold nothing unsafe to run twice."""
    out: dict[int, tuple[Reason, bool]] = {}
    value, nodes = graph.value, graph.nodes
    for i in np.flatnonzero(candidate & (graph.kind == OpKind.HIGHER_ORDER)).tolist():
        token_in = any(value[j] == Value.TOKEN for j in graph.inputs[i])
        lift = override and tags.get(i) in _RECOMPUTE_TAGS
        rule, detail, is_hard = hops.hop_ban(graph.gm, nodes[i], token_in, lift)
        out[i] = (Reason(_REASON_OF_KIND[int(rule)], detail, group=op_name(nodes[i].target)),
                  is_hard)
    return out


_op_reasons: dict[object, Reason | None] = {}


def _op_reason(graph: JointGraph, i: int) -> Reason | None:
    """The ban an op carries by its kind alone (compute-intensive, random, ...), or None."""
    target = graph.nodes[i].target
    reason = _op_reasons.get(target, _op_reasons)
    if reason is _op_reasons:
        reason_kind = _REASON_OF_KIND.get(int(graph.kind[i]))
        reason = None if reason_kind is None else Reason(reason_kind, op_name(target))
        _op_reasons[target] = reason
    return reason


def backward_blockers(graph: JointGraph) -> np.ndarray:
    """For each node, the first backward (non-FORWARD) user that could not fuse with it, or -1.

    Users are seen through views and getitems (Lemma 3.1 with aliasing looked through): the
    backward's ``tanh_backward(detach(detach(tanh_1)))`` fuses with ``tanh_1``. Every node
    belongs to the alias group of its nearest non-view, non-getitem ancestor along first
    arguments (``root``); a user outside the group that runs outside the forward is a
    backward use of the root. If the root fuses onward (pointwise), only a user that cannot
    fuse blocks it; otherwise any backward use does (the recomputed value would be written).
    """
    n = graph.num_nodes
    kind = graph.kind
    look_through = (kind == OpKind.VIEW) | (kind == OpKind.GETITEM)
    root = np.arange(n, dtype=np.int64)
    first = graph.first_input
    for i in np.flatnonzero(look_through & (first >= 0)).tolist():
        root[i] = root[first[i]]
    src, dst = graph.edge_src, graph.edge_dst
    bw_use = (graph.role[dst] != Role.FORWARD) & ~look_through[dst]
    producer = graph.producer_fusible()
    consumer = graph.consumer_fusible()
    none = np.int64(n)
    first_any = np.full(n, none, dtype=np.int64)
    np.minimum.at(first_any, root[src[bw_use]], dst[bw_use])
    unfusible = bw_use & ~consumer[dst]
    first_unfusible = np.full(n, none, dtype=np.int64)
    np.minimum.at(first_unfusible, root[src[unfusible]], dst[unfusible])
    blocker = np.where(producer, first_unfusible, first_any)
    blocker[blocker == none] = -1
    return blocker
