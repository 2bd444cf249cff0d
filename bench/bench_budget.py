"""Memory budgets: fusioncut's frontier against PyTorch's ``activation_memory_budget``.

    python bench/bench_budget.py [--quick] [--models gpt12 gpt48 llama resnet]
                                 [--step-models gpt12 llama]
                                 [--offload-models gpt48 llama2k resnet] [--offload-stream]
                                 [--json PATH]

For every model, traced once with AOTAutograd (``fusioncut.report.capture``), and every budget
0, 0.05, ..., 1.0, both partitioners run on the same joint graph and every plan is scored the
same way (``fusioncut.report.pareto``): saved activation bytes, the estimated peak,
recompute cost under fusioncut's model (the "h100" preset) and under PyTorch's FLOP count,
and partition time (fusioncut: ``fusioncut.partition`` end to end with
``Options(memory_budget=b)``; PyTorch: ``min_cut_rematerialization_partition`` under
``torch._functorch.config.activation_memory_budget = b``, its default solver). Also timed:
the whole frontier (``fusioncut.pareto``) and a runtime-mode partition of the same graph.

Checked: fusioncut's estimated peak never rises as the budget falls; each row says whether
fusioncut's plan is no worse than PyTorch's in saved bytes and in recompute cost (both
measures), and if not, why (see docs/budget.md).

Offload (``--offload-models``, ``budget_offload.py``): each model's frontier with and without
``Options(offload="auto")`` on the "h100" preset, the least estimated peak within 5% (10%, 25%,
any) of the runtime plan's estimated step time, partition times with offload, and PyTorch's
knapsack (budgets 0.1-0.5) and offload-everything plans against fusioncut's plan at each of
their estimated peaks, in the same cost model. ``llama2k``: the zoo's Llama at a 2,048-token
sequence (8 layers, d 64, batch 1).

On the CPU (``--step-models``): torch.compile (Inductor's C++ kernels) at budgets 0, 0.5 and 1
with each partitioner, step time (median of timed steps) and the step's peak memory measured
from the CPU profiler's memory events, against fusioncut's estimate for the same plan.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import gc
import os
import statistics
import sys
import time
import warnings

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from common import environment, markdown_table, write_json  # noqa: E402

import fusioncut  # noqa: E402
from fusioncut.models import (  # noqa: E402
    GPT, Llama, LlamaConfig, gpt_config, gpt_inputs, llama_inputs, resnet,
)
from fusioncut import _torch_compat  # noqa: E402
from fusioncut.options import Options  # noqa: E402
from fusioncut.report import capture  # noqa: E402
from fusioncut.report.pareto import pareto_report  # noqa: E402

from budget_offload import DEVICE as OFFLOAD_DEVICE, bench_offload  # noqa: E402
from budget_peak import measured_step  # noqa: E402

DEFAULT_JSON = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", "budget.json")
BUDGETS = tuple(round(0.05 * k, 2) for k in range(21))
FRONTIER_TARGET_S = 2.0
BUDGETED_RATIO_TARGET = 3.0
OFFLOAD_PEAK_TARGET = 0.30  # offload lowers the least peak within 5% step time by this much


def build(name: str, quick: bool):
    """``(module, inputs)`` of a benchmark model, seeded. A transformer's name may end in
    ``-d<width>`` (``gpt48-d1024``): that model width, 64 dimensions a head (default: 64, 4
    heads, the zoo's)."""
    torch.manual_seed(0)
    name, _, width = name.partition("-d")
    d = int(width) if width else 64
    heads = 4 if d == 64 else max(d // 64, 1)
    if name.startswith("gpt"):
        layers = int(name[3:]) if not quick else 2
        cfg = gpt_config("demo", n_layer=layers, d_model=d, n_head=heads, block_size=64,
                         vocab=128)
        return GPT(cfg), gpt_inputs(cfg, batch=4)
    if name == "llama":
        cfg = LlamaConfig(n_layer=2 if quick else 8, d_model=d, n_head=heads, block_size=64,
                          vocab=128)
        return Llama(cfg), llama_inputs(cfg, batch=4)
    if name == "llama2k":
        cfg = LlamaConfig(n_layer=2 if quick else 8, d_model=d, n_head=heads,
                          block_size=256 if quick else 2048, vocab=128)
        return Llama(cfg), llama_inputs(cfg, batch=1)
    if name == "resnet":
        widths = (8, 16, 32, 64) if quick else (32, 64, 128, 256)
        model = resnet("resnet18", num_classes=10, widths=widths, imagenet_stem=False)
        return model, (torch.randn(2 if quick else 8, 3, 32, 32, requires_grad=True),)
    raise ValueError(f"bench_budget: unknown model {name!r}")


BYTE_FRACTIONS = (0.1, 0.3, 0.55, 0.8)  # memory_budget_bytes, from the least plan's bytes up


def _time_partitions(cap, budgets, limits, repeats: int
                     ) -> tuple[float, dict[float, float], dict[int, float]]:
    """Median seconds of ``fusioncut.partition`` in runtime mode, at each ``memory_budget`` of
    ``budgets`` and at each ``memory_budget_bytes`` of ``limits`` (``Frontier.for_bytes``: the
    knapsack between the sweep's cuts and the search above their edge, which
    ``memory_budget`` does not run), calls interleaved round by round (load from other
    processes hits all alike), each on its own deep copy of the joint graph (the copy is not
    timed). The garbage of earlier calls is collected before each call, so a full collection
    triggered by the copies does not land in whichever call happens to run next."""
    options = {None: Options(), **{("budget", b): Options(memory_budget=b) for b in budgets},
               **{("bytes", n): Options(memory_budget_bytes=n) for n in limits}}
    runs: dict[object, list[float]] = {key: [] for key in options}
    for _ in range(repeats):
        for key, opts in options.items():
            jm = copy.deepcopy(cap.joint_module)
            gc.collect()
            t0 = time.perf_counter()
            fusioncut.partition(jm, cap.joint_inputs, num_fwd_outputs=cap.num_fwd_outputs,
                                static_lifetime_input_indices=cap.static_lifetime_input_indices,
                                options=opts)
            runs[key].append(time.perf_counter() - t0)
    return (statistics.median(runs[None]),
            {b: statistics.median(runs[("budget", b)]) for b in budgets},
            {n: statistics.median(runs[("bytes", n)]) for n in limits})


def _same_memory(row) -> dict:
    """fusioncut's plan at PyTorch's saved bytes against PyTorch's plan: no more recompute
    (fusioncut's model, PyTorch's FLOP count), no higher a peak."""
    same, t = row.at_torch_bytes, row.torch
    if same is None or t.error:
        return {}
    return {"saved_bytes": same.saved_bytes, "recompute_seconds": same.recompute_seconds,
            "torch_flops": same.torch_flops, "peak_bytes": same.peak_bytes,
            "no_more_recompute_model": same.recompute_seconds <= t.recompute_seconds * (1 + 1e-9),
            "no_more_recompute_flops": same.torch_flops <= t.torch_flops,
            "no_higher_peak": same.peak_bytes <= t.peak_bytes,
            "fits": same.saved_bytes <= t.saved_bytes}


def _verdict(row) -> tuple[bool, bool, bool, str]:
    """(no more saved bytes, no more recompute under fusioncut's model, no more under
    PyTorch's FLOP count, why not when one fails)."""
    f, t = row.fusioncut, row.torch
    if t.error:
        return True, True, True, f"PyTorch failed: {t.error}"
    saved_ok = f.saved_bytes <= t.saved_bytes
    model_ok = f.recompute_seconds <= t.recompute_seconds * (1 + 1e-9)
    flops_ok = f.torch_flops <= t.torch_flops
    why = []
    if not saved_ok:
        if f.peak_bytes < t.peak_bytes:
            why.append("PyTorch saves fewer bytes but peaks higher (it recomputes more up "
                       "front); fusioncut keeps only plans whose peak falls with the budget")
        else:
            why.append("the budgets measure different ranges: PyTorch's b counts from all "
                       "primal bytes, fusioncut's from its least plan")
    if not flops_ok and model_ok:
        why.append("fusioncut recomputes a matmul where PyTorch recomputes memory-bound ops "
                   "its FLOP count calls free")
    if not model_ok:
        if f.saved_bytes < t.saved_bytes:
            why.append("fusioncut recomputes fused ops to save "
                       f"{(t.saved_bytes - f.saved_bytes) / 2**20:.2f} MiB less (its plan "
                       "is on the frontier; PyTorch's is not)")
        else:
            why.append("fusioncut's plan recomputes more under its own model")
    return saved_ok, model_ok, flops_ok, "; ".join(why)


def bench_model(name: str, quick: bool, budgets, log=print) -> dict:
    module, inputs = build(name, quick)
    t0 = time.perf_counter()
    cap = capture(module, *inputs, via="aot")  # the figures in docs/ were taken this way
    trace_s = time.perf_counter() - t0
    kwargs = dict(num_fwd_outputs=cap.num_fwd_outputs,
                  static_lifetime_input_indices=cap.static_lifetime_input_indices)
    t0 = time.perf_counter()
    front = fusioncut.pareto(cap.joint_module, **kwargs)
    _ = front.points
    frontier_s = time.perf_counter() - t0
    report = pareto_report(cap.joint_module, cap.joint_inputs, budgets=budgets, **kwargs)
    few, most = front.least.saved_bytes, front.runtime.saved_bytes
    limits = [int(few + f * (most - few)) for f in BYTE_FRACTIONS]
    runtime_s, budgeted_s, by_bytes = _time_partitions(cap, budgets, limits, 3)
    bytes_s = {f: by_bytes[n] for f, n in zip(BYTE_FRACTIONS, limits)}
    bytes_ratios = [t / runtime_s for t in bytes_s.values()]
    peaks = [r.fusioncut.peak_bytes for r in report.rows]
    monotone = all(a <= b for a, b in zip(peaks, peaks[1:]))  # rows ascend in budget
    torch_peaks = [r.torch.peak_bytes for r in report.rows if r.torch.error is None]
    torch_monotone = all(a <= b for a, b in zip(torch_peaks, torch_peaks[1:]))
    rows = []
    for r in report.rows:
        saved_ok, model_ok, flops_ok, why = _verdict(r)
        rows.append({
            "budget": r.budget,
            "fusioncut": vars(r.fusioncut) | {"partition_s": budgeted_s[r.budget]},
            "torch": vars(r.torch), "at_torch_bytes": _same_memory(r),
            "no_more_saved": saved_ok,
            "no_more_recompute_model": model_ok, "no_more_recompute_flops": flops_ok,
            "why": why})
    worst_ratio = max(budgeted_s.values()) / runtime_s
    median_ratio = statistics.median(budgeted_s.values()) / runtime_s
    log(f"\n{name}: {report.num_nodes} joint-graph nodes, traced in {trace_s:.1f} s; frontier "
        f"{len(report.frontier)} plans in {frontier_s:.2f} s; runtime-mode partition "
        f"{runtime_s * 1e3:.0f} ms, budgeted {median_ratio:.2f}x (median over budgets), at most "
        f"{worst_ratio:.2f}x; memory_budget_bytes at "
        f"{', '.join(f'{f:g}' for f in bytes_s)} of the way up "
        f"{' / '.join(f'{t * 1e3:.0f}' for t in bytes_s.values())} ms "
        f"({statistics.median(bytes_ratios):.2f}x median, at most {max(bytes_ratios):.2f}x); "
        f"fusioncut peak "
        f"monotone: {monotone}, PyTorch's: {torch_monotone}")
    mib = 2.0 ** 20
    table = []
    for row in rows:
        f, t = row["fusioncut"], row["torch"]
        table.append([f"{row['budget']:.2f}", f"{f['saved_bytes'] / mib:.2f}",
                      f"{t['saved_bytes'] / mib:.2f}", f"{f['peak_bytes'] / mib:.2f}",
                      f"{t['peak_bytes'] / mib:.2f}", f"{f['recompute_seconds'] * 1e6:.1f}",
                      f"{t['recompute_seconds'] * 1e6:.1f}", f"{f['torch_flops']:.3g}",
                      f"{t['torch_flops']:.3g}", f"{f['partition_s'] * 1e3:.0f}",
                      f"{(t['partition_s'] or 0) * 1e3:.0f}",
                      "ok" if row["no_more_saved"] and row["no_more_recompute_model"]
                      and row["no_more_recompute_flops"] else "see why"])
    log(markdown_table(["budget", "saved MiB fc", "torch", "peak MiB fc", "torch",
                        "recompute us fc", "torch", "FLOPs fc", "torch", "ms fc", "torch",
                        "no worse"], table))
    same_rows = [(row["budget"], row["at_torch_bytes"]) for row in rows if row["at_torch_bytes"]]
    log("\nAt PyTorch's saved bytes (fusioncut's plan for memory_budget_bytes = PyTorch's):")
    log(markdown_table(
        ["budget", "torch saved MiB", "fc saved", "fc peak MiB", "fc recompute us",
         "fc FLOPs", "no more recompute (model, FLOPs)", "no higher peak"],
        [[f"{b:.2f}", f"{next(r['torch']['saved_bytes'] for r in rows if r['budget'] == b) / mib:.2f}",
          f"{x['saved_bytes'] / mib:.2f}", f"{x['peak_bytes'] / mib:.2f}",
          f"{x['recompute_seconds'] * 1e6:.1f}", f"{x['torch_flops']:.3g}",
          f"{'yes' if x['no_more_recompute_model'] else 'no'}, "
          f"{'yes' if x['no_more_recompute_flops'] else 'no'}",
          "yes" if x["no_higher_peak"] else "no"] for b, x in same_rows]))
    for row in rows:
        if row["why"]:
            log(f"  b={row['budget']:.2f}: {row['why']}")
    return {"model": name, "nodes": report.num_nodes, "trace_s": trace_s,
            "frontier_s": frontier_s, "frontier_plans": len(report.frontier),
            "runtime_partition_s": runtime_s, "budgeted_over_runtime_max": worst_ratio,
            "budgeted_over_runtime_median": median_ratio,
            "byte_budget_partition_s": {f"{f:g}": t for f, t in bytes_s.items()},
            "byte_budget_over_runtime_max": max(bytes_ratios),
            "byte_budget_over_runtime_median": statistics.median(bytes_ratios),
            "peak_monotone": monotone, "torch_peak_monotone": torch_monotone, "rows": rows,
            "frontier": [vars(p) for p in report.frontier]}


def bench_steps(name: str, quick: bool, log=print) -> list[dict]:
    """CPU step time and measured peak at budgets 0, 0.5, 1 under each partitioner."""
    out = []
    module, inputs = build(name, quick)
    for b in (0.0, 0.5, 1.0):
        for method in ("fusioncut", "torch"):
            r = measured_step(module, inputs, method, b, steps=3 if quick else 10)
            r.update(model=name, budget=b, method=method)
            out.append(r)
            log(f"  {name} b={b:.1f} {method:9s}: step {r['step_ms']:.1f} ms (IQR "
                f"{r['step_iqr_ms']:.1f}), measured peak {r['measured_peak'] / 2**20:.2f} MiB"
                + (f", estimated {r['estimated_peak'] / 2**20:.2f} MiB "
                   f"({r['estimate_error']:+.0%})" if r.get("estimated_peak") else ""))
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="2-layer models, 5 budgets, 3 timed steps (the smoke test)")
    parser.add_argument("--models", nargs="*", default=["gpt12", "gpt48", "llama", "resnet"])
    parser.add_argument("--step-models", nargs="*", default=["gpt12", "llama"])
    parser.add_argument("--offload-models", nargs="*", default=["gpt48", "llama2k", "resnet"])
    parser.add_argument("--offload-stream", action="store_true",
                        help="price offloading under torch's side stream with prefetch")
    parser.add_argument("--offload-hidden", type=float, default=None,
                        help="replace the h100 preset's offload_hidden (0.9) in the offload "
                             "column, e.g. by a lease's measured share")
    parser.add_argument("--json", default=DEFAULT_JSON)
    args = parser.parse_args(argv)
    warnings.filterwarnings("ignore", category=FutureWarning)
    budgets = (0.0, 0.25, 0.5, 0.75, 1.0) if args.quick else BUDGETS
    models = [bench_model(m, args.quick, budgets) for m in args.models]
    offload = []
    stream = dict(activation_offload_separate_stream=True, activation_reload_prefetch=True) \
        if args.offload_stream else {}
    device = OFFLOAD_DEVICE if args.offload_hidden is None else dataclasses.replace(
        OFFLOAD_DEVICE, offload_hidden=args.offload_hidden)
    for m in args.offload_models:
        module, inputs = build(m, args.quick)
        cap = capture(module, *inputs, via="aot")
        with _torch_compat.functorch_config().patch(**stream):
            offload.append(bench_offload(m, cap, repeats=1 if args.quick else 3,
                                         device=device))
    steps = []
    if args.step_models:
        print("\nCPU training steps (torch.compile, Inductor C++ kernels):")
        for m in args.step_models:
            steps += bench_steps(m, args.quick)
    gpt48 = next((m for m in models if m["model"] == "gpt48"), None)
    targets = {"peak_monotone_everywhere": all(m["peak_monotone"] for m in models)}
    if models:
        targets["budgeted_partition_at_most_3x_runtime"] = all(
            m["budgeted_over_runtime_max"] <= BUDGETED_RATIO_TARGET for m in models)
        targets["byte_budget_partition_at_most_3x_runtime"] = all(
            m["byte_budget_over_runtime_max"] <= BUDGETED_RATIO_TARGET for m in models)
    if gpt48 is not None:
        targets["gpt48_frontier_under_2s"] = gpt48["frontier_s"] < FRONTIER_TARGET_S
    if offload:
        targets["offload_partition_at_most_3x_runtime"] = all(
            r["offload_over_runtime_max"] <= BUDGETED_RATIO_TARGET for r in offload)
        for kind in ("peak_target", "byte_budget"):  # the same target, the other budgets
            targets[f"offload_{kind}_partition_at_most_3x_runtime"] = all(
                t <= BUDGETED_RATIO_TARGET * r["runtime_partition_s"]
                for r in offload for t in r[f"{kind}_partition_s"].values())
        targets["offload_lowers_transformer_peaks_30pct_at_5pct_step"] = all(
            max(r["least_peak"]["0.05"]["reduction"],
                r["least_peak"]["0.05"]["by_target_reduction"]) >= OFFLOAD_PEAK_TARGET
            for r in offload
            if r["model"] != "resnet")
        targets["no_slower_than_pytorch_at_its_peaks"] = all(
            row["no_slower"] for r in offload for row in r["peers"])
        gpt = next((r for r in offload if r["model"] == "gpt48"), None)
        if gpt is not None:
            targets["gpt48_offload_frontier_under_2s"] = gpt["frontier_s"] < FRONTIER_TARGET_S
    print("\ntargets: " + ", ".join(f"{k}: {'ok' if v else 'MISSED'}" for k, v in targets.items()))
    write_json(args.json, {"environment": environment("cpu"), "budgets": budgets,
                           "models": models, "steps": steps, "offload": offload,
                           "offload_settings": stream or "torch defaults (synchronous)",
                           "targets": targets})
    print(f"wrote {args.json}")
    return 0 if targets["peak_monotone_everywhere"] else 1


if __name__ == "__main__":
    sys.exit(main())
