"""Building blocks shared by the zoo's transformers: RMSNorm, GeLU written out, rotary
position embeddings, and causal self-attention in its written-out and fused forms.

Every block is spelled in the ops its callers have always used, because the joint graph a
partitioner sees is made of exactly these ops: ``gelu_tanh`` is a chain of pointwise ops
(its backward is built by autograd), ``F.gelu`` is one op with a hand-written derivative.
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import nn

__all__ = ["Autocast", "RMSNorm", "activation", "apply_rotary", "causal_attention", "gelu_tanh",
           "merge_heads", "rotary_tables", "split_heads"]


class Autocast(nn.Module):
    """``model``'s forward under ``torch.autocast(device, dtype)`` (mixed-precision training:
    matmuls in ``dtype``, norms, softmax and losses in float32), its output in float32."""

    def __init__(self, model: nn.Module, device: str = "cpu",
                 dtype: torch.dtype = torch.bfloat16):
        super().__init__()
        self.model, self.device, self.dtype = model, device, dtype

    def forward(self, *inputs):
        with torch.autocast(self.device, dtype=self.dtype):
            out = self.model(*inputs)
        return out.float()


class RMSNorm(nn.Module):
    """``x / rms(x) * weight`` in pointwise ops (a hand-written RMSNorm, as nanoGPT-style and
    Llama code bases write it)."""

    def __init__(self, d: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def gelu_tanh(x: torch.Tensor) -> torch.Tensor:
    """GeLU with the tanh approximation, written out so that autograd differentiates each op
    (nanoGPT's ``new_gelu``, HF's ``NewGELUActivation``, Megatron)."""
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x.pow(3))))


ACTIVATIONS = ("gelu", "gelu_tanh", "gelu_tanh_pointwise")


def activation(name: str, x: torch.Tensor) -> torch.Tensor:
    """``gelu``: ``F.gelu`` (erf); ``gelu_tanh``: ``F.gelu(approximate="tanh")``;
    ``gelu_tanh_pointwise``: :func:`gelu_tanh`."""
    if name == "gelu":
        return F.gelu(x)
    if name == "gelu_tanh":
        return F.gelu(x, approximate="tanh")
    if name == "gelu_tanh_pointwise":
        return gelu_tanh(x)
    raise ValueError(f"activation: name = {name!r} is not one of {ACTIVATIONS}")


def split_heads(z: torch.Tensor, n_head: int) -> torch.Tensor:
    """(b, t, c) -> (b, n_head, t, c // n_head)."""
    b, t, c = z.shape
    return z.view(b, t, n_head, c // n_head).transpose(1, 2)


def merge_heads(y: torch.Tensor, how: str) -> torch.Tensor:
    """(b, h, t, d) -> (b, t, h * d): ``"view"`` copies with ``contiguous().view``,
    ``"reshape"`` lets ``reshape`` copy (a different aten op pair in the joint graph)."""
    b, h, t, d = y.shape
    y = y.transpose(1, 2)
    if how == "view":
        return y.contiguous().view(b, t, h * d)
    if how == "reshape":
        return y.reshape(b, t, h * d)
    raise ValueError(f"merge_heads: how = {how!r} is not one of ('view', 'reshape')")


def causal_attention(q, k, v, *, kind: str, mask: torch.Tensor | None = None):
    """Causal attention of (b, h, t, d) tensors.

    ``kind="written"``: ``softmax(q k^T / sqrt(d) masked) @ v`` in separate ops; the mask is
    ``mask`` (True where a score is dropped) when given, else a lower triangle built here.
    ``kind="sdpa"``: ``F.scaled_dot_product_attention(..., is_causal=True)``.
    """
    if kind == "sdpa":
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)
    if kind != "written":
        raise ValueError(f"causal_attention: kind = {kind!r} is not one of ('written', 'sdpa')")
    t = q.shape[-2]
    att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
    if mask is None:
        keep = torch.ones(t, t, dtype=torch.bool, device=q.device).tril()
        att = att.masked_fill(~keep, float("-inf"))
    else:
        att = att.masked_fill(mask if mask.shape[-1] == t else mask[:t, :t], float("-inf"))
    return att.softmax(dim=-1) @ v


def rotary_tables(seq: int, head_dim: int, theta: float = 10000.0):
    """cos and sin tables, (seq, head_dim), for :func:`apply_rotary` (RoFormer, Su et al.
    2021; the half-split layout of Llama's HF port)."""
    if head_dim % 2:
        raise ValueError(f"rotary_tables: head_dim = {head_dim} must be even")
    inv_freq = 1.0 / (theta ** (torch.arange(0, head_dim, 2, dtype=torch.float32) / head_dim))
    angles = torch.outer(torch.arange(seq, dtype=torch.float32), inv_freq)
    angles = torch.cat((angles, angles), dim=-1)
    return angles.cos(), angles.sin()


def apply_rotary(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """Rotates (b, h, t, d) queries or keys by position: ``x cos + rotate_half(x) sin``."""
    half = x.shape[-1] // 2
    rotated = torch.cat((-x[..., half:], x[..., :half]), dim=-1)
    t = x.shape[-2]
    return x * cos[:t] + rotated * sin[:t]
