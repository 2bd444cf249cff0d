"""A mutating custom op for the higher-order-op tests: ``auto_functionalized`` in the traced
graphs, with a hand-written backward so that it sits inside a differentiable program."""

from __future__ import annotations

import torch

__all__ = ["OP_NAME", "ScaleTrack", "scale_and_track"]

OP_NAME = "fusioncut_test.scale_and_track"


@torch.library.custom_op("fusioncut_test::scale_and_track", mutates_args=("stats",))
def scale_and_track(x: torch.Tensor, stats: torch.Tensor) -> torch.Tensor:
    """``2 * x``, adding ``|x|.sum()`` into ``stats`` in place."""
    stats.add_(x.detach().abs().sum())
    return x * 2


@scale_and_track.register_fake
def _(x, stats):
    return torch.empty_like(x)


class ScaleTrack(torch.autograd.Function):
    """``scale_and_track`` with its gradient, ``2 * g``."""

    @staticmethod
    def forward(ctx, x, stats):
        return scale_and_track(x, stats)

    @staticmethod
    def backward(ctx, g):
        return g * 2, None
