"""The largest batch a configuration trains at: doubling until a step runs out of memory,
then bisection.

There is no cap on the batch: doubling stops at the first out-of-memory error, or before a
batch whose estimated footprint exceeds the device's memory (the estimate is linear in the
batch, from the measured step at the workload's own batch: what does not grow with the batch,
parameters, buffers and gradients, plus the batch's share of inputs and the step's peak), so
a search needs no more tries than the memory allows. Bisection then narrows the interval
between the largest batch that ran and the smallest that failed (or was estimated to), for
``bisect_steps`` halvings or until the two are adjacent.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from measure import free_memory, is_oom

# Doubling this many times from any batch without running out of memory means the step
# function never fails (a CPU, or a bug), not that the device is that large.
MAX_DOUBLINGS = 40


@dataclass
class BatchSearch:
    largest: int  # the largest batch that ran (0: not even the smallest tried)
    smallest_failed: int | None  # the smallest batch that failed or was estimated not to fit
    stopped_by: str  # "oom", "estimate" or "doublings"
    tried: list[tuple[int, str]] = field(default_factory=list)  # (batch, "ok" | "oom")


def oom_as_false(step: Callable[[int], object]) -> Callable[[int], bool]:
    """``fits(batch)``: True when ``step(batch)`` returns, False when it runs out of memory
    (``measure.is_oom``, which sees through wrapping exceptions); other errors propagate.
    Memory is released after every try."""

    def fits(batch: int) -> bool:
        try:
            step(batch)
            return True
        except Exception as exc:
            if is_oom(exc):
                return False
            raise
        finally:
            free_memory()

    return fits


def linear_footprint(base_batch: int, fixed_bytes: float, per_base_batch_bytes: float):
    """``footprint(b) = fixed + per_base_batch * b / base_batch``."""
    if base_batch < 1:
        raise ValueError(f"linear_footprint: base_batch = {base_batch} must be >= 1")

    def footprint(batch: int) -> float:
        return fixed_bytes + per_base_batch_bytes * batch / base_batch

    return footprint


def largest_batch(fits: Callable[[int], bool], base: int, *,
                  footprint: Callable[[int], float] | None = None,
                  capacity_bytes: float | None = None, bisect_steps: int = 4) -> BatchSearch:
    """Doubling from ``base`` until ``fits(batch)`` is False (it ran out of memory) or
    ``footprint(batch) > capacity_bytes``, then up to ``bisect_steps`` bisections."""
    if base < 1:
        raise ValueError(f"largest_batch: base = {base} must be >= 1")
    if bisect_steps < 0:
        raise ValueError(f"largest_batch: bisect_steps = {bisect_steps} must be >= 0")
    tried: list[tuple[int, str]] = []

    def attempt(batch: int) -> bool:
        ok = bool(fits(batch))
        tried.append((batch, "ok" if ok else "oom"))
        return ok

    lo, hi, stopped_by = 0, None, "doublings"
    batch = base
    for _ in range(MAX_DOUBLINGS + 1):
        if footprint is not None and capacity_bytes is not None and footprint(batch) > capacity_bytes:
            hi, stopped_by = batch, "estimate"
            break
        if not attempt(batch):
            hi, stopped_by = batch, "oom"
            break
        lo, batch = batch, batch * 2
    if hi is not None:
        for _ in range(bisect_steps):
            if hi - lo <= 1:
                break
            mid = (lo + hi) // 2
            if attempt(mid):
                lo = mid
            else:
                hi = mid
    return BatchSearch(lo, hi, stopped_by, tried)
