"""What recomputing each node in the backward costs, in seconds on a ``Device``.

Per node ``v`` (``numel``, ``bytes``: its output; ``in_bytes``: its tensor inputs together)::

    fused   (pointwise, views, getitems, cat: the op joins its consumer's kernel)
            r = numel * op_time                 op_time: pointwise_op_time, or
                                                transcendental_op_time for exp, tanh, erf, ...
    kernel  (reductions, matmuls, convolutions, layer norm and other non-fusible ops, and a
             pointwise op some backward user cannot fuse with: it is written and read back)
            r = kernel_overhead + (in_bytes + 2 * bytes) / bandwidth
                + flops / matmul_flops + numel_in * pointwise_op_time

Views, getitems, SymInt arithmetic and inputs cost nothing. ``flops`` is PyTorch's own count
(``torch.utils.flop_counter``'s formulas, evaluated on the node's meta shapes). The model is
additive per node so that the min cut can charge it exactly: node ``v`` is recomputed exactly
when its in-vertex lies on the sink side, and an auxiliary node tied to the source with an
edge into ``v`` carries ``r(v)`` (``network.add_switches``). Its limit: a fused kernel hides
some arithmetic under its memory traffic (``Device.hidden_*``); that shadow is shared by the
ops of one kernel, which an additive model cannot see, so ``op_time`` is the marginal cost of
one more op once the shadow is full and the first hidden op of each kernel is over-charged.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
import torch.fx as fx
from torch.utils import flop_counter

from fusioncut.device import Device
from fusioncut.graph import JointGraph, Value
from fusioncut.ops import OpKind, op_name
from fusioncut.policy import backward_blockers

__all__ = ["TRANSCENDENTAL_NAMES", "RecomputeModel", "flop_count", "node_flops", "recompute_model"]

TRANSCENDENTAL_NAMES = frozenset({
    "exp", "exp2", "expm1", "log", "log1p", "log2", "log10", "sin", "cos", "tan", "tanh",
    "sinh", "cosh", "asin", "acos", "atan", "atan2", "asinh", "acosh", "atanh", "erf", "erfc",
    "erfinv", "sigmoid", "pow", "softplus", "gelu", "silu", "mish", "elu", "selu", "celu",
    "lgamma", "digamma", "logit", "log_sigmoid_forward", "tanh_backward", "sigmoid_backward",
    "gelu_backward",
})
"""Pointwise ops that evaluate a transcendental function (op names without namespace)."""

_FUSED = frozenset({OpKind.POINTWISE, OpKind.CAT, OpKind.RANDOM})
_FREE = frozenset({OpKind.VIEW, OpKind.GETITEM, OpKind.SYMBOLIC, OpKind.PLACEHOLDER,
                   OpKind.GET_ATTR})


@dataclass(frozen=True)
class RecomputeModel:
    """Per-node coefficients of the recompute cost (see the module docstring)."""

    device: Device
    op_time: np.ndarray  # float64 (n,): seconds per element of the node's arithmetic
    kernel: np.ndarray  # bool (n,): recomputing launches a kernel of its own
    flops: np.ndarray  # float64 (n,): PyTorch's FLOP count at the size hints

    @property
    def costly(self) -> np.ndarray:
        """bool (n,): recomputing the node costs something at some size."""
        return (self.op_time > 0) | self.kernel

    def seconds(self, graph: JointGraph, numel: np.ndarray | None = None,
                flops: np.ndarray | None = None) -> np.ndarray:
        """float64 (n,) seconds to recompute each node, at element counts ``numel`` (default:
        the size hints) and FLOP counts ``flops`` (default: at the hints)."""
        if numel is None:
            numel = graph.numel
        if flops is None:
            flops = self.flops
        dev = self.device
        nbytes = numel.astype(np.float64) * graph.itemsize
        counted = (graph.value[graph.edge_src] == Value.TENSOR)
        in_bytes = np.bincount(graph.edge_dst[counted], weights=nbytes[graph.edge_src[counted]],
                               minlength=graph.num_nodes)
        in_numel = np.bincount(graph.edge_dst[counted],
                               weights=numel[graph.edge_src[counted]].astype(np.float64),
                               minlength=graph.num_nodes)
        fused = numel * self.op_time
        own = (dev.kernel_overhead + (in_bytes + 2.0 * nbytes) / dev.bandwidth
               + flops / dev.matmul_flops + in_numel * dev.pointwise_op_time)
        return np.where(self.kernel, own, fused)

    def byte_equivalents(self, graph: JointGraph, numel: np.ndarray | None = None,
                         flops: np.ndarray | None = None) -> np.ndarray:
        """int64 (n,): ``seconds`` as the bytes the device moves in that time (rounded), the
        unit the min cut weighs saving in."""
        r = self.seconds(graph, numel, flops) * self.device.bandwidth
        return np.minimum(np.rint(r), 2.0 ** 52).astype(np.int64)


def recompute_model(graph: JointGraph, device: Device) -> RecomputeModel:
    """The recompute costs of ``graph``'s nodes on ``device``, computed once per graph and
    device (a budget prices the runtime decision and the frontier on the same device; the FLOP
    formulas are most of the cost: 5 ms a model on ResNet-18). Its arrays are read-only."""
    cache = graph.__dict__.setdefault("_recompute_models", {})
    found = cache.get(device)
    if found is None:
        found = cache[device] = _recompute_model(graph, device)
    return found


def _recompute_model(graph: JointGraph, device: Device) -> RecomputeModel:
    n = graph.num_nodes
    kind = graph.kind
    op_time = np.zeros(n, dtype=np.float64)
    kernel = np.zeros(n, dtype=bool)
    flops = np.zeros(n, dtype=np.float64)
    blocker = backward_blockers(graph)
    nodes = graph.nodes
    counted: dict = {}  # identical layers share their FLOP count: one formula call each
    for i in range(n):
        k = int(kind[i])
        if k in _FREE:
            continue
        node = nodes[i]
        if k in _FUSED and blocker[i] < 0:
            name = op_name(node.target).rsplit(".", 1)[-1]
            op_time[i] = (device.transcendental_op_time if name in TRANSCENDENTAL_NAMES
                          else device.pointwise_op_time)
            continue
        kernel[i] = True
        if k == OpKind.COMPUTE_INTENSIVE:
            key = _shape_key(node)
            if key not in counted:
                counted[key] = node_flops(node)
            flops[i] = counted[key]
    for a in (op_time, kernel, flops):
        a.setflags(write=False)
    return RecomputeModel(device=device, op_time=op_time, kernel=kernel, flops=flops)


def _shape_key(node: fx.Node):
    """What a FLOP formula reads: the target and its arguments, tensors by shape."""

    def key(a):
        if isinstance(a, fx.Node):
            val = a.meta.get("val")
            if isinstance(val, torch.Tensor):
                shape = tuple(val.shape)
                if all(type(d) is int for d in shape):  # static: the key as it is (most)
                    return ("t", shape)
                return ("t", tuple(d if isinstance(d, int) else str(d) for d in shape))
            return ("n", a.name)
        if isinstance(a, (list, tuple)):
            return tuple(key(x) for x in a)
        return a if isinstance(a, (int, float, bool, str, type(None))) else repr(a)

    return (node.target, key(node.args), tuple(sorted((k, key(v))
                                                      for k, v in node.kwargs.items())))


def node_flops(node: fx.Node) -> float:
    """PyTorch's FLOP count of one call (its ``flop_counter`` formula on the meta shapes), 0
    when it has none. A symbolic count is evaluated at the size hints."""
    count = flop_count(node)
    if isinstance(count, torch.SymInt):
        hint = getattr(count.node, "hint", None)
        return float(hint) if hint is not None else 0.0
    return float(count)


def flop_count(node: fx.Node) -> int | torch.SymInt:
    """``flop_counter``'s formula for the node's op on its meta values: an int, or a SymInt
    expression of the shape symbols under dynamic shapes; 0 when the op has no formula."""
    packet = getattr(node.target, "overloadpacket", None)
    formula = flop_counter.flop_registry.get(packet)
    if formula is None:
        return 0
    args = fx.node.map_arg(node.args, lambda x: x.meta.get("val"))
    kwargs = fx.node.map_arg(node.kwargs, lambda x: x.meta.get("val"))
    try:
        count = formula(*args, out_val=node.meta.get("val"), **kwargs)
    except Exception:  # noqa: BLE001 (a formula that cannot read these shapes: no count)
        return 0
    return count if isinstance(count, (int, torch.SymInt)) else int(count)
