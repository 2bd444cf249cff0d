"""``capture``: a function or module's joint graph, as AOTAutograd hands it to a partitioner."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

import torch
import torch.fx as fx

from fusioncut import _torch_compat

__all__ = ["Captured", "capture"]


@dataclass
class Captured:
    """A joint graph as AOTAutograd hands it to a partitioner (a private deep copy)."""

    joint_module: fx.GraphModule
    joint_inputs: Any
    num_fwd_outputs: int
    static_lifetime_input_indices: list[int] | None
    kwargs: dict = field(default_factory=dict)
    """The partitioner's other keyword arguments (e.g. ``compiler``)."""


def capture(fn_or_module: Any, *example_inputs: Any, function: str = "capture") -> Captured:
    """Trace ``fn_or_module(*example_inputs)`` with AOTAutograd and return its joint graph.

    An ``nn.Module`` is traced with ``aot_module`` and its parameters and buffers are marked
    static-lifetime inputs (as ``torch.compile`` does): they stay alive between forward and
    backward whatever is saved. A function is traced with ``aot_function``; some input must
    require grad. Raises ``TypeError`` for anything that is neither, ``ValueError`` when there
    is no backward to partition (named after ``function``).
    """
    from functorch.compile import aot_function, aot_module, default_partition, nop

    captured: list[Captured] = []

    def record(joint_module, joint_inputs, *, num_fwd_outputs, **kwargs):
        static = kwargs.pop("static_lifetime_input_indices", None)
        with _torch_compat.no_fake_mode():  # real constants must not become fake copies
            private = copy.deepcopy(joint_module)
        captured.append(Captured(private, joint_inputs, num_fwd_outputs,
                                 list(static) if static is not None else None, kwargs))
        return default_partition(joint_module, joint_inputs, num_fwd_outputs=num_fwd_outputs,
                                 static_lifetime_input_indices=static)

    is_module = isinstance(fn_or_module, torch.nn.Module)
    if is_module:
        compiled = aot_module(fn_or_module, fw_compiler=nop, bw_compiler=nop,
                              partition_fn=record)
    elif callable(fn_or_module):
        compiled = aot_function(fn_or_module, fw_compiler=nop, bw_compiler=nop,
                                partition_fn=record)
    else:
        raise TypeError(f"{function}: fn_or_module must be an nn.Module or a callable, got "
                        f"{type(fn_or_module).__name__}")
    compiled(*example_inputs)
    if not captured:
        raise ValueError(f"{function}: AOTAutograd produced no joint graph: no input or "
                         "parameter requires grad, or no output depends on one")
    cap = captured[0]
    if is_module and not cap.static_lifetime_input_indices:
        primals = [n for n in cap.joint_module.graph.find_nodes(op="placeholder")
                   if n.name.startswith("primals_")]
        user = sum(isinstance(x, torch.Tensor) for x in
                   _torch_compat.tree_leaves(list(example_inputs)))
        cap.static_lifetime_input_indices = list(range(max(0, len(primals) - user)))
    return cap
