"""The model behind ``python -m fusioncut demo``: a small GPT written the way nanoGPT writes it.

The blocks are spelled in pointwise ops the way many training codebases spell them (nanoGPT's
tanh-approximated ``NewGELU``, a hand-written RMSNorm), so the joint graph has the long
pointwise chains where recomputation choices matter::

    tokens ─ embedding + positions
        ─ n_layer x [ x + attention(RMSNorm(x)); x + MLP_NewGELU(RMSNorm(x)) ]
        ─ RMSNorm ─ tied head ─ cross-entropy

Sizes default to a toy (d_model 64, 64 tokens, batch 4) so that tracing and three partitioners
run in seconds on two CPU cores; only the graph's structure matters to the partitioners.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import nn

__all__ = ["DemoConfig", "DemoGPT", "demo_inputs"]


@dataclass(frozen=True)
class DemoConfig:
    n_layer: int = 12
    d_model: int = 64
    n_head: int = 4
    block_size: int = 64
    vocab: int = 128
    batch: int = 4


class RMSNorm(nn.Module):
    def __init__(self, d: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def new_gelu(x):
    """nanoGPT's GELU (tanh approximation), in pointwise ops."""
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x.pow(3))))


class Attention(nn.Module):
    def __init__(self, cfg: DemoConfig):
        super().__init__()
        self.n_head = cfg.n_head
        self.qkv = nn.Linear(cfg.d_model, 3 * cfg.d_model, bias=False)
        self.proj = nn.Linear(cfg.d_model, cfg.d_model, bias=False)

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(x).split(c, dim=2)
        q, k, v = (z.view(b, t, self.n_head, c // self.n_head).transpose(1, 2)
                   for z in (q, k, v))
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        mask = torch.ones(t, t, dtype=torch.bool, device=x.device).tril()
        att = att.masked_fill(~mask, float("-inf")).softmax(dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(b, t, c)
        return self.proj(y)


class Block(nn.Module):
    def __init__(self, cfg: DemoConfig):
        super().__init__()
        self.norm1 = RMSNorm(cfg.d_model)
        self.attn = Attention(cfg)
        self.norm2 = RMSNorm(cfg.d_model)
        self.fc = nn.Linear(cfg.d_model, 4 * cfg.d_model, bias=False)
        self.out = nn.Linear(4 * cfg.d_model, cfg.d_model, bias=False)

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        return x + self.out(new_gelu(self.fc(self.norm2(x))))


class DemoGPT(nn.Module):
    """Token and position embeddings, ``n_layer`` blocks, tied head, cross-entropy loss."""

    def __init__(self, cfg: DemoConfig = DemoConfig()):
        super().__init__()
        self.cfg = cfg
        self.wte = nn.Embedding(cfg.vocab, cfg.d_model)
        self.wpe = nn.Embedding(cfg.block_size, cfg.d_model)
        self.blocks = nn.ModuleList(Block(cfg) for _ in range(cfg.n_layer))
        self.norm = RMSNorm(cfg.d_model)

    def forward(self, idx, targets):
        t = idx.shape[1]
        x = self.wte(idx) + self.wpe(torch.arange(t, device=idx.device))
        for block in self.blocks:
            x = block(x)
        logits = self.norm(x) @ self.wte.weight.t()
        return nn.functional.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))


def demo_inputs(cfg: DemoConfig, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    shape = (cfg.batch, cfg.block_size)
    return (torch.randint(0, cfg.vocab, shape, generator=g),
            torch.randint(0, cfg.vocab, shape, generator=g))
