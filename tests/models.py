"""The zoo: small models whose joint graphs exercise the partitioner, plus a joint-graph capture.

Shared by the emission and integration tests (and by benchmarks). Every model is tiny so that
the tests run in seconds on 2 CPU cores; ``GPT`` scales up for the 48-layer profiling graph.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn


class MLP(nn.Module):
    def __init__(self, d_in=8, d_hidden=16, d_out=4, depth=3):
        super().__init__()
        dims = [d_in] + [d_hidden] * (depth - 1) + [d_out]
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(dims, dims[1:]))

    def forward(self, x):
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i + 1 < len(self.layers):
                x = F.gelu(x) * torch.sigmoid(x)
        return x


class CausalSelfAttention(nn.Module):
    def __init__(self, d_model, n_head):
        super().__init__()
        self.n_head = n_head
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(x).split(c, dim=2)
        q, k, v = (z.view(b, t, self.n_head, c // self.n_head).transpose(1, 2) for z in (q, k, v))
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        mask = torch.ones(t, t, dtype=torch.bool, device=x.device).tril()
        att = att.masked_fill(~mask, float("-inf")).softmax(dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(b, t, c)
        return self.proj(y)


class Block(nn.Module):
    def __init__(self, d_model, n_head, dropout=0.0):
        super().__init__()
        self.ln1 = nn.LayerNorm(d_model)
        self.attn = CausalSelfAttention(d_model, n_head)
        self.ln2 = nn.LayerNorm(d_model)
        self.fc = nn.Linear(d_model, 4 * d_model)
        self.out = nn.Linear(4 * d_model, d_model)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.dropout(self.out(F.gelu(self.fc(self.ln2(x)))))


@dataclass(frozen=True)
class GPTConfig:
    vocab: int = 32
    block_size: int = 8
    d_model: int = 16
    n_head: int = 2
    n_layer: int = 1
    dropout: float = 0.0


class GPT(nn.Module):
    """Embedding, ``n_layer`` causal-attention blocks, tied head and cross-entropy loss."""

    def __init__(self, cfg: GPTConfig = GPTConfig()):
        super().__init__()
        self.cfg = cfg
        self.wte = nn.Embedding(cfg.vocab, cfg.d_model)
        self.wpe = nn.Embedding(cfg.block_size, cfg.d_model)
        self.blocks = nn.ModuleList(
            Block(cfg.d_model, cfg.n_head, cfg.dropout) for _ in range(cfg.n_layer)
        )
        self.ln_f = nn.LayerNorm(cfg.d_model)

    def forward(self, idx, targets):
        t = idx.shape[1]
        x = self.wte(idx) + self.wpe(torch.arange(t, device=idx.device))
        for block in self.blocks:
            x = block(x)
        logits = self.ln_f(x) @ self.wte.weight.t()
        return F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))


class ConvBN(nn.Module):
    """Conv + BatchNorm in training mode: the running statistics are mutated by the forward."""

    def __init__(self, c=4):
        super().__init__()
        self.conv1 = nn.Conv2d(3, c, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(c)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(c)

    def forward(self, x):
        x = F.relu(self.bn1(self.conv1(x)))
        return F.relu(self.bn2(self.conv2(x))).mean(dim=(2, 3))


class EvoNormS0(nn.Module):
    """EvoNorm-S0 (Liu et al. 2020): x * sigmoid(v x) / group_std(x) * gamma + beta."""

    def __init__(self, c=8, groups=2, eps=1e-5):
        super().__init__()
        self.groups, self.eps = groups, eps
        self.gamma = nn.Parameter(torch.ones(1, c, 1, 1))
        self.beta = nn.Parameter(torch.zeros(1, c, 1, 1))
        self.v = nn.Parameter(torch.ones(1, c, 1, 1) * 0.5)

    def forward(self, x):
        n, c, h, w = x.shape
        g = x.view(n, self.groups, c // self.groups, h, w)
        std = (g.var(dim=(2, 3, 4), keepdim=True, unbiased=False) + self.eps).sqrt()
        std = std.expand_as(g).reshape(n, c, h, w)
        return x * torch.sigmoid(self.v * x) / std * self.gamma + self.beta


class LSTMUnrolled(nn.Module):
    """An LSTM-style cell unrolled over a few steps (pointwise-heavy gates)."""

    def __init__(self, d_in=6, d_hidden=8, steps=4):
        super().__init__()
        self.steps = steps
        self.ih = nn.Linear(d_in, 4 * d_hidden)
        self.hh = nn.Linear(d_hidden, 4 * d_hidden)
        self.d_hidden = d_hidden

    def forward(self, x):  # x: (steps, batch, d_in)
        h = x.new_zeros(x.shape[1], self.d_hidden)
        c = x.new_zeros(x.shape[1], self.d_hidden)
        for t in range(self.steps):
            i, f, g, o = (self.ih(x[t]) + self.hh(h)).chunk(4, dim=1)
            c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
            h = torch.sigmoid(o) * torch.tanh(c)
        return h.sum()


class InPlace(nn.Module):
    """In-place ops on intermediates (functionalized away) and a mutated buffer."""

    def __init__(self, d=8):
        super().__init__()
        self.lin = nn.Linear(d, d)
        self.register_buffer("count", torch.zeros(d))

    def forward(self, x):
        y = self.lin(x) * 1.5
        y.add_(1.0).clamp_(min=-3.0)
        self.count.add_(1.0)
        z = torch.tanh(y).mul(3.0)
        z.sub_(x)
        return z


class MultiOutput(nn.Module):
    """Several outputs: a differentiable tensor, a view of it and non-differentiable ones."""

    def __init__(self, d=8):
        super().__init__()
        self.lin = nn.Linear(d, d)

    def forward(self, x):
        y = torch.tanh(self.lin(x))
        return y, y.view(-1), y.argmax(dim=-1), (y > 0).sum(), y.detach() * 2


class DropoutMLP(nn.Module):
    def __init__(self, d=8, p=0.5):
        super().__init__()
        self.l1 = nn.Linear(d, 2 * d)
        self.l2 = nn.Linear(2 * d, d)
        self.p = p

    def forward(self, x):
        return self.l2(F.dropout(torch.relu(self.l1(x)), p=self.p, training=True))


class NoBackwardWork(nn.Module):
    """Only an unused input requires grad: the backward computes nothing."""

    def forward(self, x, unused):
        return torch.sin(x) * 2


# --- capture ---------------------------------------------------------------------------------


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


def gpt_inputs(cfg: GPTConfig, batch=2, seed=0):
    g = torch.Generator().manual_seed(seed)
    idx = torch.randint(0, cfg.vocab, (batch, cfg.block_size), generator=g)
    targets = torch.randint(0, cfg.vocab, (batch, cfg.block_size), generator=g)
    return idx, targets
