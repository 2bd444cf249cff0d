"""The test suite's models (re-exported from ``fusioncut.models``), joint-graph captures and
the few helpers several test files share.

``GPT``/``GPTConfig`` are the zoo's GPT with its default style, the one the tests have always
traced (LayerNorm, F.gelu, biases, written-out attention, tied head, dropout after the MLP).
"""

from __future__ import annotations

import copy
import functools
import os
import subprocess
import sys
from dataclasses import dataclass

import torch
from functorch.compile import make_boxed_func

import fusioncut
from fusioncut.models import (  # noqa: F401  (re-exported for the tests)
    GPT, MLP, Autocast, ConvBN, DropoutMLP, EvoNormS0, GPTConfig, InPlace, LSTMUnrolled,
    MultiOutput, NoBackwardWork, gpt_config, gpt_inputs,
)
from fusioncut.options import Options
from fusioncut.report import capture


@dataclass
class Captured:
    """A joint graph as AOTAutograd hands it to a partitioner."""

    joint_module: torch.fx.GraphModule
    joint_inputs: object
    num_fwd_outputs: int
    static_lifetime_input_indices: list | None
    kwargs: dict


def boxed(gm, _example_inputs):
    """An AOTAutograd compiler that runs the graph as it is (boxed calling convention)."""
    return make_boxed_func(gm)


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


@functools.lru_cache(maxsize=None)
def small_gpt(layers: int = 2, style: str = "demo"):
    """The zoo GPT at test size (d 32, 2 heads, 16 tokens, vocab 64, batch 2) captured through
    AOTAutograd, once per (layers, style). Shared between tests: ``decide``/``pareto`` only
    read it; copy the joint module before partitioning it."""
    cfg = gpt_config(style, n_layer=layers, d_model=32, n_head=2, block_size=16, vocab=64)
    torch.manual_seed(0)
    return capture(GPT(cfg), *gpt_inputs(cfg, batch=2), via="aot")


def _captured_kwargs(cap, options: dict) -> dict:
    return dict(num_fwd_outputs=cap.num_fwd_outputs,
                static_lifetime_input_indices=cap.static_lifetime_input_indices,
                options=Options(**options))


def decide_captured(cap, **options):
    """``fusioncut.decide`` on a capture, with ``Options(**options)``."""
    return fusioncut.decide(cap.joint_module, **_captured_kwargs(cap, options))


def pareto_captured(cap, **options):
    """``fusioncut.pareto`` on a capture, with ``Options(**options)``."""
    return fusioncut.pareto(cap.joint_module, **_captured_kwargs(cap, options))


def tagged_copy(gm: torch.fx.GraphModule, name: str, tag) -> torch.fx.GraphModule:
    """A copy of ``gm`` whose node ``name`` asks to be offloaded (``tag == "mark"``: torch's
    ``meta["should_offload"]``) or carries the checkpoint policy ``tag``."""
    gm = copy.deepcopy(gm)
    node = next(n for n in gm.graph.nodes if n.name == name)
    if tag == "mark":
        node.meta["should_offload"] = True
    else:
        node.meta["recompute"] = tag
    return gm


def last_lines_across_processes(code: str, seeds=("0", "4242")) -> set[str]:
    """The last line ``code`` prints, run in a fresh interpreter per PYTHONHASHSEED: one
    element when the result does not depend on the process."""
    results = set()
    for seed in seeds:
        env = dict(os.environ, PYTHONHASHSEED=seed)
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                             text=True, check=True)
        results.add(out.stdout.strip().splitlines()[-1])
    return results


# --- a small MLP whose saved activations set the backward's peak (the offload tests) --------


def offload_mlp(x, w1, w2):
    """Six layers: the saved activations, not the gradients, set the backward's peak, so that
    plans holding less on the device peak lower (with three, none does)."""
    h = x
    for k in range(6):
        h = torch.mm(h, w1 if k % 2 == 0 else w2)
        h = h.relu() if k % 3 == 0 else (h.sin() if k % 3 == 1 else h.tanh())
    return (h * h).sum()


class OffloadMlp(torch.nn.Module):
    """``offload_mlp`` with its two weights as parameters (for ``explain``, which takes a
    module); inputs ``torch.randn(512, 32)``."""

    def __init__(self):
        super().__init__()
        self.w1 = torch.nn.Parameter(torch.randn(32, 32))
        self.w2 = torch.nn.Parameter(torch.randn(32, 32))

    def forward(self, x):
        return offload_mlp(x, self.w1, self.w2)
