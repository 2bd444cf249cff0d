"""The workloads of the training-step benchmark (issue #6).

Every workload is an ``nn.Module`` whose ``forward`` returns one tensor, built from a seed, at
one of three sizes:

    tiny  - seconds on CPU; the smoke test's size
    cpu   - Inductor's C++ backend on a few cores; the suite fits in ~10 minutes on 2 cores
    gpu   - the sizes of the seeds (EvoNorm-S0 at the write-up's (128, 32, 128, 128) and
            (128, 2048, 8, 8), GeLU on 2**25 elements, GPT-2 small, a ResNet-18 layout)

``Workload.build(size, device, batch=None)`` returns ``(module, inputs)``. ``batch`` overrides
the leading (batch) dimension; the GPU largest-batch search uses it.

The seed patterns come from the write-up (000) and the paper (004): ``(a+b+c+d).cos().cos()``,
the dropout-like ``x * x * (rand_like(x) < 0.5)``, ``x.tanh().tanh()`` and GeLU written out
with the tanh approximation (as Megatron, HF's ``NewGELUActivation`` and the paper's hf_Albert
do) so that its backward is built by autograd from pointwise ops, not by a hand-written
derivative. The ResNet and GPT-2 are written here: torchvision and transformers are not used.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import torch
import torch.nn.functional as F
from torch import nn

SIZES = ("tiny", "cpu", "gpu")


# --- the seed patterns -----------------------------------------------------------------------


class CosCos(nn.Module):
    """``(a+b+c+d).cos().cos()``: the optimal cut saves only ``a+b+c+d`` (001, 004 sec. 2.3)."""

    def forward(self, a, b, c, d):
        return (a + b + c + d).cos().cos()


class DropoutLike(nn.Module):
    """``x * x * (rand_like(x) < 0.5)``: ``rand_like`` must not be recomputed; saving the bool
    mask instead of the float random tensor is the win (000)."""

    def forward(self, x):
        return x * x * (torch.rand_like(x) < 0.5)


def dropout_like_grads(inputs, out, grad_out):
    """d/dx of x * x * mask is 2 * x * mask, and the mask is where the output is non-zero
    (x is Gaussian, so x == 0 has probability zero)."""
    (x,) = inputs
    return [grad_out * 2 * x.detach() * (out.detach() != 0)]


class TanhTanh(nn.Module):
    """``x.tanh().tanh()``: saving only ``x`` and recomputing both tanh is optimal (004 fig. 1)."""

    def forward(self, x):
        return x.tanh().tanh()


def gelu_tanh(x: torch.Tensor) -> torch.Tensor:
    """GeLU with the tanh approximation, written out so autograd differentiates each op."""
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x.pow(3))))


class GeLU(nn.Module):
    """GeLU written out (004 table 1): without recomputation the forward writes ~5 tensors."""

    def forward(self, x):
        return gelu_tanh(x)


# --- EvoNorm-S0 ------------------------------------------------------------------------------


class EvoNormS0(nn.Module):
    """EvoNorm-S0 (Liu et al. 2020; timm's ``EvoNorm2dS0``), the write-up's EvoNorm benchmark:
    ``y = x * sigmoid(v * x) / group_std(x) * weight + bias``."""

    def __init__(self, channels: int, groups: int = 32, eps: float = 1e-5):
        super().__init__()
        self.groups = min(groups, channels)
        self.eps = eps
        self.v = nn.Parameter(torch.ones(1, channels, 1, 1))
        self.weight = nn.Parameter(torch.ones(1, channels, 1, 1))
        self.bias = nn.Parameter(torch.zeros(1, channels, 1, 1))

    def forward(self, x):
        b, c, h, w = x.shape
        g = x.reshape(b, self.groups, c // self.groups, h, w)
        var = g.var(dim=(2, 3, 4), unbiased=False, keepdim=True)
        std = (var + self.eps).sqrt().expand_as(g).reshape(b, c, h, w)
        return x * torch.sigmoid(self.v * x) / std * self.weight + self.bias


# --- ResNet (BasicBlock) ---------------------------------------------------------------------


class BasicBlock(nn.Module):
    def __init__(self, cin: int, cout: int, stride: int):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.down = None
        if stride != 1 or cin != cout:
            self.down = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        y = F.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return F.relu(y + (x if self.down is None else self.down(x)))


class ResNet(nn.Module):
    """ResNet with basic blocks (He et al. 2016). ``imagenet_stem`` selects the 7x7/2 conv plus
    max-pool stem of ResNet-18; otherwise the 3x3 CIFAR stem."""

    def __init__(self, layers, widths, num_classes: int, imagenet_stem: bool):
        super().__init__()
        w0 = widths[0]
        if imagenet_stem:
            self.stem = nn.Sequential(
                nn.Conv2d(3, w0, 7, 2, 3, bias=False), nn.BatchNorm2d(w0), nn.ReLU(), nn.MaxPool2d(3, 2, 1)
            )
        else:
            self.stem = nn.Sequential(nn.Conv2d(3, w0, 3, 1, 1, bias=False), nn.BatchNorm2d(w0), nn.ReLU())
        blocks, cin = [], w0
        for i, (n, w) in enumerate(zip(layers, widths)):
            for j in range(n):
                blocks.append(BasicBlock(cin, w, 2 if (j == 0 and i > 0) else 1))
                cin = w
        self.blocks = nn.Sequential(*blocks)
        self.fc = nn.Linear(cin, num_classes)

    def forward(self, x):
        x = self.blocks(self.stem(x))
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))


# --- GPT-2 -----------------------------------------------------------------------------------


class GPT2Block(nn.Module):
    def __init__(self, d: int, heads: int):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.fc = nn.Linear(d, 4 * d)
        self.fc_out = nn.Linear(4 * d, d)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=2)
        q, k, v = (z.view(b, t, self.heads, d // self.heads).transpose(1, 2) for z in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(y.transpose(1, 2).reshape(b, t, d))
        return x + self.fc_out(gelu_tanh(self.fc(self.ln2(x))))


class GPT2(nn.Module):
    """GPT-2 (Radford et al. 2019) without dropout: learned positions, pre-LN blocks, GeLU
    written out as HF's ``NewGELUActivation``, final LayerNorm, LM head tied to the token
    embedding. GPT-2 small is ``layers=12, d=768, heads=12, vocab=50257``."""

    def __init__(self, layers: int, d: int, heads: int, vocab: int, max_len: int):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.wpe = nn.Embedding(max_len, d)
        self.blocks = nn.ModuleList(GPT2Block(d, heads) for _ in range(layers))
        self.ln_f = nn.LayerNorm(d)
        for m in self.modules():
            if isinstance(m, (nn.Linear, nn.Embedding)):
                nn.init.normal_(m.weight, std=0.02)

    def forward(self, idx):
        pos = torch.arange(idx.shape[1], device=idx.device)
        x = self.wte(idx) + self.wpe(pos)
        for blk in self.blocks:
            x = blk(x)
        return F.linear(self.ln_f(x), self.wte.weight)


# --- the registry ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Workload:
    """One benchmark model. ``random``: the forward draws random numbers, so the gradient check
    needs Inductor's ``fallback_random`` to reproduce eager's stream."""

    name: str
    description: str
    make: Callable[[str, torch.device, int | None, torch.Generator], tuple[nn.Module, tuple]]
    random: bool = False
    # For random workloads: expected input gradients from (inputs, output, grad_out) of the
    # same step, so the gradients of the compile being timed can be checked exactly even
    # though its random numbers differ from eager's.
    oracle: Callable[[tuple, torch.Tensor, torch.Tensor], list[torch.Tensor]] | None = None

    def build(self, size: str, device: str | torch.device, batch: int | None = None, seed: int = 0):
        if size not in SIZES:
            raise ValueError(f"Workload.build: size = {size!r} is not one of {SIZES}")
        gen = torch.Generator().manual_seed(seed)
        torch.manual_seed(seed)  # module initialisers draw from the global generator
        module, inputs = self.make(size, torch.device(device), batch, gen)
        return module.to(device), inputs


def _randn(shape, gen, device, requires_grad=True):
    return torch.randn(shape, generator=gen).to(device).requires_grad_(requires_grad)


# (batch, features): 2**25 elements on GPU as in 004 table 1, 2**20 on CPU.
_POINTWISE_SHAPE = {"tiny": (4, 256), "cpu": (64, 16384), "gpu": (1024, 32768)}


def _pointwise(module_cls, n_inputs):
    def make(size, device, batch, gen):
        b, f = _POINTWISE_SHAPE[size]
        shape = (batch or b, f)
        return module_cls(), tuple(_randn(shape, gen, device) for _ in range(n_inputs))

    return make


_EVONORM_SHAPE = {
    "a": {"tiny": (2, 32, 4, 4), "cpu": (8, 32, 32, 32), "gpu": (128, 32, 128, 128)},
    "b": {"tiny": (2, 64, 2, 2), "cpu": (16, 512, 8, 8), "gpu": (128, 2048, 8, 8)},
}


def _evonorm(variant):
    def make(size, device, batch, gen):
        b, c, h, w = _EVONORM_SHAPE[variant][size]
        return EvoNormS0(c), (_randn((batch or b, c, h, w), gen, device),)

    return make


# d_model, heads, ffn, batch, seq
_TRANSFORMER = {"tiny": (32, 2, 64, 2, 8), "cpu": (128, 4, 512, 4, 64), "gpu": (512, 8, 2048, 64, 512)}


def _transformer(size, device, batch, gen):
    d, h, ff, b, t = _TRANSFORMER[size]
    layer = nn.TransformerEncoderLayer(d, h, ff, dropout=0.0, batch_first=True)
    return layer, (_randn((batch or b, t, d), gen, device),)


# layers, d, heads, vocab, batch, seq
_GPT2 = {"tiny": (1, 32, 2, 64, 2, 8), "cpu": (2, 128, 4, 2048, 4, 64), "gpu": (12, 768, 12, 50257, 8, 1024)}


def _gpt2(size, device, batch, gen):
    n, d, h, v, b, t = _GPT2[size]
    idx = torch.randint(0, v, (batch or b, t), generator=gen).to(device)
    return GPT2(n, d, h, v, t), (idx,)


# layers, widths, imagenet stem, batch, image side
_RESNET = {
    "tiny": ((1, 1), (8, 16), False, 2, 8),
    "cpu": ((1, 1, 1, 1), (16, 32, 64, 128), False, 8, 32),
    "gpu": ((2, 2, 2, 2), (64, 128, 256, 512), True, 64, 224),
}


def _resnet(size, device, batch, gen):
    layers, widths, stem, b, side = _RESNET[size]
    model = ResNet(layers, widths, num_classes=10 if size != "gpu" else 1000, imagenet_stem=stem)
    return model, (_randn((batch or b, 3, side, side), gen, device),)


WORKLOADS: dict[str, Workload] = {
    w.name: w
    for w in (
        Workload("cos_cos", "(a+b+c+d).cos().cos()", _pointwise(CosCos, 4)),
        Workload("dropout_mask", "x * x * (rand_like(x) < 0.5)", _pointwise(DropoutLike, 1), random=True,
                 oracle=dropout_like_grads),
        Workload("tanh_tanh", "x.tanh().tanh()", _pointwise(TanhTanh, 1)),
        Workload("gelu", "GeLU, tanh approximation written out", _pointwise(GeLU, 1)),
        Workload("evonorm_a", "EvoNorm-S0, write-up size (128, 32, 128, 128)", _evonorm("a")),
        Workload("evonorm_b", "EvoNorm-S0, write-up size (128, 2048, 8, 8)", _evonorm("b")),
        Workload("transformer", "nn.TransformerEncoderLayer, no dropout", _transformer),
        Workload("gpt2", "GPT-2 (small on GPU), no dropout, tied LM head", _gpt2),
        Workload("resnet", "ResNet with basic blocks (ResNet-18 layout on GPU), BatchNorm in train mode", _resnet),
    )
}
