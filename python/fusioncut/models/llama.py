"""A Llama-like decoder (Touvron et al. 2023): RMSNorm, SwiGLU MLP, rotary position
embeddings, causal attention, no biases, untied (or tied) head::

    idx ─ embed ─ n_layer x [ x + o(attn(rope(q), rope(k), v)(norm(x)));
                              x + w2(silu(w1 norm(x)) * w3 norm(x)) ] ─ norm ─ head

The rotary tables are buffers (not parameters, not saved in a state dict). Attention is
``scaled_dot_product_attention`` by default or written out (``attention="written"``).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

from fusioncut.models.layers import (
    RMSNorm, apply_rotary, causal_attention, merge_heads, rotary_tables, split_heads,
)

__all__ = ["Llama", "LlamaConfig", "llama_inputs"]


@dataclass(frozen=True)
class LlamaConfig:
    vocab: int = 256
    block_size: int = 64
    d_model: int = 64
    n_head: int = 4
    n_layer: int = 2
    ffn_hidden: int | None = None  # None: 8/3 d_model rounded up to a multiple of 32
    norm_eps: float = 1e-5
    rope_theta: float = 10000.0
    tie_head: bool = False
    attention: str = "sdpa"  # or "written"
    init_std: float = 0.02

    def __post_init__(self):
        for name in ("vocab", "block_size", "d_model", "n_head", "n_layer"):
            if getattr(self, name) < 1:
                raise ValueError(f"LlamaConfig: {name} = {getattr(self, name)} must be >= 1")
        if self.d_model % self.n_head or (self.d_model // self.n_head) % 2:
            raise ValueError(f"LlamaConfig: d_model = {self.d_model} must be n_head = "
                             f"{self.n_head} times an even head size")
        if self.attention not in ("sdpa", "written"):
            raise ValueError(f"LlamaConfig: attention = {self.attention!r} is not one of "
                             "('sdpa', 'written')")

    @property
    def hidden(self) -> int:
        if self.ffn_hidden is not None:
            return self.ffn_hidden
        return -(-8 * self.d_model // 3 // 32) * 32


class LlamaAttention(nn.Module):
    def __init__(self, cfg: LlamaConfig):
        super().__init__()
        self.cfg = cfg
        d = cfg.d_model
        self.q = nn.Linear(d, d, bias=False)
        self.k = nn.Linear(d, d, bias=False)
        self.v = nn.Linear(d, d, bias=False)
        self.o = nn.Linear(d, d, bias=False)

    def forward(self, x, cos, sin):
        h = self.cfg.n_head
        q = apply_rotary(split_heads(self.q(x), h), cos, sin)
        k = apply_rotary(split_heads(self.k(x), h), cos, sin)
        y = causal_attention(q, k, split_heads(self.v(x), h), kind=self.cfg.attention)
        return self.o(merge_heads(y, "reshape"))


class SwiGLU(nn.Module):
    def __init__(self, d: int, hidden: int):
        super().__init__()
        self.w1 = nn.Linear(d, hidden, bias=False)
        self.w3 = nn.Linear(d, hidden, bias=False)
        self.w2 = nn.Linear(hidden, d, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class LlamaBlock(nn.Module):
    def __init__(self, cfg: LlamaConfig):
        super().__init__()
        self.attn_norm = RMSNorm(cfg.d_model, cfg.norm_eps)
        self.attn = LlamaAttention(cfg)
        self.mlp_norm = RMSNorm(cfg.d_model, cfg.norm_eps)
        self.mlp = SwiGLU(cfg.d_model, cfg.hidden)

    def forward(self, x, cos, sin):
        x = x + self.attn(self.attn_norm(x), cos, sin)
        return x + self.mlp(self.mlp_norm(x))


class Llama(nn.Module):
    """``forward(idx, targets=None)``: the cross-entropy loss, or the logits."""

    def __init__(self, cfg: LlamaConfig = LlamaConfig()):
        super().__init__()
        self.cfg = cfg
        self.embed = nn.Embedding(cfg.vocab, cfg.d_model)
        self.blocks = nn.ModuleList(LlamaBlock(cfg) for _ in range(cfg.n_layer))
        self.norm = RMSNorm(cfg.d_model, cfg.norm_eps)
        if not cfg.tie_head:
            self.head = nn.Linear(cfg.d_model, cfg.vocab, bias=False)
        cos, sin = rotary_tables(cfg.block_size, cfg.d_model // cfg.n_head, cfg.rope_theta)
        self.register_buffer("rope_cos", cos, persistent=False)
        self.register_buffer("rope_sin", sin, persistent=False)
        for m in self.modules():
            if isinstance(m, (nn.Linear, nn.Embedding)):
                nn.init.normal_(m.weight, std=cfg.init_std)

    def forward(self, idx, targets=None):
        if idx.shape[1] > self.cfg.block_size:
            raise ValueError(f"Llama.forward: sequence length {idx.shape[1]} exceeds "
                             f"block_size {self.cfg.block_size}")
        x = self.embed(idx)
        for block in self.blocks:
            x = block(x, self.rope_cos, self.rope_sin)
        x = self.norm(x)
        logits = F.linear(x, self.embed.weight) if self.cfg.tie_head else self.head(x)
        if targets is None:
            return logits
        return F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))


def llama_inputs(cfg: LlamaConfig, batch: int = 2, seed: int = 0):
    """Seeded ``(idx, targets)`` of shape (batch, block_size)."""
    g = torch.Generator().manual_seed(seed)
    idx = torch.randint(0, cfg.vocab, (batch, cfg.block_size), generator=g)
    targets = torch.randint(0, cfg.vocab, (batch, cfg.block_size), generator=g)
    return idx, targets
