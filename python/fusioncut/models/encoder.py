"""A stack of ``nn.TransformerEncoderLayer`` (batch first, post-norm, ReLU): PyTorch's own
transformer code, as users run it."""

from __future__ import annotations

from torch import nn

__all__ = ["transformer_encoder"]


def transformer_encoder(d_model: int, n_head: int, ffn: int, n_layer: int,
                        dropout: float = 0.0) -> nn.Module:
    """``n_layer`` encoder layers; a single layer is returned bare (no ``TransformerEncoder``
    around it), as the training benchmark has always run it."""
    if n_layer < 1:
        raise ValueError(f"transformer_encoder: n_layer = {n_layer} must be >= 1")
    layer = nn.TransformerEncoderLayer(d_model, n_head, ffn, dropout=dropout, batch_first=True)
    if n_layer == 1:
        return layer
    return nn.TransformerEncoder(layer, n_layer, enable_nested_tensor=False)
