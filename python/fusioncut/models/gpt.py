"""One configurable GPT: every GPT this project traces is a :class:`GPTConfig` of it.

::

    idx ─ wte(idx) + wpe(positions)
        ─ n_layer x [ x + drop?(attn(norm(x)));  x + drop?(fc_out(act(fc(norm(x))))) ]
        ─ norm ─ head ─ (logits, or cross-entropy against targets)

The knobs are the ways real code bases spell the same model, each of which gives the
partitioner a different joint graph: the norm (``LayerNorm`` or a hand-written RMSNorm), the
GeLU (one op or written out), biases, attention written out (matmul, mask, softmax) or fused
(``scaled_dot_product_attention``), one fused qkv Linear or three, how heads are merged, where
dropout sits, and the head (``x @ wte.weight.t()``, ``F.linear(x, wte.weight)`` or an untied
``Linear``). :data:`STYLES` names the variants the project uses:

    tests   (the defaults) LayerNorm, F.gelu, biases, written-out attention, tied head
            ``x @ wte.weight.t()``, dropout after the MLP only; the test suite's GPT
    demo    RMSNorm, GeLU written out, no biases, no dropout: ``python -m fusioncut demo``
            and bench_partition's gpt12 / gpt48
    record  LayerNorm, F.gelu(approximate="tanh"), separate q/k/v, a causal-mask buffer,
            ``reshape`` head merge, dropout after attention and MLP, untied head: the network
            bench/record_torch_networks.py records from torch's partitioner
    gpt2    LayerNorm, GeLU written out, scaled_dot_product_attention, ``F.linear`` tied head,
            normal(0.02) init, no dropout: the training benchmark's GPT-2
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

from fusioncut.models.layers import (
    ACTIVATIONS, RMSNorm, activation, causal_attention, merge_heads, split_heads,
)

__all__ = ["GPT", "GPTConfig", "STYLES", "gpt_config", "gpt_inputs"]

_CHOICES = {
    "norm": ("layernorm", "rmsnorm"),
    "activation": ACTIVATIONS,
    "attention": ("written", "sdpa"),
    "causal_mask": ("tril", "buffer"),
    "qkv": ("fused", "split"),
    "merge": ("view", "reshape"),
    "head": ("matmul", "linear", "untied"),
    "flatten": ("view", "flatten"),
}
_SITES = ("attn", "mlp")


@dataclass(frozen=True)
class GPTConfig:
    """Sizes, then the spelling. The defaults are the test suite's GPT (``STYLES["tests"]``)."""

    vocab: int = 32
    block_size: int = 8
    d_model: int = 16
    n_head: int = 2
    n_layer: int = 1
    dropout: float = 0.0
    norm: str = "layernorm"
    norm_eps: float | None = None  # None: 1e-5 for LayerNorm, 1e-6 for RMSNorm
    activation: str = "gelu"
    bias: bool = True
    attention: str = "written"
    causal_mask: str = "tril"  # written attention: a triangle built per call, or a buffer
    qkv: str = "fused"
    merge: str = "view"  # heads merged by contiguous().view or by reshape
    dropout_sites: tuple[str, ...] = ("mlp",)  # nn.Dropout(dropout) after these sublayers
    head: str = "matmul"
    flatten: str = "view"  # logits and targets flattened for the loss by view(-1, ...) or flatten
    positions_first: bool = False  # arange(t) traced before the token embedding
    init_std: float | None = None  # None: PyTorch's default init; else normal(0, std)

    def __post_init__(self):
        for name, valid in _CHOICES.items():
            if getattr(self, name) not in valid:
                raise ValueError(f"GPTConfig: {name} = {getattr(self, name)!r} is not one of "
                                 f"{valid}")
        for site in self.dropout_sites:
            if site not in _SITES:
                raise ValueError(f"GPTConfig: dropout_sites has {site!r}, not one of {_SITES}")
        for name in ("vocab", "block_size", "d_model", "n_head", "n_layer"):
            if getattr(self, name) < 1:
                raise ValueError(f"GPTConfig: {name} = {getattr(self, name)} must be >= 1")
        if self.d_model % self.n_head:
            raise ValueError(f"GPTConfig: d_model = {self.d_model} is not a multiple of "
                             f"n_head = {self.n_head}")
        if not 0.0 <= self.dropout < 1.0:
            raise ValueError(f"GPTConfig: dropout = {self.dropout} is not in [0, 1)")


STYLES: dict[str, dict] = {
    "tests": {},
    "demo": dict(norm="rmsnorm", activation="gelu_tanh_pointwise", bias=False,
                 dropout_sites=()),
    "record": dict(activation="gelu_tanh", qkv="split", causal_mask="buffer", merge="reshape",
                   dropout_sites=("attn", "mlp"), head="untied", flatten="flatten"),
    "gpt2": dict(activation="gelu_tanh_pointwise", attention="sdpa", merge="reshape",
                 head="linear", dropout_sites=(), positions_first=True, init_std=0.02),
}


def gpt_config(style: str, **sizes) -> GPTConfig:
    """``GPTConfig`` of a named style (:data:`STYLES`) with the given fields."""
    if style not in STYLES:
        raise ValueError(f"gpt_config: style = {style!r} is not one of {tuple(STYLES)}")
    return GPTConfig(**{**STYLES[style], **sizes})


class Attention(nn.Module):
    def __init__(self, cfg: GPTConfig):
        super().__init__()
        self.cfg = cfg
        d = cfg.d_model
        if cfg.qkv == "fused":
            self.qkv = nn.Linear(d, 3 * d, bias=cfg.bias)
        else:
            self.q = nn.Linear(d, d, bias=cfg.bias)
            self.k = nn.Linear(d, d, bias=cfg.bias)
            self.v = nn.Linear(d, d, bias=cfg.bias)
        self.proj = nn.Linear(d, d, bias=cfg.bias)

    def forward(self, x, mask=None):
        cfg = self.cfg
        if cfg.qkv == "fused":
            q, k, v = (split_heads(z, cfg.n_head)
                       for z in self.qkv(x).split(cfg.d_model, dim=2))
        else:
            q, k, v = (split_heads(lin(x), cfg.n_head) for lin in (self.q, self.k, self.v))
        y = causal_attention(q, k, v, kind=cfg.attention, mask=mask)
        return self.proj(merge_heads(y, cfg.merge))


def _norm(cfg: GPTConfig) -> nn.Module:
    if cfg.norm == "rmsnorm":
        return RMSNorm(cfg.d_model, 1e-6 if cfg.norm_eps is None else cfg.norm_eps)
    return nn.LayerNorm(cfg.d_model, eps=1e-5 if cfg.norm_eps is None else cfg.norm_eps,
                        bias=cfg.bias)


class Block(nn.Module):
    def __init__(self, cfg: GPTConfig):
        super().__init__()
        self.cfg = cfg
        self.ln1 = _norm(cfg)
        self.attn = Attention(cfg)
        self.ln2 = _norm(cfg)
        self.fc = nn.Linear(cfg.d_model, 4 * cfg.d_model, bias=cfg.bias)
        self.fc_out = nn.Linear(4 * cfg.d_model, cfg.d_model, bias=cfg.bias)
        self.dropout = nn.Dropout(cfg.dropout)

    def forward(self, x, mask=None):
        sites = self.cfg.dropout_sites
        a = self.attn(self.ln1(x), mask)
        x = x + (self.dropout(a) if "attn" in sites else a)
        m = self.fc_out(activation(self.cfg.activation, self.fc(self.ln2(x))))
        return x + (self.dropout(m) if "mlp" in sites else m)


class GPT(nn.Module):
    """``forward(idx, targets=None)``: the cross-entropy loss against ``targets``, or the
    logits when ``targets`` is None."""

    def __init__(self, cfg: GPTConfig = GPTConfig()):
        super().__init__()
        self.cfg = cfg
        self.wte = nn.Embedding(cfg.vocab, cfg.d_model)
        self.wpe = nn.Embedding(cfg.block_size, cfg.d_model)
        self.blocks = nn.ModuleList(Block(cfg) for _ in range(cfg.n_layer))
        self.ln_f = _norm(cfg)
        if cfg.head == "untied":
            self.head = nn.Linear(cfg.d_model, cfg.vocab, bias=False)
        if cfg.causal_mask == "buffer" and cfg.attention == "written":
            mask = torch.triu(torch.ones(cfg.block_size, cfg.block_size, dtype=torch.bool), 1)
            self.register_buffer("mask", mask)
        else:
            self.mask = None
        if cfg.init_std is not None:
            for m in self.modules():
                if isinstance(m, (nn.Linear, nn.Embedding)):
                    nn.init.normal_(m.weight, std=cfg.init_std)

    def forward(self, idx, targets=None):
        if self.cfg.positions_first:
            pos = torch.arange(idx.shape[1], device=idx.device)
            x = self.wte(idx) + self.wpe(pos)
        else:
            x = self.wte(idx) + self.wpe(torch.arange(idx.shape[1], device=idx.device))
        for block in self.blocks:
            x = block(x, self.mask)
        x = self.ln_f(x)
        if self.cfg.head == "matmul":
            logits = x @ self.wte.weight.t()
        elif self.cfg.head == "linear":
            logits = F.linear(x, self.wte.weight)
        else:
            logits = self.head(x)
        if targets is None:
            return logits
        if self.cfg.flatten == "flatten":
            return F.cross_entropy(logits.flatten(0, 1), targets.flatten())
        return F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))


def gpt_inputs(cfg: GPTConfig, batch: int = 2, seed: int = 0):
    """Seeded ``(idx, targets)`` of shape (batch, block_size)."""
    g = torch.Generator().manual_seed(seed)
    idx = torch.randint(0, cfg.vocab, (batch, cfg.block_size), generator=g)
    targets = torch.randint(0, cfg.vocab, (batch, cfg.block_size), generator=g)
    return idx, targets

