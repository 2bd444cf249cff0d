"""Estimated peak memory of a plan, as Inductor's generated code for the CPU allocates it.

The schedule starts from the one ``emit.build_modules`` emits for a saved set: the forward in
graph order; the backward in autograd-engine order, where each value the backward computes but
does not depend on a tangent (a recomputed forward value, or a value only the backward needs)
runs right before the first backward node that needs its value (ties in graph order). On it,
the walk follows what Inductor does with the two graphs (``phase_events``)::

    stored     a phase writes a storage when it is the output of a kernel of its own (a matmul,
               a reduction, an extern op), a value one of the phase's readers cannot fuse
               (``cost.materialized`` restricted to the phase), saved, or an output; a value
               every reader fuses stays in registers (a view allocates nothing), unless the
               C++ backend stores it for reuse: an exp, log, sigmoid or tanh in its
               expression and several readers in different kernels, or a reduction and a
               pointwise op among them (a softmax's exp: ``stored_on_reuse``; a value kept in
               registers is computed in every kernel that reads it)
    reads      a value kept in registers is computed inside the kernels that read it, so what
               it reads lives until the last of them runs (``kernel_times``); a stored fused
               value a reduction reads is computed again inside that reduction
    horizontal Inductor's fusion by shared reads (``score_fusion_memory``), at most 64
               allocations apart (``are_long_distant_nodes``): up to four stored values of
               one size and kind (pointwise or reduction) the backward computes, reached from
               no other member, sharing a read, from the third on one member reading all the
               others read (the gated MLP's recomputed ``silu(gate) * up`` and the gradients
               of ``up`` and ``gate``; a norm's two row sums). A group the backward
               recomputes (a T5's two layers' attention probabilities from one position bias)
               runs where its first member would, what the others recompute through pulled
               ahead; a group with a value computed anew is one kernel of the fused order
               (``horizontal`` in ``csrc/peak_walk.h``)
    fusion     stored outputs that compute a common value in registers (a recomputed GeLU's
               value for its weight gradient and its derivative), and those groups, run as one
               kernel each, scheduled as one node: at its last member's time once all it reads
               has run, its readers after it, its events at one kernel step; a kernel that
               would close a cycle of kernels is not one (of a cycle's kernels a pointwise
               one before one of reductions, then the latest, stays fused), so the backward's
               order is a schedule (``fused_order``)
    in place   a fused kernel's output takes the storage of one same-sized input that dies in
               it (``buf3 = buf1; del buf1  # reuse``); a group's member only one that no
               other member reads (``decide_inplace_update``)
    reuse      a freed storage is kept for a later allocation of its size, the most recently
               freed first, only where Inductor's own estimate of the peak allows it
               (``AllocateLine.should_reuse_buffer``; that estimate frees every storage after
               its last kernel, writes nothing in place and counts the values its lowering
               realized and fusion removed: ``phantom_*``), and freed at once otherwise
               (``reuse_peak``, ``csrc/buffer_reuse.h``)
    outputs    the outputs of an op Inductor calls as one kernel (SDPA and its backward, a
               convolution's backward) are allocated when it runs, before its workspace, not
               where their getitems stand (``allocated_at``)
    extern     ``peak_extern``: the workspaces of extern kernels while they run (SDPA, oneDNN
               convolutions on the CPU), the channels-last copies of convolution inputs under
               ``layout_optimization`` (made at the forward's start, kept until the backward's
               last use), a matmul merged into the add that follows it (``addmm``)
    phases     the forward starts empty; the backward starts with the saved storages and the
               copies; gradients and forward outputs are kept to the end
    offloaded  a saved value sent to host memory (``offloaded=``) is freed after its last
               forward use, or at its paced wait, or at the forward's end under torch's sunk
               wait, and allocated again at its reload (``peak_offload``)

``PeakEstimate.peak`` is the largest sum of live storages, in bytes, at the size hints (or at
element counts the caller gives). Graph inputs (parameters, the batch) are alive throughout and
are not counted: this is the memory a partitioner is responsible for. Not modelled: an
allocator's rounding and fragmentation, Inductor's reordering for peak memory, where its
topological sort places a fused kernel (at its first member, what the others need pulled
ahead: the walk places it at its last), and the kernels it fuses beyond the rules above
(among them backward work that needs no gradient, fused into an early kernel that shares a
read with it, whose buffers then live from there; docs/budget.md, "Six models at another
shape"), and the scratchpads oneDNN's bfloat16 matmuls allocate inside the call ("Mixed
precision on the CPU"); ``bench/bench_peak.py`` measures the error on compiled CPU steps
(docs/budget.md), and ``Options.peak_margin`` keeps headroom for it.

The walk is in C++, the names above its functions (``csrc/peak_walk.h``, ``csrc/kernels.h``):
which graph computes each node (``phases``), the two phases' events from the graph's facts,
held once per graph (``_core.PeakGraph``), and the live bytes of each phase under the reuse
rule (``reuse_peak``); about a millisecond for a 10k-node graph, so the budget frontier can
estimate every plan it finds. ``tests/_peak_reference.py`` keeps the walk in numpy, as it was written
first, and the C++ walk is checked against it event for event.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from fusioncut import _core
from fusioncut.graph import JointGraph, Role, Value
from fusioncut.network import BACKWARD_ROLES
from fusioncut.ops import OpKind
from fusioncut.peak_extern import extern_memory
from fusioncut.peak_offload import OffloadedValues, reload_times

__all__ = ["PeakEstimate", "PhaseEvents", "estimate_peak", "phase_events", "phases", "recomputed"]


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
    the backward computes, the graph index of the first backward node that needs its value
    (its own index for a node that depends on a tangent; a node that reads only its sizes,
    ``aten.sym_size``, counts only when nothing else needs it: Inductor computes sizes from
    the shape symbols, not from the tensor). One reverse sweep over the users, in C++
    (``_core.phase_split``): the frontier runs it for every plan it scores."""
    is_saved = np.zeros(graph.num_nodes, dtype=bool)
    is_saved[saved] = True
    return _core.phase_split(np.ascontiguousarray(graph.user_ptr, dtype=np.int64),
                             np.ascontiguousarray(graph.edge_dst, dtype=np.int64),
                             _phase_bits(graph), is_saved)


def _phase_bits(graph: JointGraph) -> np.ndarray:
    """uint8 (n,): the saved-set-independent facts ``phase_split`` reads (``PHASE_FLAGS``),
    computed once per graph."""
    cached = graph.__dict__.get("_phase_bits")
    if cached is None:
        role = graph.role
        in_bw = np.isin(role, BACKWARD_ROLES) & (role > Role.CONSTANT)
        bits = np.zeros(graph.num_nodes, dtype=np.uint8)
        for flag, mask in (("input", role <= Role.CONSTANT), ("tangent_dependent", in_bw),
                           ("live_out", graph.bwd_output | graph.fwd_output),
                           ("backward_output", graph.bwd_output),
                           ("forward", role == Role.FORWARD),
                           ("metadata", graph.kind == OpKind.SYMBOLIC)):
            bits[mask] |= _core.PHASE_FLAGS[flag]
        cached = graph.__dict__["_phase_bits"] = bits
    return cached


def recomputed(graph: JointGraph, saved: np.ndarray, split=None) -> np.ndarray:
    """int64 forward nodes the backward computes again when ``saved`` are saved
    (``split``: ``phases(graph, saved)`` when the caller has it)."""
    fw, bw, _ = phases(graph, saved) if split is None else split
    return np.flatnonzero(fw & bw & (graph.role == Role.FORWARD))


@dataclass(frozen=True)
class PhaseEvents:
    """One phase of the walk: its storages' allocations and frees (in the phase's time: graph
    index in the forward, schedule position in the backward; -1 for what exists when the
    phase starts), each with the joint node behind it, and the transient workspaces of the
    kernels that run in it. ``time[i]``: node i's time (-1 outside the phase)."""

    time: np.ndarray
    alloc_node: np.ndarray
    alloc_t: np.ndarray
    alloc_s: np.ndarray
    in_place: np.ndarray  # bool per allocation: may take a dying input's storage (``reuse_peak``)
    free_node: np.ndarray
    free_t: np.ndarray
    free_s: np.ndarray
    work_node: np.ndarray
    work_t: np.ndarray
    work_s: np.ndarray
    # Values Inductor's lowering realizes and fusion removes: no storage, but its own estimate
    # of the peak counts them at their kernel (``reuse_peak``'s ``phantoms``).
    phantom_node: np.ndarray = dataclasses.field(default_factory=lambda: _EMPTY)
    phantom_t: np.ndarray = dataclasses.field(default_factory=lambda: _EMPTY)
    phantom_s: np.ndarray = dataclasses.field(default_factory=lambda: _EMPTY)

    def peak(self) -> int:
        return reuse_peak(self.alloc_t, self.alloc_s, self.free_t, self.free_s, self.in_place,
                          (self.work_t, self.work_s), (self.phantom_t, self.phantom_s))


def estimate_peak(graph: JointGraph, saved: np.ndarray, numel: np.ndarray | None = None,
                  split=None, *, offloaded: OffloadedValues | None = None) -> PeakEstimate:
    """The estimated peak of the plan saving the joint nodes ``saved`` (indices);
    ``split``: ``phases(graph, saved)`` when the caller has it. ``offloaded``: the saved values
    that spend the time between their last forward use and their reload in host memory
    (``peak_offload``)."""
    forward, backward, kept = phase_events(graph, saved, numel, split, offloaded=offloaded)
    return PeakEstimate(forward_peak=forward.peak(), backward_peak=backward.peak(),
                        kept_bytes=kept)


def phase_events(graph: JointGraph, saved: np.ndarray, numel: np.ndarray | None = None,
                 split=None, *, offloaded: OffloadedValues | None = None
                 ) -> tuple[PhaseEvents, PhaseEvents, int]:
    """The walk ``estimate_peak`` takes: the forward's and the backward's events, and the
    bytes kept between them."""
    n = graph.num_nodes
    fw, bw, trigger = phases(graph, saved) if split is None else split
    size = (graph.numel if numel is None else numel) * graph.itemsize
    is_saved = np.zeros(n, dtype=bool)
    is_saved[np.asarray(saved, dtype=np.int64)] = True
    away = np.zeros(n, dtype=bool)
    waits = (_EMPTY, _EMPTY)
    if offloaded is not None:
        away[offloaded.nodes] = True
        if offloaded.wait_before is not None:
            waits = (_int64(offloaded.nodes), _int64(offloaded.wait_before))
    fwd, bwd, kept, reloaded, first_use = _walker(graph).walk(
        _bool(fw), _bool(bw), _int64(trigger), is_saved, away, offloaded is not None,
        offloaded is not None and offloaded.hold_forward, *waits, _int64(size))
    forward, backward = PhaseEvents(*fwd), PhaseEvents(*bwd)
    if len(reloaded) and offloaded.lead_seconds is not None:
        # torch's prefetch moves each reload before its first use; the walk placed it there,
        # as the last allocations of the backward.
        backward.alloc_t[len(backward.alloc_t) - len(reloaded):] = _reload_times(
            backward.time, reloaded, first_use, offloaded)
    return forward, backward, int(kept)


def _reload_times(time: np.ndarray, nodes: np.ndarray, first_use: np.ndarray,
                  offloaded: OffloadedValues) -> np.ndarray:
    """Backward times of torch's prefetched reloads of the offloaded storages ``nodes``
    (ascending), first read at ``first_use``."""
    order = np.flatnonzero(time >= 0)
    order = order[np.argsort(time[order], kind="stable")]  # the joint nodes in backward order
    lead = np.zeros(len(time))
    lead[offloaded.nodes] = offloaded.lead_seconds
    moved = dataclasses.replace(offloaded, nodes=nodes, lead_seconds=lead[nodes])
    return reload_times(first_use, order, moved)


def _walker(graph: JointGraph) -> _core.PeakGraph:
    """The graph's facts the walk reads, which no saved set changes, held in C++ once per
    graph (``_core.PeakGraph``: the frontier estimates hundreds of plans of one graph)."""
    cached = graph.__dict__.get("_peak_walker")
    if cached is None:
        cached = graph.__dict__["_peak_walker"] = _build_walker(graph)
    return cached


def _build_walker(graph: JointGraph) -> _core.PeakGraph:
    n = graph.num_nodes
    idx = np.arange(n)
    ext = extern_memory(graph)
    merged = ext.addmm >= 0
    target = np.zeros(n, dtype=bool)  # an add that becomes an addmm: an extern kernel
    target[ext.addmm[merged]] = True
    src, dst = graph.edge_src, graph.edge_dst
    computing = np.isin(graph.kind, _COMPUTING)
    heavy = np.zeros(n, dtype=bool)
    for i in np.flatnonzero(computing).tolist():  # exp, log, sigmoid, tanh: pointwise ops
        heavy[i] = graph.op_name(i) in _HEAVY
    return _core.PeakGraph(
        graph.user_ptr, graph.edge_dst,
        reads=graph.kind[dst] != OpKind.SYMBOLIC,  # aten.sym_size reads metadata only
        reduced=graph.kind[dst] == OpKind.REDUCTION,
        same=(graph.numel[src] == graph.numel[dst]) & computing[src] & computing[dst],
        blocking=(~graph.consumer_fusible()[dst] | target[dst])
        & (graph.base[dst] != graph.base[src]),
        base=_int64(graph.base), output_of=_outputs_of(graph),
        layout_copy=_int64(ext.layout_copy), workspace=_int64(ext.workspace),
        tensor=(graph.value == Value.TENSOR) & (graph.base == idx) & (graph.role > Role.CONSTANT),
        fusible=graph.producer_fusible() & ~target, merged=merged, computing=computing,
        heavy=heavy, reduction=graph.kind == OpKind.REDUCTION,
        backward_role=np.isin(graph.role, BACKWARD_ROLES), input=graph.role <= Role.CONSTANT,
        fwd_output=_bool(graph.fwd_output), bwd_output=_bool(graph.bwd_output),
        cpu_rules=not graph.on_accelerator(),  # store on reuse is the C++ backend's rule
        max_store_passes=_MAX_STORE_PASSES, max_fused_outputs=_MAX_FUSED_OUTPUTS,
        horizontal_distance=_HORIZONTAL_DISTANCE)


def _outputs_of(graph: JointGraph) -> np.ndarray:
    """int64 (n,): for a getitem of an op that Inductor calls as one kernel and that has
    several outputs (SDPA and its backward, a convolution's backward, a higher-order op), that
    op; -1 for every other node (a layer or batch norm's outputs come from kernels Inductor
    generates, each at its own place)."""
    src = graph.first_input
    getitem = (graph.kind == OpKind.GETITEM) & (src >= 0)
    getitem[getitem] &= (graph.value[src[getitem]] == Value.MULTI) \
        & ~np.isin(graph.kind[src[getitem]], _LOWERED)
    return np.where(getitem, src, -1).astype(np.int64)


_LOWERED = np.array([OpKind.VIEW, OpKind.POINTWISE, OpKind.REDUCTION, OpKind.CAT,
                     OpKind.RANDOM], dtype=np.int8)
_COMPUTING = np.array([OpKind.POINTWISE, OpKind.RANDOM], dtype=np.int8)
_MAX_FUSED_OUTPUTS = 4  # stored outputs of one fused kernel (more: a recomputed chain)
_HORIZONTAL_DISTANCE = 64  # Inductor's are_long_distant_nodes: scheduler nodes apart
_MAX_STORE_PASSES = 8  # chains of reused heavy values, each pass stores one link
_HEAVY = frozenset({"aten.exp", "aten.log", "aten.log10", "aten.log1p", "aten.log2",
                    "aten.sigmoid", "aten.tanh"})


def _bool(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=bool)


def _int64(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.int64)


def reuse_peak(alloc_t, alloc_s, free_t, free_s, in_place=None, transient=None,
               phantoms=None) -> int:
    """A phase's peak bytes (``_core.reuse_peak``, in C++: the frontier walks every plan it
    scores). Allocations at time t happen before frees at time t (event times 2t and 2t + 1);
    ``transient`` = (times, bytes): memory a kernel holds only while it runs (a workspace,
    never reused), on top of the storages live right after the allocations of its time.

    ``in_place`` (bool per allocation): the allocation is the output of a kernel Inductor
    generates, which writes it into the storage of a same-sized input that dies in that kernel
    (``buf3 = buf1; del buf1  # reuse``): one free at the same time and of the same size
    happens before it, and the storage passes from the input to the output.

    Inductor's generated code frees a buffer after its last use unless a later allocation of
    its size reuses it (the most recently freed first), and reuses it only if holding it until
    then keeps its own estimate of the live bytes in between, with the reuses it has granted,
    at most that estimate's overall peak (``AllocateLine.should_reuse_buffer``). Its estimate
    (``EfficientPeakEstimate``) frees every storage after its last use, writes nothing in
    place, and counts the buffers its lowering realized and fusion removed: ``phantoms`` =
    (times, bytes), counted at their kernel in that estimate alone."""
    def i64(a):
        return np.ascontiguousarray(a, dtype=np.int64)

    work_t, work_s = (_EMPTY, _EMPTY) if transient is None else transient
    phantom_t, phantom_s = (_EMPTY, _EMPTY) if phantoms is None else phantoms
    in_place = np.zeros(len(alloc_t), dtype=bool) if in_place is None else in_place
    return _core.reuse_peak(i64(alloc_t), i64(alloc_s), np.ascontiguousarray(in_place, bool),
                            i64(free_t), i64(free_s), i64(work_t), i64(work_s), i64(phantom_t),
                            i64(phantom_s))


_EMPTY = np.zeros(0, dtype=np.int64)
