"""Small models: the seed patterns of the write-ups and the test suite's graph shapes.

Seed patterns (one tensor in, one out; the benchmarks' pointwise chains)::

    CosCos       (a+b+c+d).cos().cos()          the best cut saves only a+b+c+d
    TanhTanh     x.tanh().tanh()                saving only x, recomputing both tanh, is best
    GeLU         GeLU (tanh form) written out   ~5 intermediates unless recomputed
    DropoutLike  x * x * (rand_like(x) < 0.5)   rand_like must never be recomputed

Graph shapes the tests exercise: ``MLP`` (GeLU * sigmoid between Linears), ``ConvBN``
(BatchNorm in train mode mutates its running statistics), ``EvoNormS0`` (group statistics and
long pointwise chains), ``LSTMUnrolled`` (gates), ``InPlace`` (functionalized in-place ops and
a mutated buffer), ``MultiOutput`` (views and non-differentiable outputs), ``DropoutMLP``
(random ops), ``NoBackwardWork`` (a backward with nothing to do).
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from fusioncut.models.layers import gelu_tanh

__all__ = ["ConvBN", "CosCos", "DropoutLike", "DropoutMLP", "EvoNormS0", "GeLU", "InPlace",
           "LSTMUnrolled", "MLP", "MultiOutput", "NoBackwardWork", "TanhTanh",
           "dropout_like_grads"]


class CosCos(nn.Module):
    def forward(self, a, b, c, d):
        return (a + b + c + d).cos().cos()


class TanhTanh(nn.Module):
    def forward(self, x):
        return x.tanh().tanh()


class GeLU(nn.Module):
    """GeLU written out: without recomputation the forward writes ~5 tensors."""

    def forward(self, x):
        return gelu_tanh(x)


class DropoutLike(nn.Module):
    """Saving the bool mask instead of the float random tensor is the win; recomputing
    ``rand_like`` would draw different numbers."""

    def forward(self, x):
        return x * x * (torch.rand_like(x) < 0.5)


def dropout_like_grads(inputs, out, grad_out):
    """The exact input gradient of :class:`DropoutLike` for one step's own random numbers:
    ``d/dx x * x * mask = 2 x mask``, and the mask is where the output is non-zero (x is
    Gaussian, so ``x == 0`` has probability zero)."""
    (x,) = inputs
    return [grad_out * 2 * x.detach() * (out.detach() != 0)]


class EvoNormS0(nn.Module):
    """EvoNorm-S0 (Liu et al. 2020; timm's ``EvoNorm2dS0``):
    ``y = x * sigmoid(v * x) / group_std(x) * weight + bias`` with ``min(groups, channels)``
    groups."""

    def __init__(self, channels: int = 8, groups: int = 2, eps: float = 1e-5):
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


class MLP(nn.Module):
    """Linears with ``gelu(x) * sigmoid(x)`` between them."""

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


class LSTMUnrolled(nn.Module):
    """An LSTM-style cell unrolled over a few steps (pointwise-heavy gates);
    input (steps, batch, d_in)."""

    def __init__(self, d_in=6, d_hidden=8, steps=4):
        super().__init__()
        self.steps = steps
        self.ih = nn.Linear(d_in, 4 * d_hidden)
        self.hh = nn.Linear(d_hidden, 4 * d_hidden)
        self.d_hidden = d_hidden

    def forward(self, x):
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
