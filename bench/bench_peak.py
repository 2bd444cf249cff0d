"""Does a peak you ask for hold when measured? Compiled CPU training steps, profiled.

    python bench/bench_peak.py [--models gpt llama-sdpa ...] [--quick] [--json PATH]
                               [--targets 13] [--cache PATH] [--targets-only]
                               [--device cpu|cuda]

For every model of ``peak_models`` (the zoo's GPT, Llama with SDPA and with attention written
out, a ResNet-18 layout; GPT-2, Llama and T5 from transformers at batch 8, sequence 256),
compiled with ``torch.compile`` (Inductor's C++ kernels) and fusioncut as its partitioner
(``bench/budget_peak.py``: one step's peak from the CPU profiler's memory events, previous
gradients freed before the window opens):

1. **estimate against measured** at ``memory_budget`` 0, 0.25, 0.5, 0.75, 1: the plan's
   estimated peak (``fusioncut.peak``: forward, kept, backward) next to the measured one;
2. **monotone in the budget**: the measured peak at budgets 0, 0.1, ..., 1 never rises as the
   budget falls (where it does, by how much at most: bytes, and relative to the higher
   budget's peak);
3. **targets that hold**: ``peak_memory_bytes = N`` at ``--targets`` values spread evenly over
   fusioncut's own range (from the least plan's estimate raised by the device's default
   margin, ``Options.peak_margin``, to the runtime plan's), each measured against N (+2% for allocator rounding);
4. **byte budgets**: ``memory_budget_bytes = N`` at ``BYTE_FRACTIONS`` of the way from the
   least plan's saved bytes to the runtime plan's: the plan's saved bytes against N, its
   estimated peak against the measured one, and the measured peak monotone in N.

On ``--device cuda`` the models and inputs move to the GPU, Inductor emits Triton kernels and
each peak is the CUDA allocator's (``torch.cuda.max_memory_allocated``); ``--targets-only``
skips tables 1 and 2 (a short lease measures the targets first). Prices on the ``"h100"`` preset (``Options``' default for budgets). A plan is compiled and
measured once, however many targets pick it (``--cache`` keeps measurements across runs of
the same torch on the same machine).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import warnings

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from budget_peak import Session  # noqa: E402
from common import environment, markdown_table, write_json  # noqa: E402
from peak_models import (ALL, MODELS, TEST_EXTRA, UNSEEN, UNSEEN_LATER,  # noqa: E402
                         UNSEEN_NEWER, UNSEEN_SHAPES, UNSEEN_VISION)

from fusioncut.budget import raised  # noqa: E402
from fusioncut.options import Options  # noqa: E402

DEFAULT_JSON = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", "peak.json")
ESTIMATE_BUDGETS = (0.0, 0.25, 0.5, 0.75, 1.0)
MONOTONE_BUDGETS = tuple(round(0.1 * k, 1) for k in range(11))
ROUNDING = 0.02  # allocator rounding a target allows
BYTE_FRACTIONS = (0.1, 0.3, 0.55, 0.8)  # memory_budget_bytes, from the least plan's bytes up
ESTIMATE_TARGET = 0.10  # estimate within 10% of the measured peak
MIB = 2 ** 20


def _row(r: dict) -> dict:
    return {k: r[k] for k in ("key", "saved_bytes", "recompute_seconds", "estimate",
                              "estimate_forward", "estimate_kept", "estimate_backward",
                              "measured", "measured_forward", "measured_kept",
                              "measured_backward", "code_forward", "code_backward",
                              "code_backward_at", "code_backward_held",
                              "emitted_as_decided", "peak_at") if k in r}


def run_model(name: str, quick: bool, targets: int, cache: dict, device: str = "cpu",
              sweep: bool = True) -> dict:
    t0 = time.perf_counter()
    session = Session(name, quick, cache=cache, device=device)
    out = {"model": name, "estimate": [], "monotone": [], "targets": []}
    for b in sorted(set(ESTIMATE_BUDGETS) | set(MONOTONE_BUDGETS)) if sweep else ():
        r = session.measure(Options(memory_budget=b))
        row = {"budget": b, **_row(r), "error": (r["estimate"] - r["measured"]) / r["measured"]}
        if b in ESTIMATE_BUDGETS:
            out["estimate"].append(row)
        if b in MONOTONE_BUDGETS:
            out["monotone"].append(row)
        print(f"  {name} b={b:<4} estimate {r['estimate'] / MIB:8.3f} MiB  measured "
              f"{r['measured'] / MIB:8.3f} MiB  ({row['error']:+.1%})", flush=True)
    least = session.plan(Options(memory_budget=0.0)).budget
    front, out["margin"] = least.frontier, least.margin  # the device's default peak_margin
    few, most = front.least.saved_bytes, front.runtime.saved_bytes
    out["bytes"] = []
    for f in BYTE_FRACTIONS if sweep else ():
        n = int(few + f * (most - few))
        r = session.measure(Options(memory_budget_bytes=n))
        out["bytes"].append({"fraction": f, "limit": n, **_row(r),
                             "fits": (r["saved_bytes"] or 0) <= n,
                             "error": (r["estimate"] - r["measured"]) / r["measured"]})
        print(f"  {name} memory_budget_bytes={n / MIB:8.3f} MiB  saved "
              f"{(r['saved_bytes'] or 0) / MIB:8.3f} MiB  estimate {r['estimate'] / MIB:8.3f} "
              f"MiB  measured {r['measured'] / MIB:8.3f} MiB", flush=True)
    lo = raised(front.least.peak.peak, least.margin)
    hi = raised(front.runtime.peak.peak, least.margin)
    for k in range(targets):
        n = int(round(lo + (hi - lo) * k / max(targets - 1, 1)))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = session.measure(Options(peak_memory_bytes=n))
        ok = r["measured"] <= n * (1 + ROUNDING)
        out["targets"].append({"target": n, **_row(r), "holds": ok,
                               "over": r["measured"] / n - 1})
        print(f"  {name} peak_memory_bytes={n / MIB:8.3f} MiB  measured "
              f"{r['measured'] / MIB:8.3f} MiB  {'ok' if ok else 'OVER'}", flush=True)
    rise = worst_rise([row["measured"] for row in out["monotone"]]) if sweep else None
    out["monotone_holds"] = rise[0] <= 0 if sweep else None
    out["monotone_worst_rise"] = rise
    out["seconds"] = time.perf_counter() - t0
    return out


def worst_rise(peaks: list[float]) -> tuple[float, float]:
    """How far the measured peaks (at rising budgets) break monotonicity: the most a budget's
    peak exceeds that of a higher budget, in bytes and relative to the higher budget's; (0, 0.0)
    when the peaks never fall as the budget rises."""
    rise, relative, least_above = 0, 0.0, float("inf")
    for p in reversed(peaks):
        if p - least_above > rise:
            rise, relative = p - least_above, (p - least_above) / least_above
        least_above = min(least_above, p)
    return rise, relative


def report(results: list[dict]) -> str:
    if not any(m["estimate"] for m in results):  # --targets-only
        return _targets_report(results)
    lines = ["Estimate against measured (MiB; error = (estimate - measured) / measured):", ""]
    rows = []
    for m in results:
        for r in m["estimate"]:
            rows.append([m["model"], f"{r['budget']:g}", f"{(r['saved_bytes'] or 0) / MIB:.2f}",
                         f"{r['estimate'] / MIB:.2f}", f"{r['measured'] / MIB:.2f}",
                         f"{r['error']:+.1%}",
                         f"{r['estimate_forward'] / MIB:.2f} / {r['measured_forward'] / MIB:.2f}",
                         f"{r['estimate_backward'] / MIB:.2f} / {r['measured_backward'] / MIB:.2f}"])
    lines.append(markdown_table(["model", "b", "saved", "estimate", "measured", "error",
                                 "forward est / meas", "backward est / meas"], rows))
    lines += ["", "Monotone in memory_budget (measured MiB at b = 0, 0.1, ..., 1):", ""]
    rows = [[m["model"], " ".join(f"{r['measured'] / MIB:.2f}" for r in m["monotone"]),
             "yes" if m["monotone_holds"] else "NO", _rise(m["monotone_worst_rise"])]
            for m in results]
    lines.append(markdown_table(["model", "measured peak", "monotone",
                                 "worst rise as the budget falls"], rows))
    lines += ["", "memory_budget_bytes = N (MiB; the plan's saved bytes against N, its estimate "
              "against the measured peak):", ""]
    rows = [[m["model"], f"{r['fraction']:g}", f"{r['limit'] / MIB:.2f}",
             f"{(r['saved_bytes'] or 0) / MIB:.2f}", "yes" if r["fits"] else "NO",
             f"{r['estimate'] / MIB:.2f}", f"{r['measured'] / MIB:.2f}", f"{r['error']:+.1%}"]
            for m in results for r in m.get("bytes", ())]
    lines.append(markdown_table(["model", "fraction", "N", "saved", "saved <= N", "estimate",
                                 "measured", "error"], rows))
    return "\n".join(lines + ["", _targets_report(results)])


def _rise(rise) -> str:
    if not rise or rise[0] <= 0:
        return "-"
    return f"{rise[0] / 1024:,.0f} KiB ({rise[1]:+.2%})"


def _targets_report(results: list[dict]) -> str:
    lines = [f"peak_memory_bytes = N (measured <= N x {1 + ROUNDING:g}):", ""]
    rows = []
    for m in results:
        t = m["targets"]
        held = sum(r["holds"] for r in t)
        worst = max(t, key=lambda r: r["over"])
        rows.append([m["model"], f"{t[0]['target'] / MIB:.2f}-{t[-1]['target'] / MIB:.2f}",
                     f"{held} of {len(t)}", f"{worst['over']:+.1%}",
                     f"{min(r['over'] for r in t):+.1%}",
                     str(len({r['key'] for r in t}))])
    lines.append(markdown_table(["model", "targets (MiB)", "held", "closest to N (worst)",
                                 "farthest below N", "distinct plans"], rows))
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", nargs="+", default=list(MODELS),
                        choices=ALL,
                        help=f"default: {' '.join(MODELS)}; also "
                        f"{' '.join(UNSEEN + UNSEEN_LATER + UNSEEN_NEWER + UNSEEN_VISION)} "
                        f"{' '.join(UNSEEN_SHAPES)}, "
                        f"models the estimate was not shaped on, and {' '.join(TEST_EXTRA)}, "
                        "the test extra's others")
    parser.add_argument("--quick", action="store_true", help="small models (a smoke test)")
    parser.add_argument("--targets", type=int, default=13)
    parser.add_argument("--json", default=DEFAULT_JSON)
    parser.add_argument("--cache", default=None, help="JSON file of plan measurements")
    parser.add_argument("--targets-only", action="store_true",
                        help="skip the memory_budget sweep (tables 1 and 2)")
    parser.add_argument("--device", choices=("cpu", "cuda"), default="cpu",
                        help="cuda: peaks from torch.cuda.max_memory_allocated")
    args = parser.parse_args(argv)
    if args.device == "cuda" and not torch.cuda.is_available():
        print("bench_peak: --device cuda, but torch.cuda.is_available() is False", file=sys.stderr)
        return 2
    cache = {}
    if args.cache and os.path.exists(args.cache):
        with open(args.cache) as f:
            cache = json.load(f)
    results = []
    for name in args.models:
        print(f"{name}:", flush=True)
        results.append(run_model(name, args.quick, args.targets, cache, args.device,
                                 sweep=not args.targets_only))
        if args.cache:
            write_json(args.cache, cache)
    text = report(results)
    print("\n" + text)
    write_json(args.json, {"environment": environment(args.device), "torch_threads": torch.get_num_threads(),
                           "results": results, "table": text})
    bad = [m["model"] for m in results
           if m["monotone_holds"] is False or not all(r["holds"] for r in m["targets"])]
    if bad:
        print(f"\nmissed on: {', '.join(bad)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
