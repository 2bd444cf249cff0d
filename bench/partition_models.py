"""The models of the end-to-end partition benchmark (bench_partition.py).

Each entry builds ``(module, inputs)`` from a seed; the benchmark traces it once with
AOTAutograd (``fusioncut.explain.capture``) and partitions the joint graph many times. Only the
graph's structure and its tensor sizes matter to a partitioner, so the sizes are small enough
to trace in seconds on two CPU cores. The models are ``fusioncut.models``:

    gpt12, gpt48   fusioncut.demo's DemoGPT (the zoo GPT, demo style: no biases, no dropout,
                   RMSNorm and tanh-GeLU in pointwise ops); 48 layers give ~9.4k nodes
    transformer    a stack of nn.TransformerEncoderLayer (no dropout)
    resnet         the training benchmark's ResNet at its "cpu" size (basic blocks,
                   BatchNorm in train mode)
    evonorm        the training benchmark's EvoNorm-S0 ("evonorm_a", "cpu" size)
    mlp            MLP (GeLU * sigmoid between Linears)
    cos_cos, tanh_tanh, gelu, dropout_mask
                   the seed patterns, at the training benchmark's "cpu" size

``QUICK`` is what ``--quick`` runs; ``SEEDS`` the seed patterns alone (the smoke test).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Callable

import torch
from torch import nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "train"))

import train_models  # noqa: E402  (bench/train: the workloads' sizes)

from fusioncut.demo import DemoConfig, DemoGPT, demo_inputs  # noqa: E402
from fusioncut.models import MLP, transformer_encoder  # noqa: E402


@dataclass(frozen=True)
class BenchModel:
    name: str
    description: str
    build: Callable[[int], tuple[nn.Module, tuple]]  # seed -> (module, inputs)
    random: bool = False  # the forward draws random numbers


def _gpt(layers: int):
    def build(seed):
        cfg = DemoConfig(n_layer=layers)
        torch.manual_seed(seed)
        return DemoGPT(cfg), demo_inputs(cfg, seed)

    return build


# d_model, heads, feed-forward, layers, batch, sequence
_TRANSFORMER = (128, 4, 512, 4, 4, 64)


def _transformer(seed):
    d, h, ff, layers, b, t = _TRANSFORMER
    torch.manual_seed(seed)
    stack = transformer_encoder(d, h, ff, layers)
    g = torch.Generator().manual_seed(seed)
    return stack, (torch.randn(b, t, d, generator=g, requires_grad=True),)


def _mlp(seed):
    torch.manual_seed(seed)
    g = torch.Generator().manual_seed(seed)
    return (MLP(d_in=256, d_hidden=1024, d_out=256, depth=4),
            (torch.randn(64, 256, generator=g, requires_grad=True),))


def _workload(name: str):
    """A bench/train workload at its "cpu" size."""

    def build(seed):
        return train_models.WORKLOADS[name].build("cpu", "cpu", seed=seed)

    return build


MODELS: dict[str, BenchModel] = {
    m.name: m
    for m in (
        BenchModel("gpt12", "DemoGPT, 12 layers (d 64, 4 heads, 4x64 tokens)", _gpt(12)),
        BenchModel("gpt48", "DemoGPT, 48 layers (d 64, 4 heads, 4x64 tokens)", _gpt(48)),
        BenchModel("transformer", "4 x nn.TransformerEncoderLayer (d 128, 4 heads, ff 512), "
                   "4x64 tokens", _transformer),
        BenchModel("resnet", "ResNet, 4 basic blocks (16-128 channels), BatchNorm train mode, "
                   "8x3x32x32", _workload("resnet")),
        BenchModel("evonorm", "EvoNorm-S0 on 8x32x32x32", _workload("evonorm_a")),
        BenchModel("mlp", "MLP 256-1024-1024-1024-256, GeLU*sigmoid, batch 64", _mlp),
        BenchModel("cos_cos", "(a+b+c+d).cos().cos(), 64x16384", _workload("cos_cos")),
        BenchModel("tanh_tanh", "x.tanh().tanh(), 64x16384", _workload("tanh_tanh")),
        BenchModel("gelu", "GeLU (tanh approximation) in pointwise ops, 64x16384",
                   _workload("gelu")),
        BenchModel("dropout_mask", "x * x * (rand_like(x) < 0.5), 64x16384",
                   _workload("dropout_mask"), random=True),
    )
}

SEEDS = ["cos_cos", "tanh_tanh", "gelu", "dropout_mask"]
QUICK = ["gpt12", *SEEDS]
