"""The peak estimate's walk as it was written in numpy before it moved to C++
(``_core.PeakGraph.walk``), kept as the reference the C++ walk is checked against, event for
event (tests/test_peak_walk.py). The rules are ``fusioncut.peak``'s module docstring."""

from __future__ import annotations

import dataclasses
import heapq
from dataclasses import dataclass

import numpy as np

from fusioncut import _core
from fusioncut.graph import JointGraph, Role, Value
from fusioncut.network import BACKWARD_ROLES
from fusioncut.ops import OpKind
from fusioncut.peak import _COMPUTING, _HEAVY, _HORIZONTAL_DISTANCE, _MAX_FUSED_OUTPUTS, \
    _MAX_STORE_PASSES, PhaseEvents, _outputs_of, phases
from fusioncut.peak_extern import ExternMemory, extern_memory
from fusioncut.peak_offload import OffloadedValues, reload_times

__all__ = ["phase_events"]



def phase_events(graph: JointGraph, saved: np.ndarray, numel: np.ndarray | None = None,
                 split=None, *, offloaded: OffloadedValues | None = None
                 ) -> tuple[PhaseEvents, PhaseEvents, int]:
    """``fusioncut.peak.phase_events`` as numpy passes (the C++ walk must return the same
    events)."""
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
    added, fw_kernel, fw_phantom = _stored_on_reuse(graph, fw_edge, fw, fw_written, fusible,
                                                    merged, fw_time)
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

    # Backward: time = position in (trigger, tangent-dependent last, graph index) order, after
    # the horizontal fusion of recomputed kernels.
    bw_edge = bw[dst] & reads
    keep_to_end = np.zeros(n, dtype=bool)
    keep_to_end[base[graph.bwd_output]] = True
    keep_to_end[base[graph.fwd_output]] = True
    bw_written = _written(graph, bw_edge, keep_to_end, fusible) & ~merged
    bw_stored = bw & fusible & bw_written & (base == idx)
    inlined = bw & fusible & ~bw_written
    order = np.flatnonzero(bw)  # ascending: a stable sort keeps graph order within a key
    order = order[np.argsort(trigger[order] * 2 + masks.backward_role[order], kind="stable")]
    moved, group, alone = _horizontal(graph, fw, bw, bw_written, inlined, order, size, trigger)
    if moved is not None:
        order = np.flatnonzero(bw)
        order = order[np.argsort(moved[order] * 2 + masks.backward_role[order], kind="stable")]
    time = np.full(n, -1, dtype=np.int64)
    time[order] = np.arange(len(order))
    time, group = _fused_order(graph, bw, bw_edge, bw_stored, inlined, time, group)
    # Events at kernel steps: a group's members at its last member's time.
    step = time.copy()
    grouped = group >= 0
    if grouped.any():
        last = np.full(n, -1, dtype=np.int64)
        np.maximum.at(last, group[grouped], time[grouped])
        step[grouped] = last[group[grouped]]
    added, bw_kernel, bw_phantom = _stored_on_reuse(graph, bw_edge, bw, bw_written, fusible,
                                                    merged, step)
    bw_written |= added
    if bw_kernel is None:
        bw_kernel = _kernels(graph, bw, bw_written, fusible, merged, step)
    last_bw = _last_use(graph, bw_edge, bw_kernel)

    # Layout copies of inputs: made at the forward's start, handed to the backward when it
    # reads the input, freed after its last use.
    copies = (ext.layout_copy > 0) & ((last_fw >= 0) | (last_bw >= 0))
    to_bw = copies & (last_bw >= 0)
    between = (fw_alloc & kept) | to_bw
    start = between & ((last_bw >= 0) | keep_to_end)
    bw_alloc = bw & tensor & bw_written & ~start
    back = gone & (last_bw >= 0)
    reload_t = _reloads(graph, back, bw_edge, time, step, offloaded)
    forward = _events(fw_time, fw_time,
                      np.concatenate([np.flatnonzero(copies), np.flatnonzero(fw_alloc)]),
                      np.concatenate([np.full(int(copies.sum()), -1),
                                      _allocated_at(fw_time, masks.output_of)[fw_alloc]]),
                      fusible & ~copies, (fw_alloc & ~kept & ~held) | (copies & ~to_bw),
                      last_fw, size, fw & (ext.workspace > 0), ext.workspace, fw_phantom)
    backward = _events(time, step, np.concatenate([np.flatnonzero(start),
                                                   np.flatnonzero(bw_alloc), np.flatnonzero(back)]),
                       np.concatenate([np.full(int(start.sum()), -1),
                                       _allocated_at(step, masks.output_of)[bw_alloc], reload_t]),
                       fusible & ~start & ~back & ~(grouped & alone),
                       (start | bw_alloc | back) & ~keep_to_end,
                       last_bw, size, bw & (ext.workspace > 0), ext.workspace, bw_phantom)
    return forward, backward, int(size[between].sum())



def _reloads(graph: JointGraph, back: np.ndarray, bw_edge: np.ndarray, time: np.ndarray,
             step: np.ndarray, offloaded: OffloadedValues | None) -> np.ndarray:
    """Backward times at which the offloaded storages ``back`` (ascending) are reloaded: at
    the kernel step of their first reader (``step``), or before it by torch's prefetch."""
    if not back.any():
        return np.zeros(0, dtype=np.int64)
    order = np.flatnonzero(time >= 0)
    order = order[np.argsort(time[order], kind="stable")]  # the joint nodes in backward order
    edge = bw_edge & back[graph.edge_src]
    src, dst = graph.edge_src[edge], graph.edge_dst[edge]
    first = np.full(len(back), len(order), dtype=np.int64)
    np.minimum.at(first, src, step[dst])
    nodes = np.flatnonzero(back)
    moved = offloaded
    if offloaded.lead_seconds is not None:
        lead = np.zeros(len(back))
        lead[offloaded.nodes] = offloaded.lead_seconds
        moved = dataclasses.replace(offloaded, nodes=nodes, lead_seconds=lead[nodes])
    return reload_times(first[nodes], order, moved)


def _events(time, step, alloc_node, alloc_t, in_place, freed, last_use, size, working,
            workspace, phantom) -> PhaseEvents:
    """A phase's events, each at the kernel step of its node (``step``)."""
    free_node = np.flatnonzero(freed)
    free_t, free_s = _frees(last_use, freed, step, size)
    work = np.flatnonzero(working)
    ghost = np.flatnonzero(phantom >= 0)
    return PhaseEvents(time=time, alloc_node=alloc_node, alloc_t=alloc_t,
                       alloc_s=size[alloc_node], in_place=in_place[alloc_node],
                       free_node=free_node, free_t=free_t, free_s=free_s, work_node=work,
                       work_t=step[work], work_s=workspace[work], phantom_node=ghost,
                       phantom_t=phantom[ghost], phantom_s=size[ghost])



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
    cached = graph.__dict__.get("_reference_masks")
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
        cached = graph.__dict__["_reference_masks"] = _Masks(
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



def _horizontal(graph: JointGraph, fw: np.ndarray, bw: np.ndarray, written: np.ndarray,
                inlined: np.ndarray, order: np.ndarray, size: np.ndarray, trigger: np.ndarray
                ) -> tuple[np.ndarray | None, np.ndarray, np.ndarray]:
    """Inductor's horizontal fusion in the backward (``horizontal`` in csrc/peak_walk.h):
    groups of stored pointwise values the backward computes, of one size, reached from no
    other member through the backward, each sharing a read storage (directly or through
    values kept in registers) with a member, at most ``_HORIZONTAL_DISTANCE`` allocations after
    the first in ``order``, up to ``_MAX_FUSED_OUTPUTS`` of them, and from the third on one
    member reading every storage the others read. Returns the triggers after the groups of
    recomputed values run where their first runs (None when none moves), and for the groups
    with a value computed anew each member's first member (-1 elsewhere) and whether it reads
    no storage of its size that no other member reads."""
    masks = _masks(graph)
    n = graph.num_nodes
    base = graph.base
    recomputed = fw & bw
    inputs = [[] for _ in range(n)]  # every input; read_inputs: storages read
    read_inputs = [[] for _ in range(n)]
    users = [[] for _ in range(n)]
    for u, v, r in zip(graph.edge_src.tolist(), graph.edge_dst.tolist(), masks.reads.tolist()):
        inputs[v].append(u)
        users[u].append(v)
        if r:
            read_inputs[v].append(u)
    stored = masks.tensor & written  # tensor implies a storage of its own
    slot = np.zeros(n, dtype=np.int64)
    slot[order] = np.concatenate([[0], np.cumsum(stored[order])[:-1]]) if len(order) else []
    candidates = [int(u) for u in order if stored[u] and size[u] > 0 and (
        (masks.computing[u] and masks.fusible[u]) or masks.reduction[u])]

    def storages(k: int) -> set[int]:
        out, seen, stack = set(), set(), [k]
        while stack:
            for v in read_inputs[stack.pop()]:
                if v in seen:
                    continue
                seen.add(v)
                if bw[v] and inlined[v]:
                    stack.append(v)
                else:
                    out.add(int(base[v]))
        return out

    def reached(k: int, bound: int) -> set[int]:
        seen, stack = set(), [k]
        while stack:
            for v in users[stack.pop()]:
                if v not in seen and v <= bound and bw[v]:
                    seen.add(v)
                    stack.append(v)
        return seen

    read = [storages(k) for k in candidates]
    taken = [False] * len(candidates)
    groups = []
    most = max(_MAX_FUSED_OUTPUTS, 2)
    for a, first in enumerate(candidates):
        if taken[a]:
            continue
        window = [b for b in range(a + 1, len(candidates))
                  if slot[candidates[b]] - slot[first] <= _HORIZONTAL_DISTANCE]
        window = window[:next((k for k in range(len(window)) if window[k] != a + 1 + k),
                              len(window))]
        bound = max([first] + [candidates[b] for b in window])
        members, behind = [a], reached(first, bound)
        for b in window:
            later = candidates[b]
            if len(members) >= most:
                break
            if taken[b] or size[later] != size[first] or (
                    masks.reduction[later] != masks.reduction[first]):
                continue
            if not any(read[m] & read[b] for m in members):
                continue
            every = set().union(*(read[m] for m in members), read[b])
            if len(members) >= 2 and not any(every <= read[x] for x in members + [b]):
                continue
            if later in behind:
                continue
            members.append(b)
            behind |= reached(later, bound)
        if len(members) >= 2:
            for m in members:
                taken[m] = True
            groups.append(members)
    new = trigger.copy()
    group = np.full(n, -1, dtype=np.int64)
    alone = np.zeros(n, dtype=bool)
    for members in groups:
        nodes = [candidates[m] for m in members]
        if all(fw[u] for u in nodes):
            to = min(int(new[u]) for u in nodes)  # after the moves of earlier groups
            for u in nodes:
                seen, stack = {u}, [u]
                while stack:
                    for v in inputs[stack.pop()]:
                        if v not in seen and recomputed[v]:
                            seen.add(v)
                            stack.append(v)
                for v in seen:
                    new[v] = min(new[v], to)
            continue
        for m in members:
            u = candidates[m]
            group[u] = nodes[0]
            others = set().union(*(read[o] for o in members if o != m))
            alone[u] = not any(size[x] == size[u] for x in read[m] - others)
    return (None if np.array_equal(new, trigger) else new), group, alone


def _allocated_at(time: np.ndarray, output_of: np.ndarray) -> np.ndarray:
    """When each node's storage is allocated: its time, but the outputs of an op called as
    one kernel all exist while it runs (SDPA's backward allocates its three gradients before
    its workspace), so such a getitem's storage is allocated at its op's time."""
    out = time.copy()
    taken = (output_of >= 0) & (time >= 0)
    out[taken] = time[output_of[taken]]
    return out



def _fused_order(graph: JointGraph, phase: np.ndarray, edge: np.ndarray, stored: np.ndarray,
                 inlined: np.ndarray, time: np.ndarray, group: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """``time`` re-ranked as Inductor fuses (``fused_order`` in csrc/kernels.h): stored outputs
    that compute a common inlined pointwise value of their own size (a recomputed GeLU's value
    for a weight gradient and its derivative), and the horizontal ``group``s, run as one kernel
    each, at most ``_MAX_FUSED_OUTPUTS`` outputs; a kernel runs at its latest member's time once
    what it reads has run (other kernels included), and what reads a member moves after it;
    the groups on a cycle of kernels are dropped, then what is still on one leaves. Returns the
    ranks and the groups that run as one kernel."""
    n = graph.num_nodes
    all_src, all_dst = graph.edge_src[edge], graph.edge_dst[edge]
    link = _masks(graph).same_pointwise[edge]
    link &= inlined[all_src] & (inlined[all_dst] | stored[all_dst])
    group = group.copy()
    left = np.zeros(n, dtype=bool)
    while True:
        grouped = np.flatnonzero(group >= 0)
        a = np.concatenate([all_src[link], grouped])
        b = np.concatenate([all_dst[link], group[grouped]])
        if not len(a):
            return time, group
        # Connected components along the links, each labelled by its least node: the fixpoint
        # of raising -label along the links both ways.
        label = -_raise_along(np.concatenate([a, b]), np.concatenate([b, a]), -np.arange(n))
        members = np.zeros(n, dtype=bool)
        ends = all_dst[link]
        members[ends[stored[ends]]] = True
        members[grouped] = True
        members &= ~left
        # A kernel has a few outputs: a component with many is a chain every kernel recomputes
        # (a residual stream), not one kernel.
        counts = np.bincount(label[members], minlength=n)
        members &= counts[label] <= _MAX_FUSED_OUTPUTS
        if not members.any():
            break
        first = np.full(n, n, dtype=np.int64)
        np.minimum.at(first, label[members], np.flatnonzero(members))
        rep = np.where(members, first[label], np.arange(n))  # a kernel: its least member
        arc = (rep[all_src] != rep[all_dst]) & phase[all_src]
        tail, head = rep[all_src][arc], rep[all_dst][arc]
        succ: dict[int, list[int]] = {}
        for u, v in zip(tail.tolist(), head.tolist()):
            succ.setdefault(u, []).append(v)
        kernels = np.unique(rep[members]).tolist()
        reach = {}
        for k in kernels:  # the nodes an arc out of kernel k leads to
            seen, stack = set(), list(succ.get(k, []))
            while stack:
                x = stack.pop()
                if x not in seen:
                    seen.add(x)
                    stack.extend(succ.get(x, []))
            reach[k] = seen
        cyclic = [k for k in kernels if k in reach[k]]
        # Of the kernels on one cycle one stays fused, the others break the cycle: a kernel of
        # pointwise outputs before one of reductions, then the latest (by its first member's
        # time), then the least node. A kernel on a cycle of no other kernel leaves.
        reducing = _masks(graph).reduction
        rank = {k: (int(reducing[(rep == k) & members].any()), -int(time[rep == k].min()), k)
                for k in cyclic}
        breaking = [k for k in cyclic if any(rank[j] < rank[k] and j in reach[k]
                                             and k in reach[j] for j in cyclic)]
        if not breaking:
            breaking = cyclic
        on = members & np.isin(rep, breaking)
        if (on & (group >= 0)).any():
            group[np.isin(group, group[on & (group >= 0)])] = -1
            continue
        if on.any():
            left |= on
            continue
        group[~members] = -1
        nodes = np.flatnonzero(phase)
        out = np.full(n, -1, dtype=np.int64)
        start = time.copy()
        np.maximum.at(start, rep[members], time[members])
        start = _raise_along(tail, head, start)[rep]
        # A topological order by (start, moved by the kernels' placement, first time) among
        # the nodes whose inputs have run, a kernel a block of its members in their order.
        pushed = (start > time) & ~members
        lead = time.copy()
        np.minimum.at(lead, rep[members], time[members])
        blocks: dict[int, list[int]] = {}
        for u in nodes[np.argsort(time[nodes], kind="stable")].tolist():
            blocks.setdefault(int(rep[u]), []).append(u)
        indegree = np.bincount(head, minlength=n)
        ready = [(int(start[u]), bool(pushed[u]), int(lead[u]), u) for u in blocks
                 if indegree[u] == 0]
        heapq.heapify(ready)
        rank = 0
        while ready:
            *_, r = heapq.heappop(ready)
            for u in blocks[r]:
                out[u] = rank
                rank += 1
            for v in succ.get(r, []):
                indegree[v] -= 1
                if indegree[v] == 0:
                    heapq.heappush(ready, (int(start[v]), bool(pushed[v]), int(lead[v]), v))
        return out, group
    group[:] = -1
    return time, group


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


def _earliest_kernels(graph: JointGraph, phase: np.ndarray, written: np.ndarray,
                      fusible: np.ndarray, merged: np.ndarray, time: np.ndarray) -> np.ndarray:
    """int64 (n,): the earliest kernel that computes each node: its own time for a kernel of
    its own or a stored output; for an inlined node (computed again in every kernel that reads
    it) the earliest of its readers' in the phase."""
    own = written & (graph.base == _masks(graph).idx)
    inlined = phase & ((fusible & ~own) | merged)
    src, dst = graph.edge_src, graph.edge_dst
    active = inlined[src] & _masks(graph).reads & (time[dst] >= 0)
    big = np.iinfo(np.int64).max // 4
    start = np.where(inlined, big, time)
    out = -_raise_along(dst[active], src[active], -start)
    return np.where(out >= big, time, out)


def _raise_along(frm: np.ndarray, to: np.ndarray, value: np.ndarray) -> np.ndarray:
    """``value`` (a copy) raised until ``value[to[e]] >= value[frm[e]]`` on every edge ``e``:
    the least such values above ``value`` (``_core.raise_along``, a worklist in C++)."""
    return _core.raise_along(np.ascontiguousarray(frm, dtype=np.int64),
                             np.ascontiguousarray(to, dtype=np.int64),
                             np.ascontiguousarray(value, dtype=np.int64))



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
                     time: np.ndarray) -> tuple[np.ndarray, np.ndarray | None, np.ndarray]:
    """bool (n,): values Inductor's C++ backend stores although every reader could fuse them
    (``StorageBox.should_realize_on_reuse``): a pointwise value with several users whose
    expression, back to the stored values it reads, calls exp, log, sigmoid or tanh (a GeLU's
    tanh, a SiLU's sigmoid, a softmax's exp), and whose readers other than reductions run in
    more than one kernel (an inlined reader runs in each kernel that reads it: from its
    earliest, ``_earliest_kernels``, to its latest), or that a reduction and a later pointwise
    op both read (a buffer all
    of whose readers fuse with its producer in one loop stays in registers). A stored value
    ends the expressions that read it, so values are added in
    passes, each taking those whose expression is heavy without reading another value the pass
    adds. Empty off the CPU. Returned with the kernel times (``_kernels``) of the phase that
    also writes them, or None where it did not need them, and per node the kernel time of a
    candidate whose readers all run in one kernel (-1 elsewhere): Inductor realizes it, fuses
    it away, and counts it in its own estimate of the peak."""
    n = graph.num_nodes
    added = np.zeros(n, dtype=bool)
    phantom = np.full(n, -1, dtype=np.int64)
    if graph.on_accelerator():  # the rule is the C++ backend's
        return added, None, phantom
    src, dst = graph.edge_src[edge], graph.edge_dst[edge]
    masks = _masks(graph)
    idx, heavy, reduction = masks.idx, masks.heavy, masks.reduction
    # Distinct readers in the phase, per storage: a view's readers read its base.
    base = graph.base
    rv, rd = masks.read_value, masks.reader
    outside = phase[rd] & (base[rd] != base[rv])
    pairs = np.unique(base[rv[outside]] * n + rd[outside])
    users = np.bincount(pairs // n, minlength=n)
    candidate = (phase & masks.computing & fusible & (graph.base == idx)
                 & ~written & (users > 1))
    if not candidate.any():
        return added, None, phantom
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
        # division run in one kernel): the kernels that count are the other readers'. Read
        # by a reduction and by a pointwise reader, the value is read again after the
        # reduction's loop, so the kernel keeps it in memory (a softmax's exp in float32 under
        # a bfloat16 output, which cannot take its storage).
        outside = new[base[src]] & (base[dst] != base[src])
        read = outside & ~reduction[dst]
        reduced = np.zeros(n, dtype=bool)
        reduced[base[src[outside & reduction[dst]]]] = True
        first = np.full(n, np.iinfo(np.int64).max, dtype=np.int64)
        last = np.full(n, -1, dtype=np.int64)
        early = _earliest_kernels(graph, phase, stored, fusible, merged, time)
        np.minimum.at(first, base[src[read]], early[dst[read]])
        np.maximum.at(last, base[src[read]], kernel[dst[read]])
        keep = (last > first) | (reduced & (last >= 0))
        ghost = new & ~keep & (last >= 0)
        phantom[ghost] = last[ghost]
        new &= keep
        if not new.any():
            break
        stored |= new
        added |= new
        phantom[new] = -1
        kernel = None
    return added, kernel, phantom


def _frees(last_use: np.ndarray, mask: np.ndarray, birth: np.ndarray, size: np.ndarray):
    """Free times (after the last use; right after birth when never used) and sizes."""
    t = np.where(last_use[mask] >= 0, last_use[mask], birth[mask])
    return t, size[mask]




def _fusible(graph: JointGraph) -> np.ndarray:
    return graph.producer_fusible()
