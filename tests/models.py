"""The test suite's models (re-exported from ``fusioncut.models``) and a joint-graph capture.

``GPT``/``GPTConfig`` are the zoo's GPT with its default style, the one the tests have always
traced (LayerNorm, F.gelu, biases, written-out attention, tied head, dropout after the MLP).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

import torch

from fusioncut.models import (  # noqa: F401  (re-exported for the tests)
    GPT, MLP, ConvBN, DropoutMLP, EvoNormS0, GPTConfig, InPlace, LSTMUnrolled, MultiOutput,
    NoBackwardWork, gpt_inputs,
)


@dataclass
class Captured:
    """A joint graph as AOTAutograd hands it to a partitioner."""

    joint_module: torch.fx.GraphModule
    joint_inputs: object
    num_fwd_outputs: int
    static_lifetime_input_indices: list | None
    kwargs: dict


def capture_joint(fn, *args, module=None):
    """Run ``aot_function``/``aot_module`` once with a recording partitioner.

    Returns a ``Captured`` holding a deep copy of the joint graph module (partitioners may
    mutate the one they are handed).
    """
    from functorch.compile import aot_function, aot_module, default_partition, nop

    captured: list[Captured] = []

    def record(joint_module, joint_inputs, *, num_fwd_outputs, **kwargs):
        static = kwargs.pop("static_lifetime_input_indices", None)
        captured.append(
            Captured(copy.deepcopy(joint_module), joint_inputs, num_fwd_outputs, static, kwargs)
        )
        return default_partition(
            joint_module, joint_inputs, num_fwd_outputs=num_fwd_outputs,
            static_lifetime_input_indices=static,
        )

    if module is not None:
        compiled = aot_module(module, fw_compiler=nop, bw_compiler=nop, partition_fn=record)
    else:
        compiled = aot_function(fn, fw_compiler=nop, bw_compiler=nop, partition_fn=record)
    compiled(*args)
    if len(captured) != 1:
        raise RuntimeError(f"capture_joint: expected one joint graph, got {len(captured)}")
    return captured[0]
