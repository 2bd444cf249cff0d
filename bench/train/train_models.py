"""The workloads of the training-step benchmark: which zoo model, at which size.

The models are ``fusioncut.models``; this file picks their sizes. Every workload's ``forward``
returns one tensor and is built from a seed at one of three sizes:

    tiny  - seconds on CPU; the smoke test's size
    cpu   - Inductor's C++ backend on a few cores; the whole suite takes ~10 minutes on 2 cores
    gpu   - the sizes of the seeds (EvoNorm-S0 at the write-up's (128, 32, 128, 128) and
            (128, 2048, 8, 8), GeLU on 2**25 elements), GPT-2 small and medium, a Llama-like
            model at sequence 2048, ResNet-18 and ResNet-50 layouts

``Workload.build(size, device, batch=None, seed=0)`` returns ``(module, inputs)``; ``batch``
overrides the leading (batch) dimension, which the largest-batch search uses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import torch
from torch import nn

from fusioncut.models import (
    GPT, CosCos, DropoutLike, EvoNormS0, GeLU, Llama, LlamaConfig, ResNet, TanhTanh,
    dropout_like_grads, gpt_config, transformer_encoder,
)

SIZES = ("tiny", "cpu", "gpu")


@dataclass(frozen=True)
class Workload:
    """One benchmark model. ``random``: the forward draws random numbers, so its gradients are
    checked against ``oracle`` (exact gradients from the step's own inputs, output and output
    gradient) or, without one, in a compile with Inductor's ``fallback_random``.
    ``batch_coupled``: samples of a batch interact (BatchNorm in train mode), so a step's
    gradients cannot be accumulated over slices of the batch."""

    name: str
    description: str
    make: Callable[[str, torch.device, int | None, torch.Generator], tuple[nn.Module, tuple]]
    random: bool = False
    oracle: Callable[[tuple, torch.Tensor, torch.Tensor], list[torch.Tensor]] | None = None
    batch_coupled: bool = False

    def build(self, size: str, device: str | torch.device, batch: int | None = None,
              seed: int = 0):
        if size not in SIZES:
            raise ValueError(f"Workload.build: size = {size!r} is not one of {SIZES}")
        if batch is not None and batch < 1:
            raise ValueError(f"Workload.build: batch = {batch} must be >= 1")
        gen = torch.Generator().manual_seed(seed)
        torch.manual_seed(seed)  # module initialisers draw from the global generator
        module, inputs = self.make(size, torch.device(device), batch, gen)
        return module.to(device), inputs


def _randn(shape, gen, device, requires_grad=True):
    return torch.randn(shape, generator=gen).to(device).requires_grad_(requires_grad)


# (batch, features): 2**25 elements on GPU as in the paper's table 1, 2**20 on CPU.
_POINTWISE_SHAPE = {"tiny": (4, 256), "cpu": (64, 16384), "gpu": (1024, 32768)}


def _pointwise(module_cls, n_inputs):
    def make(size, device, batch, gen):
        b, f = _POINTWISE_SHAPE[size]
        return module_cls(), tuple(_randn((batch or b, f), gen, device) for _ in range(n_inputs))

    return make


_EVONORM_SHAPE = {
    "a": {"tiny": (2, 32, 4, 4), "cpu": (8, 32, 32, 32), "gpu": (128, 32, 128, 128)},
    "b": {"tiny": (2, 64, 2, 2), "cpu": (16, 512, 8, 8), "gpu": (128, 2048, 8, 8)},
}


def _evonorm(variant):
    def make(size, device, batch, gen):
        b, c, h, w = _EVONORM_SHAPE[variant][size]
        return EvoNormS0(c, groups=32), (_randn((batch or b, c, h, w), gen, device),)

    return make


# d_model, heads, ffn, batch, seq
_TRANSFORMER = {"tiny": (32, 2, 64, 2, 8), "cpu": (128, 4, 512, 4, 64),
                "gpu": (512, 8, 2048, 64, 512)}


def _transformer(size, device, batch, gen):
    d, h, ff, b, t = _TRANSFORMER[size]
    return transformer_encoder(d, h, ff, 1), (_randn((batch or b, t, d), gen, device),)


# layers, d, heads, vocab, batch, seq
_GPT2 = {
    "gpt2": {"tiny": (1, 32, 2, 64, 2, 8), "cpu": (2, 128, 4, 2048, 4, 64),
             "gpu": (12, 768, 12, 50257, 8, 1024)},
    "gpt2_medium": {"tiny": (2, 32, 2, 64, 2, 8), "cpu": (4, 128, 4, 2048, 4, 64),
                    "gpu": (24, 1024, 16, 50257, 8, 1024)},
}


def _gpt2(variant):
    def make(size, device, batch, gen):
        n, d, h, v, b, t = _GPT2[variant][size]
        idx = torch.randint(0, v, (batch or b, t), generator=gen).to(device)
        cfg = gpt_config("gpt2", n_layer=n, d_model=d, n_head=h, vocab=v, block_size=t)
        return GPT(cfg), (idx,)

    return make


# layers, d, heads, vocab, batch, seq (ffn hidden: 8/3 d rounded up to a multiple of 32)
_LLAMA = {"tiny": (1, 32, 2, 64, 2, 16), "cpu": (2, 128, 4, 2048, 2, 128),
          "gpu": (12, 1024, 16, 32000, 8, 2048)}


def _llama(size, device, batch, gen):
    n, d, h, v, b, t = _LLAMA[size]
    idx = torch.randint(0, v, (batch or b, t), generator=gen).to(device)
    cfg = LlamaConfig(vocab=v, block_size=t, d_model=d, n_head=h, n_layer=n)
    return Llama(cfg), (idx,)


# block, layers, widths, imagenet stem, classes, batch, image side
_RESNET = {
    "resnet": {
        "tiny": ("basic", (1, 1), (8, 16), False, 10, 2, 8),
        "cpu": ("basic", (1, 1, 1, 1), (16, 32, 64, 128), False, 10, 8, 32),
        "gpu": ("basic", (2, 2, 2, 2), (64, 128, 256, 512), True, 1000, 64, 224),
    },
    "resnet50": {
        "tiny": ("bottleneck", (1, 1), (4, 8), False, 10, 2, 8),
        "cpu": ("bottleneck", (1, 1, 1, 1), (8, 16, 32, 64), False, 10, 8, 32),
        "gpu": ("bottleneck", (3, 4, 6, 3), (64, 128, 256, 512), True, 1000, 64, 224),
    },
}


def _resnet(variant):
    def make(size, device, batch, gen):
        block, layers, widths, stem, classes, b, side = _RESNET[variant][size]
        model = ResNet(layers, widths, num_classes=classes, imagenet_stem=stem, block=block)
        return model, (_randn((batch or b, 3, side, side), gen, device),)

    return make


WORKLOADS: dict[str, Workload] = {
    w.name: w
    for w in (
        Workload("cos_cos", "(a+b+c+d).cos().cos()", _pointwise(CosCos, 4)),
        Workload("dropout_mask", "x * x * (rand_like(x) < 0.5)", _pointwise(DropoutLike, 1),
                 random=True, oracle=dropout_like_grads),
        Workload("tanh_tanh", "x.tanh().tanh()", _pointwise(TanhTanh, 1)),
        Workload("gelu", "GeLU, tanh approximation written out", _pointwise(GeLU, 1)),
        Workload("evonorm_a", "EvoNorm-S0, write-up size (128, 32, 128, 128)", _evonorm("a")),
        Workload("evonorm_b", "EvoNorm-S0, write-up size (128, 2048, 8, 8)", _evonorm("b")),
        Workload("transformer", "nn.TransformerEncoderLayer, no dropout", _transformer),
        Workload("gpt2", "GPT-2 (small on GPU), no dropout, tied LM head", _gpt2("gpt2")),
        Workload("gpt2_medium", "GPT-2 medium on GPU (24 layers, d 1024, 16 heads)",
                 _gpt2("gpt2_medium")),
        Workload("llama", "Llama-like: RMSNorm, SwiGLU, rotary, SDPA, untied head "
                 "(GPU: 12 layers, d 1024, sequence 2048)", _llama),
        Workload("resnet", "ResNet, basic blocks (ResNet-18 on GPU), BatchNorm in train mode",
                 _resnet("resnet"), batch_coupled=True),
        Workload("resnet50", "ResNet, bottleneck blocks (ResNet-50 on GPU), BatchNorm in "
                 "train mode", _resnet("resnet50"), batch_coupled=True),
    )
}

