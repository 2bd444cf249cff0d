"""Step timing, interleaved: every configuration of a workload is compiled once, then timed
in rounds, one step of each configuration per round, so that whatever else the machine does
falls on all of them alike.

    warm-up   ``warmup`` untimed rounds
    rounds    round r runs the configurations in an order rotated by r; each step is timed
              on its own (CUDA events around it on a GPU; ``perf_counter`` and the calling
              thread's CPU time on a CPU)
    stopping  after ``min_steps`` rounds, rounds go on until every configuration's median
              and every step-time ratio to the baseline are known to ``precision`` (half the
              width of a 95% confidence interval, relative), or ``max_steps`` rounds, or
              ``budget_s`` seconds

The ratio to the baseline is the median of the per-round ratios (paired: a slow drift of the
machine cancels), with that median's 95% confidence interval; the ratio of the two medians is
kept as well (``median_vs_default``). A ratio whose interval contains 1 is flagged
``within_noise``: the spread is at least the difference.
Confidence intervals of a median come from order statistics (distribution-free):
ranks ``n/2 - 1.96 sqrt(n)/2`` and ``n/2 + 1.96 sqrt(n)/2 + 1``, rounded (n = 20: the 6th and
15th of the sorted times).
"""

from __future__ import annotations

import math
import statistics
import time
from dataclasses import dataclass, field
from typing import Callable

import torch

Z95 = 1.959964


def median_ci(values: list[float], z: float = Z95) -> tuple[float, float]:
    """A distribution-free confidence interval of the median: the order statistics at ranks
    ``n/2 - z sqrt(n)/2`` and ``n/2 + z sqrt(n)/2 + 1`` (1-based, rounded, clamped to the
    sample); (min, max) for tiny samples."""
    if not values:
        raise ValueError("median_ci: values is empty")
    xs = sorted(values)
    n = len(xs)
    half = z * math.sqrt(n) / 2
    lo = max(round(n / 2 - half), 1)
    hi = min(round(n / 2 + half) + 1, n)
    return xs[lo - 1], xs[hi - 1]


def summary(values: list[float]) -> dict:
    """median, quartiles, IQR, min, max, n and the median's 95% interval."""
    if not values:
        raise ValueError("summary: values is empty")
    xs = sorted(values)
    if len(xs) >= 2:
        q1, _, q3 = statistics.quantiles(xs, n=4, method="inclusive")
    else:
        q1 = q3 = xs[0]
    lo, hi = median_ci(xs)
    return {"median": statistics.median(xs), "q1": q1, "q3": q3, "iqr": q3 - q1,
            "min": xs[0], "max": xs[-1], "n": len(xs), "ci_low": lo, "ci_high": hi}


def relative_halfwidth(s: dict) -> float:
    return (s["ci_high"] - s["ci_low"]) / 2 / s["median"] if s["median"] > 0 else math.inf


@dataclass
class Series:
    """One configuration's timed steps, in round order."""

    wall_ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)  # CPU device only


@dataclass(frozen=True)
class TimingPlan:
    warmup: int
    min_steps: int
    max_steps: int
    precision: float  # relative half-width of the 95% intervals to stop at
    budget_s: float  # seconds of timing per workload, at most
    use_cpu_time: bool  # ratios and stopping use thread CPU time (single-threaded CPU runs)

    def __post_init__(self):
        if self.warmup < 0 or self.min_steps < 1 or self.max_steps < self.min_steps:
            raise ValueError(f"TimingPlan: need warmup >= 0 and 1 <= min_steps <= max_steps, "
                             f"got {self.warmup}, {self.min_steps}, {self.max_steps}")
        if not self.precision > 0:
            raise ValueError(f"TimingPlan: precision = {self.precision} must be > 0")


def _timed_step(step: Callable[[], object], device: torch.device) -> tuple[float, float | None]:
    if device.type == "cuda":
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        step()
        end.record()
        end.synchronize()
        return start.elapsed_time(end), None
    c0, t0 = time.thread_time(), time.perf_counter()
    step()
    return (time.perf_counter() - t0) * 1e3, (time.thread_time() - c0) * 1e3


def _times(series: Series, use_cpu: bool) -> list[float]:
    return series.cpu_ms if use_cpu and series.cpu_ms else series.wall_ms


def paired_ratios(series: Series, base: Series, use_cpu: bool) -> list[float]:
    a, b = _times(series, use_cpu), _times(base, use_cpu)
    return [x / y for x, y in zip(a, b) if y > 0]


def converged(all_series: dict[str, Series], baseline: str | None, plan: TimingPlan) -> bool:
    """Every median, and every paired ratio to the baseline, known to ``plan.precision``."""
    for name, s in all_series.items():
        if relative_halfwidth(summary(_times(s, plan.use_cpu_time))) > plan.precision:
            return False
        if baseline in all_series and name != baseline:
            ratios = paired_ratios(s, all_series[baseline], plan.use_cpu_time)
            if ratios and relative_halfwidth(summary(ratios)) > plan.precision:
                return False
    return True


def time_interleaved(steps: dict[str, Callable[[], object]], device: torch.device,
                     plan: TimingPlan, baseline: str | None = None,
                     clock: Callable[[], float] = time.perf_counter) -> dict[str, Series]:
    """Times ``steps`` (name -> one training step) in rotated rounds; see the module doc."""
    names = list(steps)
    if not names:
        return {}
    for r in range(plan.warmup):
        for i in range(len(names)):
            steps[names[(r + i) % len(names)]]()
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    series = {n: Series() for n in names}
    started = clock()
    rounds = 0
    while rounds < plan.max_steps:
        order = [names[(rounds + i) % len(names)] for i in range(len(names))]
        for name in order:
            wall, cpu = _timed_step(steps[name], device)
            series[name].wall_ms.append(wall)
            if cpu is not None:
                series[name].cpu_ms.append(cpu)
        rounds += 1
        if rounds >= plan.min_steps and (converged(series, baseline, plan)
                                         or clock() - started >= plan.budget_s):
            break
    return series


def timing_fields(series: Series, use_cpu: bool, base: Series | None) -> dict:
    """The row fields of one configuration's timing (milliseconds)."""
    wall = summary(series.wall_ms)
    row = {
        "step_ms": wall["median"], "step_ms_q1": wall["q1"], "step_ms_q3": wall["q3"],
        "step_ms_min": wall["min"], "step_ms_max": wall["max"], "steps": wall["n"],
        "step_ms_all": [round(t, 4) for t in series.wall_ms],
        "step_cpu_ms": None,
    }
    if series.cpu_ms:
        cpu = summary(series.cpu_ms)
        row.update(step_cpu_ms=cpu["median"], step_cpu_ms_q1=cpu["q1"], step_cpu_ms_q3=cpu["q3"],
                   step_cpu_ms_all=[round(t, 4) for t in series.cpu_ms])
    used = summary(_times(series, use_cpu))
    row.update(time_kind="cpu" if use_cpu and series.cpu_ms else "wall",
               time_ms=used["median"], time_iqr_ms=used["iqr"],
               time_ci_ms=[used["ci_low"], used["ci_high"]])
    if base is not None:
        ratios = paired_ratios(series, base, use_cpu)
        if ratios:
            r = summary(ratios)
            row["step_vs_default"] = r["median"]
            row["step_vs_default_ci"] = [r["ci_low"], r["ci_high"]]
            row["within_noise"] = bool(series is not base and r["ci_low"] <= 1.0 <= r["ci_high"])
        base_median = summary(_times(base, use_cpu))["median"]
        row["median_vs_default"] = used["median"] / base_median if base_median else None
    return row
