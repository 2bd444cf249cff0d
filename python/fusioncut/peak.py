"""Estimated peak memory of a plan over the forward and backward schedule.

The schedule is the one ``emit.build_modules`` emits for a saved set: the forward in graph
order; the backward in autograd-engine order, where each value the backward computes but does
not depend on a tangent (a recomputed forward value, or a value only the backward needs) runs
right before the first backward node that needs it (ties in graph order). Walking it::

    forward    each new storage is allocated by the node that produces it (a view or an alias
               allocates nothing: it shares its base's storage; a value every consumer fuses
               with stays in registers, as under Inductor: ``cost.materialized``) and freed
               after its last forward use, unless it is saved or a forward output
    backward   starts with the saved storages and the tangents; each value computed in the
               backward is allocated when produced and freed after its last backward use;
               gradients (backward outputs) and forward outputs are kept to the end
    offloaded  a saved value sent to host memory (``offloaded=``) is freed after its last
               forward use and allocated again at its reload (``peak_offload``)
    freeing    as in Inductor's generated code: a freed storage stays allocated until a later
               storage of the same size reuses it, and is released at once if none will
               (``_peak``); reading a tensor's sizes (``aten.sym_size``) is no use of it

``PeakEstimate.peak`` is the largest sum of live storages, in bytes, at the size hints (or at
element counts the caller gives). Graph inputs (parameters, the batch) are alive throughout and
are not counted: this is the memory a partitioner is responsible for. Not modelled: an
allocator's rounding and fragmentation, library workspaces (SDPA's on the CPU), Inductor's own
reordering of kernels and its reuse of buffers inside a fused kernel; ``bench/bench_budget.py``
compares the estimate with measured peaks.

The walk is a few numpy passes plus one reverse pass in Python over the nodes (milliseconds for
a 10k-node graph), so the budget frontier can estimate every plan it finds.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from fusioncut.cost import materialized
from fusioncut.graph import JointGraph, Role, Value
from fusioncut.network import BACKWARD_ROLES
from fusioncut.ops import OpKind
from fusioncut.peak_offload import OffloadedValues, reload_times

__all__ = ["PeakEstimate", "estimate_peak", "phases", "recomputed"]


@dataclass(frozen=True)
class PeakEstimate:
    """Bytes of live storages: the peak of each phase and what is kept between them."""

    forward_peak: int
    backward_peak: int
    kept_bytes: int  # storages alive between the phases (saved values, forward outputs)

    @property
    def peak(self) -> int:
        return max(self.forward_peak, self.backward_peak)


def phases(graph: JointGraph, saved: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(forward, backward, trigger)``: bool (n,) nodes each graph computes, and for a node
    the backward computes, the graph index of the first backward node that needs it (its own
    index for a node that depends on a tangent)."""
    n = graph.num_nodes
    role = graph.role
    is_saved = np.zeros(n, dtype=bool)
    is_saved[saved] = True
    is_input = (role <= Role.CONSTANT).tolist()
    in_bw = np.isin(role, BACKWARD_ROLES) & (role > Role.CONSTANT)
    tangent_dependent = in_bw.tolist()
    live_out = (graph.bwd_output | graph.fwd_output).tolist()
    saved_l = is_saved.tolist()
    forward = (role == Role.FORWARD).tolist()
    users = graph.user_lists()
    bw = [False] * n
    fw = list(forward)
    trigger = list(range(n))
    for i in range(n - 1, -1, -1):
        if is_input[i]:
            continue
        if tangent_dependent[i]:
            bw[i] = True
            continue
        first = n
        needed_in_fw = False
        for u in users[i]:
            if bw[u] and trigger[u] < first:
                first = trigger[u]
            if fw[u]:
                needed_in_fw = True
        if first < n and not saved_l[i]:
            bw[i] = True
            trigger[i] = first
        elif graph.bwd_output[i] and not saved_l[i] and not forward[i]:
            bw[i] = True  # a backward output computable from forward values alone
        if saved_l[i] or needed_in_fw or (live_out[i] and not bw[i]):
            fw[i] = True
    return np.asarray(fw, dtype=bool), np.asarray(bw, dtype=bool), np.asarray(trigger)


def recomputed(graph: JointGraph, saved: np.ndarray, split=None) -> np.ndarray:
    """int64 forward nodes the backward computes again when ``saved`` are saved
    (``split``: ``phases(graph, saved)`` when the caller has it)."""
    fw, bw, _ = phases(graph, saved) if split is None else split
    return np.flatnonzero(fw & bw & (graph.role == Role.FORWARD))


def estimate_peak(graph: JointGraph, saved: np.ndarray, numel: np.ndarray | None = None,
                  split=None, *, offloaded: OffloadedValues | None = None) -> PeakEstimate:
    """The estimated peak of the plan saving the joint nodes ``saved`` (indices);
    ``split``: ``phases(graph, saved)`` when the caller has it. ``offloaded``: the saved values
    that spend the time between their last forward use and their reload in host memory
    (``peak_offload``)."""
    n = graph.num_nodes
    saved = np.asarray(saved, dtype=np.int64)
    fw, bw, trigger = phases(graph, saved) if split is None else split
    away = np.zeros(0, dtype=np.int64) if offloaded is None else offloaded.nodes
    size = (graph.numel if numel is None else numel) * graph.itemsize
    base = graph.base
    idx = np.arange(n)
    tensor = (graph.value == Value.TENSOR) & (base == idx) & (graph.role > Role.CONSTANT)
    # A fusing compiler writes only what some consumer cannot fuse, what is saved, and the
    # outputs; a chain of pointwise ops stays in registers. In the backward a value read by
    # more than one op is written too (Inductor realizes a buffer several kernels read rather
    # than recompute it in each).
    written = _written(graph)
    written[base[saved]] = True
    allocates = tensor & written
    fan_out = np.diff(graph.user_ptr) > 1
    src, dst = graph.edge_src, graph.edge_dst
    # aten.sym_size and its kin read a tensor's metadata, not its storage: no use of it.
    reads = graph.kind[dst] != OpKind.SYMBOLIC

    # Forward: time = graph index.
    kept = np.zeros(n, dtype=bool)
    kept[base[np.setdiff1d(saved, away)]] = True
    kept[base[graph.fwd_output]] = True
    # Offloaded storages no value kept on the device shares: they leave after their last
    # forward use (or at the forward's end, held by torch's sunk wait) and come back later.
    gone = np.zeros(n, dtype=bool)
    gone[away] = True
    gone &= ~kept & allocates
    held = gone if offloaded is not None and offloaded.hold_forward else np.zeros(n, bool)
    fw_edge = fw[dst] & reads
    last_fw = np.full(n, -1, dtype=np.int64)
    np.maximum.at(last_fw, base[src[fw_edge]], dst[fw_edge])
    fw_alloc = fw & allocates
    fw_peak, _ = _peak(idx[fw_alloc], size[fw_alloc],
                       *_frees(last_fw, fw_alloc & ~kept & ~held, idx, size))
    between = fw_alloc & kept

    # Backward: time = position in (trigger, tangent-dependent last, graph index) order.
    order = np.lexsort((idx, np.isin(graph.role, BACKWARD_ROLES), trigger))
    order = order[bw[order]]
    time = np.full(n, -1, dtype=np.int64)
    time[order] = np.arange(len(order))
    bw_edge = bw[dst] & reads
    last_bw = np.full(n, -1, dtype=np.int64)
    np.maximum.at(last_bw, base[src[bw_edge]], time[dst[bw_edge]])
    keep_to_end = np.zeros(n, dtype=bool)
    keep_to_end[base[graph.bwd_output]] = True
    keep_to_end[base[graph.fwd_output]] = True
    start = between & ((last_bw >= 0) | keep_to_end)
    bw_alloc = bw & tensor & (written | fan_out) & ~start
    back = gone & (last_bw >= 0)
    reload_t = _reloads(back, src, dst, bw_edge, time, order, offloaded)
    alloc_t = np.concatenate([np.full(int(start.sum()), -1), time[bw_alloc], reload_t])
    alloc_s = np.concatenate([size[start], size[bw_alloc], size[back]])
    free_mask = (start | bw_alloc | back) & ~keep_to_end
    free_t, free_s = _frees(last_bw, free_mask, time, size)
    bw_peak, _ = _peak(alloc_t, alloc_s, free_t, free_s)
    return PeakEstimate(forward_peak=int(fw_peak), backward_peak=int(bw_peak),
                        kept_bytes=int(size[between].sum()))


def _reloads(back: np.ndarray, src, dst, bw_edge, time, order, offloaded) -> np.ndarray:
    """Backward times at which the offloaded storages ``back`` (ascending) are reloaded."""
    if not back.any():
        return np.zeros(0, dtype=np.int64)
    first = np.full(len(back), len(order), dtype=np.int64)
    edge = bw_edge & back[src]
    np.minimum.at(first, src[edge], time[dst[edge]])
    nodes = np.flatnonzero(back)
    moved = offloaded
    if offloaded.lead_seconds is not None:
        lead = np.zeros(len(back))
        lead[offloaded.nodes] = offloaded.lead_seconds
        moved = dataclasses.replace(offloaded, nodes=nodes, lead_seconds=lead[nodes])
    return reload_times(first[nodes], order, moved)


def _written(graph: JointGraph) -> np.ndarray:
    """bool (n,): storages a fusing compiler writes to memory (``cost.materialized``, the
    outputs included), computed once per graph."""
    cached = graph.__dict__.get("_written")
    if cached is None:
        cached = materialized(graph) | graph.bwd_output | graph.fwd_output
        graph.__dict__["_written"] = cached
    return cached.copy()


def _frees(last_use: np.ndarray, mask: np.ndarray, birth: np.ndarray, size: np.ndarray):
    """Free times (after the last use; right after birth when never used) and sizes."""
    t = np.where(last_use[mask] >= 0, last_use[mask], birth[mask])
    return t, size[mask]


def _peak(alloc_t, alloc_s, free_t, free_s) -> tuple[int, int]:
    """Largest live sum when allocations at time t happen before frees at time t, with freed
    storages held for reuse as Inductor's generated code holds them.

    Inductor frees a buffer only if no later buffer of the same size reuses it; otherwise the
    buffer stays allocated until a later allocation takes it (the most recently freed first).
    Per size, with ``L`` the live count over time, ``M`` its running maximum (the buffers ever
    held) and ``P = M - L`` the pool, a pooled buffer is still held at time t exactly when
    the pool later drops below its depth: the held count is ``M(t) - min_{s >= t} P(s)``.
    Returns the peak and the bytes held at the end."""
    if not len(alloc_t) + len(free_t):
        return 0, 0
    times = np.concatenate([alloc_t * 2, free_t * 2 + 1])
    sizes = np.concatenate([alloc_s, free_s]).astype(np.int64)
    step = np.concatenate([np.ones(len(alloc_t), dtype=np.int64),
                           np.full(len(free_t), -1, dtype=np.int64)])
    order = np.lexsort((times, sizes))
    k, step, times = sizes[order], step[order], times[order]
    first = np.empty(len(k), dtype=bool)
    first[0] = True
    np.not_equal(k[1:], k[:-1], out=first[1:])
    group = np.cumsum(first) - 1
    running = np.cumsum(step)
    before = np.maximum.accumulate(np.where(first, running - step, np.iinfo(np.int64).min))
    live = running - before  # L: storages of this size in use after each event
    # Offsets keep the running max and the suffix min inside each size's events.
    offset = group * (len(k) + 1)
    held_max = np.maximum(np.maximum.accumulate(live + offset) - offset, 0)  # M
    pool = held_max - live  # P
    pool_ahead = np.minimum.accumulate((pool + offset)[::-1])[::-1] - offset
    held = held_max - pool_ahead
    previous = np.where(first, 0, np.concatenate([[0], held[:-1]]))
    deltas = (held - previous) * k
    by_time = np.argsort(times, kind="stable")
    total = np.cumsum(deltas[by_time])
    return int(max(total.max(), 0)), int(total[-1])
