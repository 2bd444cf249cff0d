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
               C++ backend stores it for reuse: several readers in different kernels and an
               exp, log, sigmoid or tanh in its expression (``_stored_on_reuse``)
    reads      a value kept in registers is computed inside the kernels that read it, so what
               it reads lives until the last of them runs (``_kernel_time``); a stored fused
               value a reduction reads is computed again inside that reduction
    fusion     stored outputs that compute a common value in registers (a recomputed GeLU's
               value for its weight gradient and its derivative) run as one kernel where the
               last of them would; their readers move after it (``_fused_order``)
    in place   a fused kernel's output takes the storage of a same-sized input that dies in
               it (``buf3 = buf1; del buf1  # reuse``)
    pooling    a freed storage stays allocated until a later storage of the same size reuses
               it, and is released at once if none will (``_pooled``)
    outputs    the outputs of an op Inductor calls as one kernel (SDPA and its backward, a
               convolution's backward) are allocated when it runs, before its workspace, not
               where their getitems stand (``_allocated_at``)
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
allocator's rounding and fragmentation, Inductor's reordering for peak memory, and the kernels
it fuses beyond the rules above; ``bench/bench_peak.py`` measures the error on compiled CPU
steps (docs/budget.md), and ``Options.peak_margin`` keeps headroom for it.

The walk is one reverse pass over the nodes in C++ (``phases``), a few numpy passes, and the
pooled live-bytes walk of each phase in C++ (``_pooled``): a few milliseconds for a 10k-node
graph, so the budget frontier can estimate every plan it finds.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from fusioncut import _core
from fusioncut.graph import JointGraph, Role, Value
from fusioncut.network import BACKWARD_ROLES
from fusioncut.ops import OpKind
from fusioncut.peak_extern import ExternMemory, extern_memory
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
    in_place: np.ndarray  # bool per allocation: may take a dying input's storage (``_pooled``)
    free_node: np.ndarray
    free_t: np.ndarray
    free_s: np.ndarray
    work_node: np.ndarray
    work_t: np.ndarray
    work_s: np.ndarray

    def peak(self) -> int:
        return _pooled(self.alloc_t, self.alloc_s, self.free_t, self.free_s, self.in_place,
                       (self.work_t, self.work_s))[0]


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
    saved = np.asarray(saved, dtype=np.int64)
    away = np.zeros(0, dtype=np.int64) if offloaded is None else offloaded.nodes
    fw, bw, trigger = phases(graph, saved) if split is None else split
    size = (graph.numel if numel is None else numel) * graph.itemsize
    base = graph.base
    masks = _masks(graph)
    idx, tensor, reads, ext = masks.idx, masks.tensor, masks.reads, masks.ext
    merged, fusible = masks.merged, masks.fusible
    dst = graph.edge_dst

    # Forward: time = graph index.
    kept = np.zeros(n, dtype=bool)
    kept[base[np.setdiff1d(saved, away) if len(away) else saved]] = True
    kept[base[graph.fwd_output]] = True
    written_out = kept.copy()  # an offloaded value is written too: torch's copy reads it
    written_out[base[away]] = True
    fw_edge = fw[dst] & reads
    fw_time = np.where(fw, idx, -1)
    fw_written = _written(graph, fw_edge, written_out, fusible) & ~merged
    added, fw_kernel = _stored_on_reuse(graph, fw_edge, fw, fw_written, fusible, merged, fw_time)
    fw_written |= added
    fw_alloc = fw & tensor & fw_written
    # Offloaded storages no value kept on the device shares: they leave after their last
    # forward use (or at the forward's end, held by torch's sunk wait) and come back later.
    gone = np.zeros(n, dtype=bool)
    gone[away] = True
    gone &= ~kept & fw_alloc
    held = gone if offloaded is not None and offloaded.hold_forward else np.zeros(n, bool)
    if fw_kernel is None:
        fw_kernel = _kernels(graph, fw, fw_written, fusible, merged, fw_time)
    last_fw = _last_use(graph, fw_edge, fw_kernel)
    if offloaded is not None and offloaded.wait_before is not None and len(away):
        # A paced wait holds the device copy until the link has moved it.
        paced = gone[away]
        nodes = away[paced]
        last_fw[nodes] = np.maximum(last_fw[nodes], offloaded.wait_before[paced] - 1)

    # Backward: time = position in (trigger, tangent-dependent last, graph index) order.
    order = np.flatnonzero(bw)  # ascending: a stable sort keeps graph order within a key
    order = order[np.argsort(trigger[order] * 2 + masks.backward_role[order], kind="stable")]
    time = np.full(n, -1, dtype=np.int64)
    time[order] = np.arange(len(order))
    bw_edge = bw[dst] & reads
    keep_to_end = np.zeros(n, dtype=bool)
    keep_to_end[base[graph.bwd_output]] = True
    keep_to_end[base[graph.fwd_output]] = True
    bw_written = _written(graph, bw_edge, keep_to_end, fusible) & ~merged
    bw_stored = bw & fusible & bw_written & (base == idx)
    time = _fused_order(graph, bw, bw_edge, bw_stored, bw & fusible & ~bw_written, time)
    added, bw_kernel = _stored_on_reuse(graph, bw_edge, bw, bw_written, fusible, merged, time)
    bw_written |= added
    if bw_kernel is None:
        bw_kernel = _kernels(graph, bw, bw_written, fusible, merged, time)
    last_bw = _last_use(graph, bw_edge, bw_kernel)

    # Layout copies of inputs: made at the forward's start, handed to the backward when it
    # reads the input, freed after its last use.
    copies = (ext.layout_copy > 0) & ((last_fw >= 0) | (last_bw >= 0))
    to_bw = copies & (last_bw >= 0)
    between = (fw_alloc & kept) | to_bw
    start = between & ((last_bw >= 0) | keep_to_end)
    bw_alloc = bw & tensor & bw_written & ~start
    back = gone & (last_bw >= 0)
    reload_t = _reloads(graph, back, bw_edge, time, offloaded)
    forward = _events(fw_time, np.concatenate([np.flatnonzero(copies), np.flatnonzero(fw_alloc)]),
                      np.concatenate([np.full(int(copies.sum()), -1),
                                      _allocated_at(fw_time, masks.output_of)[fw_alloc]]),
                      fusible & ~copies, (fw_alloc & ~kept & ~held) | (copies & ~to_bw),
                      last_fw, size, fw & (ext.workspace > 0), ext.workspace)
    backward = _events(time, np.concatenate([np.flatnonzero(start), np.flatnonzero(bw_alloc),
                                             np.flatnonzero(back)]),
                       np.concatenate([np.full(int(start.sum()), -1),
                                       _allocated_at(time, masks.output_of)[bw_alloc], reload_t]),
                       fusible & ~start & ~back, (start | bw_alloc | back) & ~keep_to_end,
                       last_bw, size, bw & (ext.workspace > 0), ext.workspace)
    return forward, backward, int(size[between].sum())


def _reloads(graph: JointGraph, back: np.ndarray, bw_edge: np.ndarray, time: np.ndarray,
             offloaded: OffloadedValues | None) -> np.ndarray:
    """Backward times at which the offloaded storages ``back`` (ascending) are reloaded."""
    if not back.any():
        return np.zeros(0, dtype=np.int64)
    order = np.flatnonzero(time >= 0)
    order = order[np.argsort(time[order], kind="stable")]  # the joint nodes in backward order
    edge = bw_edge & back[graph.edge_src]
    src, dst = graph.edge_src[edge], graph.edge_dst[edge]
    first = np.full(len(back), len(order), dtype=np.int64)
    np.minimum.at(first, src, time[dst])
    nodes = np.flatnonzero(back)
    moved = offloaded
    if offloaded.lead_seconds is not None:
        lead = np.zeros(len(back))
        lead[offloaded.nodes] = offloaded.lead_seconds
        moved = dataclasses.replace(offloaded, nodes=nodes, lead_seconds=lead[nodes])
    return reload_times(first[nodes], order, moved)


def _events(time, alloc_node, alloc_t, in_place, freed, last_use, size, working, workspace
            ) -> PhaseEvents:
    free_node = np.flatnonzero(freed)
    free_t, free_s = _frees(last_use, freed, time, size)
    work = np.flatnonzero(working)
    return PhaseEvents(time=time, alloc_node=alloc_node, alloc_t=alloc_t,
                       alloc_s=size[alloc_node], in_place=in_place[alloc_node],
                       free_node=free_node, free_t=free_t, free_s=free_s, work_node=work,
                       work_t=time[work], work_s=workspace[work])


@dataclass(frozen=True)
class _Masks:
    """What ``phase_events`` reads of a graph that no saved set changes, computed once per
    graph (the frontier estimates hundreds of plans of one graph)."""

    idx: np.ndarray  # arange(n)
    tensor: np.ndarray  # a tensor's own storage, not an input's
    reads: np.ndarray  # per edge: reads the storage (aten.sym_size reads metadata only)
    ext: ExternMemory  # peak_extern.extern_memory
    merged: np.ndarray  # a matmul Inductor runs inside the add that follows it
    fusible: np.ndarray  # _fusible, less the adds that become an addmm (extern kernels)
    backward_role: np.ndarray  # a node of the backward's roles
    computing: np.ndarray  # a pointwise or random op (``_COMPUTING``)
    output_of: np.ndarray  # the op of several outputs a getitem takes one from, else -1
    reduction: np.ndarray  # a reduction
    heavy: np.ndarray  # int64 1/0: an op whose reuse the C++ backend stores (``_HEAVY``)
    read_value: np.ndarray  # with ``reader``: each distinct (value, node reading it) pair
    reader: np.ndarray  # (``x * x`` reads ``x`` once; ``aten.sym_size`` reads no storage)
    blocking: np.ndarray  # per edge: its reader cannot fuse its value (``_written``)
    same_pointwise: np.ndarray  # per edge: pointwise ops at both ends, of one size
    reduced: np.ndarray  # per edge: a reduction reads it


def _masks(graph: JointGraph) -> _Masks:
    cached = graph.__dict__.get("_peak_masks")
    if cached is None:
        n = graph.num_nodes
        idx = np.arange(n)
        ext = extern_memory(graph)
        merged = ext.addmm >= 0
        target = np.zeros(n, dtype=bool)
        target[ext.addmm[merged]] = True
        src, dst = graph.edge_src, graph.edge_dst
        reads = graph.kind[dst] != OpKind.SYMBOLIC
        pair = np.unique(src[reads] * n + dst[reads])
        heavy = [node.op == "call_function" and graph.op_name(i) in _HEAVY
                 for i, node in enumerate(graph.nodes)]
        cached = graph.__dict__["_peak_masks"] = _Masks(
            idx=idx,
            tensor=(graph.value == Value.TENSOR) & (graph.base == idx)
            & (graph.role > Role.CONSTANT),
            reads=reads, ext=ext, merged=merged,
            fusible=_fusible(graph) & ~target,
            backward_role=np.isin(graph.role, BACKWARD_ROLES),
            computing=np.isin(graph.kind, _COMPUTING),
            output_of=_outputs_of(graph),
            reduction=graph.kind == OpKind.REDUCTION,
            heavy=np.array(heavy, dtype=np.int64), read_value=pair // n, reader=pair % n,
            blocking=(~graph.consumer_fusible()[dst] | target[dst])
            & (graph.base[dst] != graph.base[src]),
            same_pointwise=(graph.numel[src] == graph.numel[dst])
            & np.isin(graph.kind[src], _COMPUTING) & np.isin(graph.kind[dst], _COMPUTING),
            reduced=graph.kind[dst] == OpKind.REDUCTION)
    return cached


def _outputs_of(graph: JointGraph) -> np.ndarray:
    """int64 (n,): for a getitem of an op that Inductor calls as one kernel and that has
    several outputs (SDPA and its backward, a convolution's backward, a higher-order op), that
    op; -1 for every other node (a layer or batch norm's outputs come from kernels Inductor
    generates, each at its own place)."""
    src = graph.first_input
    getitem = (graph.kind == OpKind.GETITEM) & (src >= 0)
    getitem[getitem] &= (graph.value[src[getitem]] == Value.MULTI) \
        & ~np.isin(graph.kind[src[getitem]], _LOWERED)
    return np.where(getitem, src, -1)


_LOWERED = np.array([OpKind.VIEW, OpKind.POINTWISE, OpKind.REDUCTION, OpKind.CAT,
                     OpKind.RANDOM], dtype=np.int8)


def _allocated_at(time: np.ndarray, output_of: np.ndarray) -> np.ndarray:
    """When each node's storage is allocated: its time, but the outputs of an op called as
    one kernel all exist while it runs (SDPA's backward allocates its three gradients before
    its workspace), so such a getitem's storage is allocated at its op's time."""
    out = time.copy()
    taken = (output_of >= 0) & (time >= 0)
    out[taken] = time[output_of[taken]]
    return out


def _fusible(graph: JointGraph) -> np.ndarray:
    """bool (n,): nodes a fusing compiler computes inside a kernel it generates (pointwise,
    views), whose output may take the storage of an input that dies in the same kernel."""
    cached = graph.__dict__.get("_peak_fusible")
    if cached is None:
        cached = graph.producer_fusible()
        graph.__dict__["_peak_fusible"] = cached
    return cached


def _fused_order(graph: JointGraph, phase: np.ndarray, edge: np.ndarray, stored: np.ndarray,
                 inlined: np.ndarray, time: np.ndarray) -> np.ndarray:
    """``time`` re-ranked as Inductor fuses: stored outputs that compute a common inlined
    pointwise value of their own size (a recomputed GeLU's value for a weight gradient and
    its derivative) run in one kernel, where the last of them would run; nodes that read one
    of them move after that kernel, in their order."""
    all_src, all_dst = graph.edge_src[edge], graph.edge_dst[edge]
    link = _masks(graph).same_pointwise[edge]
    link &= inlined[all_src] & (inlined[all_dst] | stored[all_dst])
    a, b = all_src[link], all_dst[link]
    if not len(a):
        return time
    # Connected components along the links, each labelled by its least node: the fixpoint of
    # raising -label along the links both ways.
    label = -_raise_along(np.concatenate([a, b]), np.concatenate([b, a]),
                          -np.arange(graph.num_nodes))
    members = np.zeros(graph.num_nodes, dtype=bool)
    members[b[stored[b]]] = True
    # A kernel has a few outputs: a component with many is a chain every kernel recomputes
    # (a residual stream), not one kernel.
    counts = np.bincount(label[members], minlength=graph.num_nodes)
    members &= counts[label] <= _MAX_FUSED_OUTPUTS
    for _ in range(_MAX_FUSED_OUTPUTS):
        if not members.any():
            return time
        latest = np.full(graph.num_nodes, -1, dtype=np.int64)
        np.maximum.at(latest, label[members], time[members])
        start = time.copy()
        start[members] = latest[label[members]]
        # A reader runs after what it reads.
        start = _raise_along(all_src, all_dst, start)
        # A member that must wait for another member's readers cannot share its kernel.
        cyclic = members & (start > latest[label])
        if not cyclic.any():
            break
        members &= ~np.isin(label, label[cyclic])
    else:
        return time
    # At one start: the fused kernel's outputs (in their order), then the readers moved after it.
    pushed = (start > time) & ~members
    nodes = np.flatnonzero(phase)
    out = np.full(graph.num_nodes, -1, dtype=np.int64)
    n = graph.num_nodes  # one key: (start, pushed, time), each below n
    key = (start[nodes] * 2 + pushed[nodes]) * n + time[nodes]
    out[nodes[np.argsort(key, kind="stable")]] = np.arange(len(nodes))
    return out


_COMPUTING = np.array([OpKind.POINTWISE, OpKind.RANDOM], dtype=np.int8)
_MAX_FUSED_OUTPUTS = 4  # stored outputs of one fused kernel that ``_fused_order`` moves


def _kernel_time(graph: JointGraph, inlined: np.ndarray, stored: np.ndarray,
                 time: np.ndarray) -> np.ndarray:
    """int64 (n,): when each node's value is computed: its own ``time`` for a node that is a
    kernel of its own or the stored output of one, and for an ``inlined`` node (a fused op
    whose value stays in registers, a view, a matmul merged into an add) the latest time of
    the kernels that read it. Reads by an inlined node happen there: a storage it reads lives
    until that kernel runs. A ``stored`` fused output is computed again inside a reduction that
    reads it (Inductor fuses the reduction with its producer's expression: a softmax's sum), so
    what it reads lives until that reduction; not when another kernel reads the stored output
    before the reduction runs (a matmul reading a loss gradient whose bias gradient, a column
    sum, comes later): the output exists by then, and the reduction reads it. A fixpoint
    along the edges (``_raise_along``)."""
    src, dst = graph.edge_src, graph.edge_dst
    masks = _masks(graph)
    reduced = stored[src] & masks.reduced & masks.reads
    if reduced.any():
        # The earliest read of each stored output by a kernel of its own, not a reduction.
        read = stored[src] & ~masks.reduced & masks.reads & ~inlined[dst] & (time[dst] >= 0)
        first = np.full(graph.num_nodes, np.iinfo(np.int64).max, dtype=np.int64)
        np.minimum.at(first, src[read], time[dst[read]])
        reduced &= time[dst] <= first[src]
    active = (inlined[src] & masks.reads) | reduced
    return _raise_along(dst[active], src[active], time)


def _kernels(graph: JointGraph, phase: np.ndarray, written: np.ndarray, fusible: np.ndarray,
             merged: np.ndarray, time: np.ndarray) -> np.ndarray:
    """``_kernel_time`` of a phase that writes the storages ``written``: the fused ops whose
    own storage is not written (and the merged matmuls) are inlined, the others stored."""
    own = written & (graph.base == _masks(graph).idx)
    return _kernel_time(graph, phase & ((fusible & ~own) | merged), phase & fusible & own, time)


def _raise_along(frm: np.ndarray, to: np.ndarray, value: np.ndarray) -> np.ndarray:
    """``value`` (a copy) raised until ``value[to[e]] >= value[frm[e]]`` on every edge ``e``:
    the least such values above ``value`` (``_core.raise_along``, a worklist in C++)."""
    return _core.raise_along(np.ascontiguousarray(frm, dtype=np.int64),
                             np.ascontiguousarray(to, dtype=np.int64),
                             np.ascontiguousarray(value, dtype=np.int64))


_MAX_STORE_PASSES = 8  # chains of reused heavy values, each pass stores one link
_HEAVY = frozenset({"aten.exp", "aten.log", "aten.log10", "aten.log1p", "aten.log2",
                     "aten.sigmoid", "aten.tanh"})


def _last_use(graph: JointGraph, edge: np.ndarray, when: np.ndarray) -> np.ndarray:
    """int64 (n,): per storage, the latest kernel time of a read along ``edge`` (-1: none)."""
    last = np.full(graph.num_nodes, -1, dtype=np.int64)
    np.maximum.at(last, graph.base[graph.edge_src[edge]], when[graph.edge_dst[edge]])
    return last


def _written(graph: JointGraph, edge: np.ndarray, forced: np.ndarray, fusible: np.ndarray
             ) -> np.ndarray:
    """bool (n,): storages a phase writes to memory, given the edges ``edge`` it reads along:
    what a fused kernel cannot keep in registers (the output of an op that is no fused
    pointwise op, or a value one of the phase's readers cannot fuse: ``cost.materialized``
    restricted to the phase; an add merged into an ``addmm`` reads like an extern kernel) and
    the ``forced`` storages (saved, outputs). A value several fused kernels of one phase read
    is not counted: Inductor fuses them into one kernel or recomputes the value in each
    (unless its C++ backend stores it: ``_stored_on_reuse``)."""
    base = graph.base
    written = ~fusible | (graph.role <= Role.CONSTANT) | forced
    written[base[graph.edge_src[edge & _masks(graph).blocking]]] = True
    return written[base]


def _stored_on_reuse(graph: JointGraph, edge: np.ndarray, phase: np.ndarray,
                     written: np.ndarray, fusible: np.ndarray, merged: np.ndarray,
                     time: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """bool (n,): values Inductor's C++ backend stores although every reader could fuse them
    (``StorageBox.should_realize_on_reuse``): a pointwise value with several users whose
    expression, back to the stored values it reads, calls exp, log, sigmoid or tanh (a GeLU's
    tanh, a SiLU's sigmoid, a softmax's exp), and whose readers other than reductions run in
    more than one kernel (a buffer all of whose readers fuse with its producer stays in
    registers). A stored value ends the expressions that read it, so values are added in
    passes, each taking those whose expression is heavy without reading another value the pass
    adds. Empty off the CPU. Returned with the kernel times (``_kernels``) of the phase that
    also writes them, or None where it did not need them."""
    n = graph.num_nodes
    added = np.zeros(n, dtype=bool)
    if graph.on_accelerator():  # the rule is the C++ backend's
        return added, None
    src, dst = graph.edge_src[edge], graph.edge_dst[edge]
    masks = _masks(graph)
    idx, heavy, reduction = masks.idx, masks.heavy, masks.reduction
    # Distinct readers in the phase.
    users = np.bincount(masks.read_value[phase[masks.reader]], minlength=n)
    candidate = (phase & masks.computing & fusible & (graph.base == idx)
                 & ~written & (users > 1))
    if not candidate.any():
        return added, None
    stored = written.copy()
    kernel = None  # the kernel times of ``stored``, once computed
    for _ in range(_MAX_STORE_PASSES):
        through = (phase & fusible & ~stored)[src]  # reads of values still inlined
        new = candidate & ~stored & (_raise_along(src[through], dst[through], heavy) > 0)
        if not new.any():
            break
        # Keep the new values whose expression is heavy without going through another new
        # one: the ones that read a new value read it stored, and are decided next pass.
        through &= ~new[src]
        new &= _raise_along(src[through], dst[through], heavy) > 0
        kernel = _kernels(graph, phase, stored, fusible, merged, time)
        # A reduction fuses with the pointwise reader of its result (a softmax's sum and
        # division run in one kernel): the kernels that count are the other readers'.
        read = new[src] & ~reduction[dst]
        first = np.full(n, np.iinfo(np.int64).max, dtype=np.int64)
        last = np.full(n, -1, dtype=np.int64)
        np.minimum.at(first, src[read], kernel[dst[read]])
        np.maximum.at(last, src[read], kernel[dst[read]])
        new &= last > first
        if not new.any():
            break
        stored |= new
        added |= new
        kernel = None
    return added, kernel


def _frees(last_use: np.ndarray, mask: np.ndarray, birth: np.ndarray, size: np.ndarray):
    """Free times (after the last use; right after birth when never used) and sizes."""
    t = np.where(last_use[mask] >= 0, last_use[mask], birth[mask])
    return t, size[mask]


def _pooled(alloc_t, alloc_s, free_t, free_s, in_place=None, transient=None) -> tuple[int, int]:
    """A phase's peak and the bytes it holds at the end (``_core.pooled_peak``, in C++: the
    frontier walks every plan it scores). Allocations at time t happen before frees at time
    t (event times 2t and 2t + 1), and freed storages are held for reuse as Inductor's
    generated code holds them; ``transient`` = (times, bytes): memory a kernel holds only
    while it runs (a workspace, never pooled for reuse), on top of the storages live right
    after the allocations of its time.

    ``in_place`` (bool per allocation): the allocation is the output of a kernel Inductor
    generates, which writes it into the storage of a same-sized input that dies in that kernel
    (``buf3 = buf1; del buf1  # reuse``): a free at the same time and of the same size happens
    before it, and the storage passes from the input to the output.

    Inductor frees a buffer only if no later buffer of the same size reuses it; otherwise the
    buffer stays allocated until a later allocation takes it (the most recently freed first).
    Per size, with ``L`` the live count over time, ``M`` its running maximum (the buffers ever
    held) and ``P = M - L`` the pool, a pooled buffer is still held at time t exactly when
    the pool later drops below its depth: the held count is ``M(t) - min_{s >= t} P(s)``."""
    def i64(a):
        return np.ascontiguousarray(a, dtype=np.int64)

    work_t, work_s = (_EMPTY, _EMPTY) if transient is None else transient
    in_place = np.zeros(len(alloc_t), dtype=bool) if in_place is None else in_place
    return _core.pooled_peak(i64(alloc_t), i64(alloc_s), np.ascontiguousarray(in_place, bool),
                             i64(free_t), i64(free_s), i64(work_t), i64(work_s))


_EMPTY = np.zeros(0, dtype=np.int64)
