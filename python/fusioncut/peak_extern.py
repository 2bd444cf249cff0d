"""What Inductor's generated code holds beyond the graph's own values, per joint node: the
workspaces of extern kernels, the copies its layout optimisation makes, and the matmuls it
merges into a following add. ``peak.py`` adds them to its walk.

    workspace[i]   bytes node i's kernel allocates while it runs and frees before it returns
                   (not an output): a per-op table of PyTorch's CPU kernels, from their
                   shapes (the ``meta["val"]`` of the node's arguments) and the number of
                   threads they run on; 0 for an op the table does not know
    layout_copy[i] for a graph input a convolution reads (its weight, or a batch fed to it
                   directly): the bytes of the channels-last copy Inductor's
                   ``layout_optimization`` makes of it at the start of the forward; the copy
                   is what the forward hands to the backward, so it lives until the backward's
                   last use of the input (0 when no copy is made)
    addmm[i]       for a matmul whose only user is an add of a tensor of its shape (a tied
                   weight's two gradients): the index of that add. Inductor's post-grad pass
                   rewrites the pair as one ``addmm`` that runs where the add is, so the
                   matmul's output is never stored and its inputs live until the add (-1: none)

The table (measured on PyTorch 2.13's CPU kernels; ``bench/budget_peak.py`` checks the totals
against the profiler):

    _scaled_dot_product_flash_attention_for_cpu
        threads x (qs x ks + 2 qs + qs x E) floats, qs = min(L, 32 | 64 | 256 by L < 192 |
        < 768 | else), ks = min(S, 512): each thread's block of scores, running max and sum,
        and output accumulator
    _scaled_dot_product_flash_attention_for_cpu_backward
        threads x (2 qs x ks + qs) floats: each thread's attention and gradient blocks
    convolution (oneDNN)              the weight's bytes: its reorder into a blocked format
    convolution_backward (oneDNN)     twice the weight's bytes: the reordered weight and the
                                      weight gradient before it is reordered back

and CUDA's (measured on an H100 with PyTorch 2.11, ``bench/gpu/attention_workspace.py``;
B, H, M, D: batch, heads, queries, head size of the query; any dtype):

    _scaled_dot_product_efficient_attention_backward
        B H M' (4 x D rounded up to 64 + 4.25) bytes, M' = M rounded up to 64: the float32
        accumulator of the query gradient, the per-row delta and the kernel's counters
        (exact on 39 of 40 shapes, 1.4% under on float32 at D = 64); and where its bias is
        a broadcast expansion of a pointwise value the graph computes, the dense copy
        Inductor makes of it at the bias's full shape, less the value's own bytes
        (``_expanded_bias_copy``: from Inductor's ``sdpa_constraint`` and the recorded
        walk of one H200 run, not yet measured on its own)
    _scaled_dot_product_flash_attention_backward
        B H M' (4 x D rounded up to 32 + 4) bytes + twice the query's bytes, M' = M rounded up
        to 128: the float32 query-gradient accumulator, the per-row softmax sums and two
        query-sized buffers (exact on 6 of 7 shapes; the buffers were not allocated at D = 128
        with one head, where the table is over by the query's bytes twice)

Everything is computed once per graph (``JointGraph`` caches it) at the size hints.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
import torch.fx as fx

from fusioncut import _torch_compat
from fusioncut.graph import JointGraph, Role, size_hint
from fusioncut.ops import OpKind

__all__ = ["ExternMemory", "extern_memory"]

_ACCUM_BYTES = 4  # the CPU flash-attention kernels accumulate in float32
_KV_SPLIT = 512
_Q_SPLITS = ((768, 256), (192, 64), (0, 32))  # (from sequence length, query block)
# Inductor's CPU layout heuristic: convolutions on oneDNN always get channels-last; elsewhere
# only graphs with fewer than this many nodes per convolution.
_NODES_PER_CONV = 300


@dataclass(frozen=True)
class ExternMemory:
    workspace: np.ndarray  # int64 (n,)
    layout_copy: np.ndarray  # int64 (n,)
    addmm: np.ndarray  # int64 (n,): the add a matmul is merged into, else -1


def extern_memory(graph: JointGraph) -> ExternMemory:
    """The extern memory of ``graph`` (computed once and cached on the graph)."""
    cached = graph.__dict__.get("_extern_memory")
    if cached is None:
        cached = _compute(graph)
        graph.__dict__["_extern_memory"] = cached
    return cached


def _compute(graph: JointGraph) -> ExternMemory:
    n = graph.num_nodes
    workspace = np.zeros(n, dtype=np.int64)
    layout_copy = np.zeros(n, dtype=np.int64)
    addmm = np.full(n, -1, dtype=np.int64)
    threads = max(torch.get_num_threads(), 1)
    convs = []
    nodes = graph.nodes
    # The ops below are never views, pointwise ops, reductions or getitems: only the rest of
    # the graph is looked at (a tenth of a transformer's nodes).
    for i in np.flatnonzero(~np.isin(graph.kind, _NEVER_EXTERN)).tolist():
        node = nodes[i]
        if node.op != "call_function":
            continue
        name = graph.op_name(i)
        if name == "aten._scaled_dot_product_flash_attention_for_cpu":
            workspace[i] = _sdpa_forward(node, threads)
        elif name == "aten._scaled_dot_product_flash_attention_for_cpu_backward":
            workspace[i] = _sdpa_backward(node, threads)
        elif name == "aten._scaled_dot_product_efficient_attention_backward":
            workspace[i] = (_cuda_attention_backward(node, 64, 64, extra_row=4.25)
                            + _expanded_bias_copy(graph, node))
        elif name == "aten._scaled_dot_product_flash_attention_backward":
            workspace[i] = _cuda_attention_backward(node, 128, 32, extra_row=4.0,
                                                    query_copies=2)
        elif name == "aten.convolution":
            convs.append(i)
            if _on_cpu(node):
                workspace[i] = _nbytes(_arg(node, 1))
        elif name == "aten.convolution_backward" and _on_cpu(node):
            workspace[i] = 2 * _nbytes(_arg(node, 2))
        elif name == "aten.mm":
            addmm[i] = _merged_add(graph, i)
    if convs and _layout_optimized(graph, convs):
        for i in convs:
            for k in (0, 1):
                src = graph.nodes[i].args[k]
                j = graph.index.get(src) if isinstance(src, fx.Node) else None
                if j is not None and graph.role[graph.base[j]] <= Role.CONSTANT:
                    val = src.meta.get("val")
                    if isinstance(val, torch.Tensor) and val.dim() == 4 and \
                            not val.is_contiguous(memory_format=torch.channels_last):
                        layout_copy[graph.base[j]] = _nbytes(val)
    return ExternMemory(workspace=workspace, layout_copy=layout_copy, addmm=addmm)


_NEVER_EXTERN = np.array([OpKind.PLACEHOLDER, OpKind.GET_ATTR, OpKind.VIEW, OpKind.POINTWISE,
                          OpKind.REDUCTION, OpKind.CAT, OpKind.GETITEM, OpKind.SYMBOLIC],
                         dtype=np.int8)


def _arg(node: fx.Node, k: int):
    a = node.args[k] if k < len(node.args) else None
    return a.meta.get("val") if isinstance(a, fx.Node) else None


def _nbytes(val) -> int:
    if not isinstance(val, torch.Tensor):
        return 0
    numel = 1
    for d in _hints(val.shape):
        numel *= max(d, 0)
    return numel * val.element_size()


def _on_cpu(node: fx.Node) -> bool:
    val = _arg(node, 0)
    return isinstance(val, torch.Tensor) and val.device.type == "cpu"


def _blocks(q, k) -> tuple[int, int, int]:
    """(query block, key block, head size) of the CPU flash-attention kernels."""
    length, keys, head = (size_hint(q.shape[2], 1), size_hint(k.shape[2], 1),
                          size_hint(q.shape[3], 1))
    q_split = next(split for start, split in _Q_SPLITS if length >= start)
    return min(q_split, length), min(_KV_SPLIT, keys), head


def _sdpa_forward(node: fx.Node, threads: int) -> int:
    q, k = _arg(node, 0), _arg(node, 1)
    if not (isinstance(q, torch.Tensor) and isinstance(k, torch.Tensor) and q.dim() == 4):
        return 0
    qs, ks, head = _blocks(q, k)
    return threads * (qs * ks + 2 * qs + qs * head) * _ACCUM_BYTES


def _sdpa_backward(node: fx.Node, threads: int) -> int:
    q, k = _arg(node, 1), _arg(node, 2)  # (grad_out, query, key, value, out, logsumexp, ...)
    if not (isinstance(q, torch.Tensor) and isinstance(k, torch.Tensor) and q.dim() == 4):
        return 0
    qs, ks, _ = _blocks(q, k)
    return threads * (2 * qs * ks + qs) * _ACCUM_BYTES


def _cuda_attention_backward(node: fx.Node, row_block: int, head_block: int,
                             extra_row: float, query_copies: int = 0) -> int:
    """The workspace of a CUDA attention backward (the table above)."""
    q = _arg(node, 1)  # (grad_out, query, key, value, ...)
    if not (isinstance(q, torch.Tensor) and q.dim() == 4):
        return 0
    batch, heads, length, head = _hints(q.shape)
    if min(batch, heads, length, head) < 0:
        return 0
    rows = batch * heads * (-(-length // row_block) * row_block)
    padded = -(-head // head_block) * head_block
    return int(rows * (_ACCUM_BYTES * padded + extra_row)) + query_copies * _nbytes(q)


def _expanded_bias_copy(graph: JointGraph, node: fx.Node) -> int:
    """The bytes Inductor's dense copy of the attention bias adds to an efficient-attention
    backward (modelled, not yet measured: see the table above). Its ``sdpa_constraint`` passes
    a bias that is a realized buffer as it is, a broadcast one (a stride of 0) included, but
    realizes an expression (a pointwise op it has not stored, as the mask a ``where`` makes
    from a boolean one, recomputed in the backward) densely at the bias's full shape, a
    ``(B, H, M, N)`` buffer where the mask is ``(B, 1, M, N)``. The walk already counts the
    pointwise value at its own size, so this is the difference, when the bias is an expansion
    of a pointwise value the graph computes (the recorded walk of hf-llama on an H200 holds
    such an 8 MiB buffer at every budget, the estimate short by 6.4-6.5 MiB there)."""
    bias = node.args[4] if len(node.args) > 4 else None
    if not isinstance(bias, fx.Node):
        return 0
    j = graph.index.get(bias)
    val = bias.meta.get("val")
    if j is None or not isinstance(val, torch.Tensor) or 0 not in _hints(val.stride()):
        return 0
    base = int(graph.base[j])
    if base == j or graph.kind[base] != OpKind.POINTWISE:  # a view of an op's value
        return 0
    return max(_nbytes(val) - _nbytes(graph.nodes[base].meta.get("val")), 0)


_SYMBOLIC, _VIEW = int(OpKind.SYMBOLIC), int(OpKind.VIEW)  # plain ints: compared per user


def _merged_add(graph: JointGraph, i: int) -> int:
    """The add Inductor merges matmul ``i`` into (``addmm``), or -1: the matmul's only user is
    an ``aten.add`` of two tensors, directly or through views that cancel (a transpose of a
    transpose: Inductor's joint-graph passes drop the pair), the other operand's shape
    expands to the matmul's and has its dtype."""
    mine = graph.nodes[i].meta.get("val")
    if not isinstance(mine, torch.Tensor):
        return -1
    at, kind = i, graph.kind
    while True:
        users = [u for u in graph.users(at).tolist() if kind[u] != _SYMBOLIC]
        if len(users) != 1:
            return -1
        j = users[0]
        if kind[j] != _VIEW:
            break
        at = j
    add = graph.nodes[j]
    if graph.op_name(j) != "aten.add" or len(add.args) != 2 or add.kwargs.get("alpha", 1) != 1:
        return -1
    seen = graph.nodes[at].meta.get("val")
    if at != i and not (isinstance(seen, torch.Tensor) and _hints(seen.shape) ==
                        _hints(mine.shape) and _hints(seen.stride()) == _hints(mine.stride())):
        return -1
    other = add.args[1] if add.args[0] is graph.nodes[at] else add.args[0]
    theirs = getattr(other, "meta", {}).get("val")
    if not isinstance(theirs, torch.Tensor):
        return -1
    if theirs.dtype != mine.dtype or not _expands(_hints(theirs.shape), _hints(mine.shape)):
        return -1
    return j


def _hints(shape) -> tuple[int, ...]:
    """Sizes at their hints: comparing symbolic sizes would add guards to the graph's shapes."""
    return tuple(size_hint(d, -1) for d in shape)


def _expands(shape: tuple, to: tuple) -> bool:
    if len(shape) > len(to):
        return False
    return all(a == 1 or a == b for a, b in zip(shape[::-1], to[::-1]))


def _layout_optimized(graph: JointGraph, convs: list[int]) -> bool:
    """Whether Inductor gives this graph's convolutions channels-last layouts (its
    ``layout_optimization`` heuristic, as far as it matters here)."""
    if not getattr(_torch_compat.inductor_config(), "layout_optimization", True):
        return False
    if all(_on_cpu(graph.nodes[i]) for i in convs) and torch.backends.mkldnn.is_available():
        return True
    return graph.num_nodes < _NODES_PER_CONV * len(convs)
