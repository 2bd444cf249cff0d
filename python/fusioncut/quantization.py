"""Activation quantization: what Inductor's ``activation_quantization_aten_pass`` will store
in a narrower dtype, and what saving such a value then costs.

When ``torch._inductor.config.post_grad_fusion_options["activation_quantization_aten_pass"]``
is set, torch's graph extraction (``_extract_fwd_bwd_modules``) quantizes the saved values its
``should_quantize`` accepts (dtype among ``allowed_dtypes``, at least ``size_in_mb``; static
inputs never, primals not with ``exclude_primals``): the forward returns a ``quant_type``
copy (float8_e5m2 by default) plus, with ``use_scaling`` (the default), a float32 scale per
row (the last dimension reduced), and the backward dequantizes it. fusioncut lets that pass
run (its emission goes through torch's extraction then) and prices the saved value at what
actually crosses::

    quantized[i]        torch's should_quantize(node i), static inputs and excluded primals out
    saved bytes of i    numel * itemsize(quant_type) + (numel / last dim) * 4 [use_scaling]
                        for a quantized value, numel * itemsize otherwise

The rule is torch's own function, called on the joint graph's node, so the set marked here is
the set torch's pass quantizes when the value is saved.
"""

from __future__ import annotations

import numpy as np

from fusioncut import _torch_compat
from fusioncut.graph import JointGraph, Role, Value

__all__ = ["quantized", "saved_nbytes"]

_SCALE_BYTES = 4  # float32, one per row


def quantized(graph: JointGraph, static_inputs: np.ndarray) -> np.ndarray | None:
    """bool (n,): the values torch's pass would quantize if they were saved; None when the
    pass is not configured."""
    options = _torch_compat.activation_quantization_options()
    rule = _torch_compat.quantization_rule() if options is not None else None
    if rule is None:
        return None
    should_quantize, _ = rule
    exclude_primals = bool(options.get("exclude_primals", False))
    out = np.zeros(graph.num_nodes, dtype=bool)
    candidates = (graph.value == Value.TENSOR) & ~static_inputs & (
        (graph.role == Role.FORWARD) | (graph.role == Role.PRIMAL)
        | (graph.role == Role.UNCLAIMED))
    for i in np.flatnonzero(candidates).tolist():
        node = graph.nodes[i]
        if exclude_primals and "primals" in node.name:
            continue
        out[i] = bool(should_quantize(node))
    return out


def saved_nbytes(graph: JointGraph, mask: np.ndarray | None) -> np.ndarray:
    """Bytes a saved value moves between the passes: ``graph.nbytes``, with each quantized
    value at its quantized size and its scales."""
    nbytes = graph.nbytes
    if mask is None or not mask.any():
        return nbytes
    options = _torch_compat.activation_quantization_options() or {}
    _, quant_dtype = _torch_compat.quantization_rule()
    nbytes = nbytes.copy()
    for i in np.flatnonzero(mask).tolist():
        numel = int(graph.numel[i])
        size = numel * quant_dtype.itemsize
        if options.get("use_scaling", True):
            shape = graph.nodes[i].meta["val"].shape
            last = int(shape[-1]) if len(shape) and isinstance(shape[-1], int) else 1
            size += (numel // max(last, 1)) * _SCALE_BYTES
        nbytes[i] = size
    return nbytes
