"""Are a configuration's gradients right? Compared with a float64 eager reference, with a
tolerance set by PyTorch's own float32 runs' distance to that reference.

Two float32 runs of one model differ wherever reductions are ordered or formulated
differently (cuDNN picks convolution algorithms per call, Inductor fuses, reorders and
decomposes BatchNorm's backward its own way), so a fixed tolerance against float32 eager
either flags PyTorch's own compile (ResNet-18 on an H100 did, at 1e-3) or hides real errors.
The float64 run is an arbiter every float32 run is measured against::

    err(run)   = max over gradient tensors of max|g_run - g_64| / max|g_64|
    tolerance  = max(k * err(eager float32), k_compiled * err(torch_default), floor)
    ok         = err(config) <= tolerance

``k`` (``--grad-k``, 10) lets a compiled run round worse than eager by a constant factor.
``k_compiled`` (``--grad-k-compiled``, 2) measures a partitioner against PyTorch's own
compile of the same model, which shares Inductor's float32 numerics: on a bottleneck ResNet
on CPU Inductor's float32 backward is 9e-3 from float64 where eager's is 3e-6, for every
partitioner alike (the same compiled graph in float64 is within 3e-14), so eager alone would
flag them all. torch_default counts only while its own error is under
``max_compiled_noise`` (0.1). ``floor`` (``--grad-floor``, 1e-5) covers models where eager
float32 happens to be exact. A partitioner that saves or recomputes a wrong value is off by
far more (an error of order 1).

torch_default itself is held to eager: beyond ``k * err(eager)`` (and the floor) but under
``max_compiled_noise`` its verdict is ``compiler-limited`` (Inductor's float32 numerics, shared
by every compiled configuration), not a mismatch.

Random workloads cannot be replayed in float64 (a float64 ``rand`` draws other numbers). With
an oracle (exact gradients from the step's own inputs and output) the oracle is the reference
and eager's distance to it sets the tolerance the same way; without one the reference is a
seeded float32 eager step, compared with a compile that draws eager's random stream
(``fallback_random``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

DEFAULT_K = 10.0
DEFAULT_K_COMPILED = 2.0
DEFAULT_FLOOR = 1e-5
DEFAULT_MAX_COMPILED_NOISE = 0.1


def grad_error(grads, reference) -> float:
    """Largest max-normalised error over the tensors: ``max|g - r| / max|r|`` (inf when a
    gradient is missing where the reference has one, or is not finite)."""
    worst = 0.0
    for g, ref in zip(grads, reference, strict=True):
        if (g is None) != (ref is None):
            return math.inf
        if ref is None:
            continue
        r = ref.detach().double()
        err = (g.detach().double() - r).abs().max().item() / max(r.abs().max().item(), 1e-30)
        if not math.isfinite(err):
            return math.inf
        worst = max(worst, err)
    return worst


@dataclass(frozen=True)
class GradTolerance:
    """ok when ``err <= max(k * eager_err, k_compiled * compiled_err, floor)``; see the module
    doc."""

    k: float = DEFAULT_K
    floor: float = DEFAULT_FLOOR
    k_compiled: float = DEFAULT_K_COMPILED
    max_compiled_noise: float = DEFAULT_MAX_COMPILED_NOISE

    def __post_init__(self):
        for name in ("k", "k_compiled"):
            value = getattr(self, name)
            if not (value >= 1.0 and math.isfinite(value)):
                raise ValueError(f"GradTolerance: {name} = {value} must be a finite number >= 1")
        for name in ("floor", "max_compiled_noise"):
            value = getattr(self, name)
            if not (value > 0.0 and math.isfinite(value)):
                raise ValueError(f"GradTolerance: {name} = {value} must be a finite number > 0")

    def tolerance(self, eager_err: float, compiled_err: float | None = None) -> tuple[float, str]:
        """The tolerance and which term set it: "eager", "torch_default" or "floor"."""
        if not (eager_err >= 0.0):
            raise ValueError(f"GradTolerance.tolerance: eager_err = {eager_err} must be >= 0")
        terms = {"floor": self.floor, "eager": self.k * eager_err}
        if compiled_err is not None and 0.0 <= compiled_err <= self.max_compiled_noise:
            terms["torch_default"] = self.k_compiled * compiled_err
        source = max(terms, key=terms.get)
        return terms[source], source

    def verdict(self, err: float, eager_err: float, compiled_err: float | None = None,
                baseline: bool = False) -> dict:
        """The row fields. ``baseline``: the row is torch_default itself, held to eager."""
        tol, source = self.tolerance(eager_err, None if baseline else compiled_err)
        if err <= tol:
            word = "ok"
        elif baseline and err <= self.max_compiled_noise:
            word = "compiler-limited"
        else:
            word = "MISMATCH"
        return {"grad_err": err, "grad_eager_err": eager_err, "grad_compiled_err": compiled_err,
                "grad_tol": tol, "grad_tol_from": source, "grad_verdict": word,
                "grad_ok": word == "ok"}


def grads_of(leaves) -> list[torch.Tensor | None]:
    return [None if t.grad is None else t.grad.detach().clone() for t in leaves]
