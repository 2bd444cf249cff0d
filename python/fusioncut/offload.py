"""Offloading saved values to host memory: what may go, what annotations ask, what it costs.

A value the backward needs can stay in device memory from the forward to the backward, be
recomputed, or go to host memory after its last forward use and come back before its first
backward use (PyTorch's activation offloading, which ``emit.offload`` drives).
``analyze(graph, options)`` gives an ``OffloadPolicy``, per node::

    blocked[i]    why node i's value never leaves the device (a ``Blocked``), None if it may:
                  only a contiguous tensor the forward computes may go, and not a graph input
                  (alive in its caller: offloading frees nothing), a forward output (the
                  caller receives it), a view or getitem (torch's pass cannot move an alias),
                  nor the output of a random, collective, effectful, mutating, opaque or
                  higher-order op (they keep their own rules); MUST_SAVE keeps a value on the
                  device
    requested[i]  the annotation asking to offload it (a ``Request``): MUST_CPU_OFFLOAD,
                  PREFER_CPU_OFFLOAD, or torch's own meta["should_offload"] mark

MUST_CPU_OFFLOAD on a blocked node the forward computes is an ``OffloadError`` naming the
node and why; PREFER_CPU_OFFLOAD and the mark are preferences, dropped where blocked.
``offloaded(policy, saved)`` is the choice without a price: the saved values requested and
allowed. ``exposed_seconds`` is the price the cut under a memory target will pay for one
(docs/design.md, "Offload"); ``Overlap`` says which transfers torch's settings let overlap.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import numpy as np
import torch
from torch.utils.checkpoint import CheckpointPolicy

from fusioncut.device import Device
from fusioncut.graph import JointGraph, Role, Value
from fusioncut.ops import OpKind
from fusioncut.options import Options
from fusioncut.policy import effective_annotations

__all__ = ["Blocked", "BlockKind", "OffloadError", "OffloadPolicy", "Overlap", "Request",
           "analyze", "exposed_byte_equivalents", "exposed_seconds", "offloaded",
           "overlapped_exposure", "transfer_seconds"]


class BlockKind(enum.Enum):
    """Why a value stays on the device."""

    NOT_A_TENSOR = "not a tensor"
    INPUT = "graph input"
    BACKWARD = "not computed by the forward"
    FORWARD_OUTPUT = "forward output"
    VIEW = "view"
    GETITEM = "getitem"
    NOT_CONTIGUOUS = "not contiguous"
    RANDOM = "random"
    COLLECTIVE = "collective"
    EFFECTFUL = "effectful"
    MUTATING = "mutating"
    OPAQUE = "opaque op"
    HIGHER_ORDER = "higher-order op"
    MUST_SAVE = "annotation: MUST_SAVE"


@dataclass(frozen=True)
class Blocked:
    """Why node ``i`` is never offloaded: a ``BlockKind`` and a detail (the op, the layout)."""

    kind: BlockKind
    detail: str

    def __str__(self) -> str:
        return f"{self.kind.value}: {self.detail}"


class Request(enum.Enum):
    """What asked to offload a value."""

    MUST = "MUST_CPU_OFFLOAD"
    PREFER = "PREFER_CPU_OFFLOAD"
    MARKED = "meta['should_offload']"


@dataclass
class OffloadPolicy:
    blocked: list[Blocked | None]
    requested: list[Request | None]

    def allowed_mask(self) -> np.ndarray:
        return np.fromiter((b is None for b in self.blocked), dtype=bool, count=len(self.blocked))

    def requested_mask(self) -> np.ndarray:
        return np.fromiter((r is not None for r in self.requested), dtype=bool,
                           count=len(self.requested))


class OffloadError(ValueError):
    """MUST_CPU_OFFLOAD on values that cannot be offloaded. ``nodes[k]`` is an offending
    ``fx.Node``, ``reasons[k]`` its ``Blocked``."""

    def __init__(self, message: str, nodes: list, reasons: list[Blocked]):
        super().__init__(message)
        self.nodes = nodes
        self.reasons = reasons


OFFLOADABLE = ("a contiguous tensor the forward computes that is not a graph input, a forward "
               "output, a view or a getitem (offload the value it aliases instead), nor the "
               "output of a random, collective, effectful, mutating, opaque or higher-order op, "
               "nor MUST_SAVE")
"""What may be offloaded, in the words error messages use."""

_KIND_BLOCKS = {
    int(OpKind.VIEW): BlockKind.VIEW,
    int(OpKind.GETITEM): BlockKind.GETITEM,
    int(OpKind.RANDOM): BlockKind.RANDOM,
    int(OpKind.COLLECTIVE): BlockKind.COLLECTIVE,
    int(OpKind.EFFECTFUL): BlockKind.EFFECTFUL,
    int(OpKind.MUTATING): BlockKind.MUTATING,
    int(OpKind.OPAQUE): BlockKind.OPAQUE,
    int(OpKind.HIGHER_ORDER): BlockKind.HIGHER_ORDER,
}
_INPUT_ROLES = (Role.PRIMAL, Role.FWD_SEED, Role.CONSTANT)
_FORWARD_ROLES = (Role.FORWARD, Role.UNCLAIMED)  # what a saved value can be computed as
_REQUESTS = {CheckpointPolicy.MUST_CPU_OFFLOAD: Request.MUST,
             CheckpointPolicy.PREFER_CPU_OFFLOAD: Request.PREFER}


def analyze(graph: JointGraph, options: Options) -> OffloadPolicy | None:
    """The offload rule for ``graph``; None when ``options.offload_mode`` is ``"never"``.

    Raises ``OffloadError`` when MUST_CPU_OFFLOAD asks for a value the forward computes that
    cannot be offloaded (a tag on a node the forward never computes asks for nothing)."""
    if options.offload_mode == "never":
        return None
    blocked = _blocked(graph)
    n = graph.num_nodes
    requested: list[Request | None] = [None] * n
    for i, node in enumerate(graph.nodes):
        if node.meta.get("should_offload", False):
            requested[i] = Request.MARKED
    for i, annotation in enumerate(effective_annotations(graph)):
        if annotation is None:
            continue
        tag = annotation[0]
        if tag == CheckpointPolicy.MUST_SAVE and blocked[i] is None:
            blocked[i] = Blocked(BlockKind.MUST_SAVE, annotation[1])
        if tag in _REQUESTS:
            requested[i] = _REQUESTS[tag]
    role = graph.role
    offending = [i for i, r in enumerate(requested) if r is Request.MUST
                 and blocked[i] is not None and role[i] in _FORWARD_ROLES]
    if offending:
        raise _must_error(graph, offending, blocked)
    return OffloadPolicy(blocked=blocked, requested=requested)


def _blocked(graph: JointGraph) -> list[Blocked | None]:
    n = graph.num_nodes
    blocked: list[Blocked | None] = [None] * n
    kind, role, value = graph.kind.tolist(), graph.role, graph.value
    forward = np.isin(role, _FORWARD_ROLES)
    for i in np.flatnonzero(value != Value.TENSOR).tolist():
        blocked[i] = Blocked(BlockKind.NOT_A_TENSOR, _value_name(graph, i))
    for i in np.flatnonzero((value == Value.TENSOR) & np.isin(role, _INPUT_ROLES)).tolist():
        blocked[i] = Blocked(BlockKind.INPUT, graph.nodes[i].name)
    # The records are immutable and most repeat (one per backward role, one per blocked op):
    # shared, they cost a dictionary lookup a node (a 48-layer GPT has 13k such nodes).
    shared: dict[tuple, Blocked] = {}
    backward = (value == Value.TENSOR) & ~forward & ~np.isin(role, _INPUT_ROLES)
    for i, r in zip(np.flatnonzero(backward).tolist(), role[backward].tolist()):
        found = shared.get(r)
        if found is None:
            found = shared[r] = Blocked(BlockKind.BACKWARD, Role(r).name.lower())
        blocked[i] = found
    for i in np.flatnonzero((value == Value.TENSOR) & forward).tolist():
        blocked[i] = _forward_block(graph, i, kind[i], shared)
    return blocked


def _forward_block(graph: JointGraph, i: int, kind: int, shared: dict) -> Blocked | None:
    by_kind = _KIND_BLOCKS.get(kind)
    if by_kind is not None:
        name = graph.op_name(i)
        found = shared.get((by_kind, name))
        if found is None:
            found = shared[(by_kind, name)] = Blocked(by_kind, name)
        return found
    if graph.fwd_output[i]:
        return Blocked(BlockKind.FORWARD_OUTPUT, f"{graph.op_name(i)} is returned by the forward")
    val = graph.nodes[i].meta.get("val")
    try:
        contiguous = bool(val.is_contiguous())
    except Exception:  # an unbacked size torch cannot decide on: treat as not contiguous
        contiguous = False
    if not contiguous:
        return Blocked(BlockKind.NOT_CONTIGUOUS, f"{graph.op_name(i)} has strides "
                       f"{tuple(val.stride()) if isinstance(val, torch.Tensor) else '?'}")
    return None


def _value_name(graph: JointGraph, i: int) -> str:
    return Value(int(graph.value[i])).name.lower()


def _must_error(graph: JointGraph, offending: list[int], blocked: list) -> OffloadError:
    nodes = [graph.nodes[i] for i in offending]
    reasons = [blocked[i] for i in offending]
    lines = [f"  {node.name} ({graph.op_name(i)}): {reason}"
             for node, i, reason in zip(nodes[:8], offending, reasons)]
    more = f"\n  ... {len(nodes) - 8} more" if len(nodes) > 8 else ""
    return OffloadError(
        f"fusioncut: MUST_CPU_OFFLOAD on {len(nodes)} value(s) that cannot be offloaded:\n"
        + "\n".join(lines) + more + f"\nOffloadable is {OFFLOADABLE}. PREFER_CPU_OFFLOAD "
        "offloads where allowed and keeps the rest on the device.", nodes, reasons)


def offloaded(policy: OffloadPolicy | None, saved: np.ndarray) -> np.ndarray:
    """The saved values that go to the host without a price on them: those an annotation asks
    for and the rule allows (int64, ascending like ``saved``). Empty when ``policy`` is None."""
    saved = np.asarray(saved, dtype=np.int64)
    if policy is None or len(saved) == 0:
        return np.zeros(0, dtype=np.int64)
    keep = policy.requested_mask()[saved] & policy.allowed_mask()[saved]
    return saved[keep]


# --- the price of a transfer -----------------------------------------------------------------


@dataclass(frozen=True)
class Overlap:
    """Which transfers of torch's emission can run under compute. Synchronous ``device_put``
    (the default) stalls the compute for both. On a side stream the forward's copy runs under
    the compute that follows it: torch waits for it at the forward's end under ``sink_wait``,
    and otherwise fusioncut moves each wait to where the link has finished that copy
    (``emit.offload.pace_waits``); the backward's reload hides only when it is prefetched."""

    forward: bool = False
    backward: bool = False

    @classmethod
    def of(cls, settings) -> Overlap:
        """From ``_torch_offload.offload_settings()``."""
        return cls(forward=settings.separate_stream,
                   backward=settings.separate_stream and settings.prefetch)


def _link(device: Device, function: str) -> float:
    if not isinstance(device, Device):
        raise TypeError(f"{function}: device must be a fusioncut.Device, got "
                        f"{type(device).__name__}")
    if device.host_bandwidth is None:
        raise ValueError(f"{function}: device {device.name!r} has no host link "
                         f"(host_bandwidth = None): nothing can be offloaded")
    return device.host_bandwidth


def _byte_counts(nbytes, function: str) -> np.ndarray:
    """``nbytes`` as float64, or a ``ValueError`` naming it: a number or array of numbers,
    finite and >= 0 (bools, strings, None and integers beyond float64 are not byte counts)."""
    counts = None
    if not isinstance(nbytes, (bool, np.bool_, str, bytes)) and nbytes is not None:
        try:
            raw = np.asarray(nbytes)
        except (TypeError, ValueError, OverflowError):
            raw = None
        if raw is not None and raw.dtype.kind in "iuf":
            counts = raw.astype(np.float64)
    if counts is None or not np.isfinite(counts).all() or (counts < 0).any():
        shown = repr(nbytes)
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        raise ValueError(f"{function}: nbytes = {shown} is not a byte count (a number or an "
                         "array of numbers, finite and >= 0)")
    return counts


def _overlap(overlap, function: str) -> Overlap:
    if not isinstance(overlap, Overlap):
        raise TypeError(f"{function}: overlap must be a fusioncut.offload.Overlap, got "
                        f"{type(overlap).__name__}")
    return overlap


def transfer_seconds(nbytes, device: Device):
    """Seconds the host link is busy moving ``nbytes`` one way (array or scalar)."""
    return _byte_counts(nbytes, "transfer_seconds") / _link(device, "transfer_seconds")


def exposed_seconds(nbytes, device: Device, overlap: Overlap = Overlap()):
    """Seconds a step waits for offloading ``nbytes`` (to the host and back): each direction
    takes ``nbytes / host_bandwidth``, of which the fraction ``offload_hidden`` runs under
    compute when ``overlap`` lets that direction overlap; an overlapped direction still
    exposes at least ``nbytes / bandwidth``, the device memory traffic of the copy (so a link
    that hides everything, ``offload_hidden`` = 1, still prices a transfer, and a plan that
    offloads never ties with one that does not). The link is shared: whether the hidden part
    really fits under the compute of one step is the caller's check."""
    return _exposed(nbytes, device, overlap, "exposed_seconds")


def overlapped_exposure(nbytes, one_way, device: Device):
    """Seconds an overlapped direction exposes of a ``one_way``-second copy of ``nbytes``:
    the fraction ``1 - offload_hidden`` of it, at least the copy's device memory traffic
    (``nbytes / bandwidth``). Shared by ``exposed_seconds`` and ``offload_link.Link.cost``."""
    return np.maximum((1.0 - device.offload_hidden) * one_way, nbytes / device.bandwidth)


def _exposed(nbytes, device: Device, overlap: Overlap, function: str):
    overlap = _overlap(overlap, function)
    count = _byte_counts(nbytes, function)
    one_way = count / _link(device, function)
    hidden = overlapped_exposure(count, one_way, device)
    return ((hidden if overlap.forward else one_way)
            + (hidden if overlap.backward else one_way))


def exposed_byte_equivalents(nbytes, device: Device, overlap: Overlap = Overlap()):
    """``exposed_seconds`` as the bytes the device moves in that time: the unit of the cut, so
    that ``min(lam * nbytes, exposed_byte_equivalents(nbytes))`` is an offloadable value's
    price under a memory target (before the cost model's scale)."""
    return _exposed(nbytes, device, overlap, "exposed_byte_equivalents") * device.bandwidth
