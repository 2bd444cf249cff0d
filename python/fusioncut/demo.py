"""The model behind ``python -m fusioncut demo``: the zoo's GPT in its ``demo`` style.

The blocks are spelled in pointwise ops the way many training codebases spell them (nanoGPT's
tanh-approximated ``NewGELU``, a hand-written RMSNorm, no biases), so the joint graph has the
long pointwise chains where recomputation choices matter::

    tokens ─ embedding + positions
        ─ n_layer x [ x + attention(RMSNorm(x)); x + MLP_NewGELU(RMSNorm(x)) ]
        ─ RMSNorm ─ tied head ─ cross-entropy

Sizes default to a toy (d_model 64, 64 tokens, batch 4) so that tracing and three partitioners
run in seconds on two CPU cores; only the graph's structure matters to the partitioners.
bench/bench_partition.py's gpt12 and gpt48 are this model with 12 and 48 layers.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from fusioncut.models import GPT, gpt_config, gpt_inputs

__all__ = ["DemoConfig", "DemoGPT", "demo_inputs"]


@dataclass(frozen=True)
class DemoConfig:
    n_layer: int = 12
    d_model: int = 64
    n_head: int = 4
    block_size: int = 64
    vocab: int = 128
    batch: int = 4


def _gpt_config(cfg: DemoConfig):
    return gpt_config("demo", n_layer=cfg.n_layer, d_model=cfg.d_model, n_head=cfg.n_head,
                      block_size=cfg.block_size, vocab=cfg.vocab)


class DemoGPT(GPT):
    """Token and position embeddings, ``n_layer`` blocks, tied head, cross-entropy loss."""

    def __init__(self, cfg: DemoConfig = DemoConfig()):
        super().__init__(_gpt_config(cfg))
        self.demo_cfg = cfg


def demo_inputs(cfg: DemoConfig, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    return gpt_inputs(_gpt_config(cfg), batch=cfg.batch, seed=seed)
