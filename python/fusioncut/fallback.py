"""Falling back to PyTorch's own partitioner, loudly.

fusioncut never emits a graph it is not sure about: when the decision layer meets a construct
it does not model (a higher-order op, an unknown effectful op, ...), it calls
``fallback_partition`` with a description of the construct. That runs torch's
``min_cut_rematerialization_partition`` on the same arguments and warns with a
``FallbackWarning``:

    fusioncut: falling back to PyTorch's partitioner: the graph contains higher-order op
    torch.ops.higher_order.hints_wrapper (node 'hints_wrapper')

Filter the warning class to silence it, or turn it into an error in tests
(``warnings.simplefilter("error", fusioncut.FallbackWarning)``).
"""

from __future__ import annotations

import warnings
from typing import Any

import torch
import torch.fx as fx

from fusioncut import _torch_compat

__all__ = ["FallbackWarning", "describe_node", "fallback_partition", "unsupported_config"]


class FallbackWarning(UserWarning):
    """fusioncut handed a joint graph to PyTorch's partitioner; the message says why."""


def describe_node(kind: str, node: fx.Node) -> str:
    """``"higher-order op torch.ops.higher_order.hints_wrapper (node 'hints_wrapper')"``."""
    target = node.target
    if isinstance(target, _torch_compat.higher_order_operator_cls()):
        label = f"torch.ops.{target.namespace}.{target.name()}"
    elif isinstance(target, (_torch_compat.op_overload_cls(), _torch_compat.op_overload_packet_cls())):
        label = f"torch.ops.{target}"
    elif hasattr(target, "__module__") and hasattr(target, "__qualname__"):
        label = f"{target.__module__}.{target.__qualname__}"
    else:
        label = str(target)
    return f"{kind} {label} (node {node.name!r})"


def unsupported_config() -> str | None:
    """torch settings that change what a partitioner must emit and that fusioncut does not
    model, named for a warning; read once per call, never cached.
    (``_sync_decision_cross_ranks`` is modelled: ``ranks.py``; ``enable_activation_offloading``
    too: ``Options.offload``; activation quantization too: ``quantization.py``.)"""
    if _torch_compat.activation_quantization_enabled() and \
            _torch_compat.quantization_rule() is None:
        return (f"activation quantization (post_grad_fusion_options), whose rules torch "
                f"{torch.__version__} does not expose")
    return None


def fallback_partition(
    reason: str,
    joint_module: fx.GraphModule,
    joint_inputs: Any,
    *,
    num_fwd_outputs: int,
    static_lifetime_input_indices: list[int] | None = None,
    stacklevel: int = 2,
    **kwargs: Any,
) -> tuple[fx.GraphModule, fx.GraphModule]:
    """Partition with torch's ``min_cut_rematerialization_partition`` and warn naming ``reason``.

    ``reason`` completes the sentence "the graph contains ..." or is any short explanation.
    Extra ``kwargs`` (e.g. ``compiler="inductor"`` from Inductor) are passed through.
    """
    warnings.warn(
        f"fusioncut: falling back to PyTorch's partitioner: {reason}",
        FallbackWarning,
        stacklevel=stacklevel,
    )
    partition = _torch_compat.min_cut_rematerialization_partition()
    return partition(
        joint_module,
        joint_inputs,
        num_fwd_outputs=num_fwd_outputs,
        static_lifetime_input_indices=static_lifetime_input_indices,
        **kwargs,
    )
