"""Training-step benchmark: eager vs torch.compile under different partitioners.

For every workload (train_models.py) and every configuration (configs.py: eager,
torch_default, default_partition, fusioncut_runtime, fusioncut_memory, and any registered
later) it measures one training step (gradients None; forward; ``out.backward(grad_out)``
with a fixed random ``grad_out``; no optimizer):

    time_ms, step_ms   median step time over interleaved rounds (timing.py), with quartiles
                       and a 95% interval; ``time_ms`` is thread CPU time on a
                       single-threaded CPU run, wall time otherwise (CUDA events on GPU)
    step_vs_default    median of the per-round ratios to torch_default, with its 95%
                       interval; ``within_noise`` when the interval contains 1
    compile_s          first step minus the median step
    saved_*_bytes      storages autograd keeps between forward and backward (measure.py)
    graph_saved_bytes  custom partitioners: the forward graph's saved outputs; partition_s
    peak_bytes         GPU: the configuration's resident bytes plus one step's peak above them
    max_batch          GPU with --max-batch: largest batch (batch_search.py)
    grad_verdict       gradients within max(k * float32 eager's error, k_compiled *
                       torch_default's, floor) of float64 eager's (gradcheck.py): ok,
                       MISMATCH, or compiler-limited (torch_default beyond eager's)

The module layout: configs.py (the registry, compiling), measure.py (a step, saved bytes,
peak), gradcheck.py, timing.py, batch_search.py, suite.py (one workload through all of it),
report.py (table, plot), this file (the command line). bench/common.py records the machine.

    python bench/train/bench_train.py --device cpu --json out.json --plot out.png
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import sys
import time

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(_HERE))  # bench/: common.py
sys.path.insert(0, _HERE)

import torch  # noqa: E402
from common import environment, write_json  # noqa: E402
from configs import (  # noqa: E402
    CONFIGS, OFFLOAD_CONFIGS, fusioncut_unavailable_reason, side_stream_fault, torch_internals,
)
from gradcheck import (  # noqa: E402
    DEFAULT_FLOOR, DEFAULT_K, DEFAULT_K_COMPILED, DEFAULT_MAX_COMPILED_NOISE, GradTolerance,
)
from report import plot_or_say_why, row_line, table  # noqa: E402
from suite import RunOptions, run_workload  # noqa: E402
from timing import TimingPlan  # noqa: E402
from train_models import SIZES, WORKLOADS  # noqa: E402

EXIT_MISMATCH, EXIT_NO_CUDA = 1, 2


def warm_up_compiler(device: torch.device) -> float:
    """Compiles and runs a trivial training step once, so that one-time costs (imports, the
    C++ toolchain probe, Triton's first launch) are not charged to the first configuration's
    compile time. Returns the seconds it took."""
    from configs import compile_context

    t0 = time.perf_counter()
    with compile_context(None, reset=True):
        x = torch.randn(64, device=device, requires_grad=True)
        torch.compile(lambda t: (t * 2).sin(), backend="inductor", dynamic=False)(x).sum().backward()
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    return time.perf_counter() - t0


def run_suite(models, configs, opts: RunOptions, log=print) -> list[dict]:
    rows = []
    if any(CONFIGS[c].compiled for c in configs):
        log(f"compiler warm-up {warm_up_compiler(opts.device):.1f} s (not charged to any config)")
    for name in models:
        t0 = time.perf_counter()
        out = run_workload(name, configs, opts, log)
        for row in out:
            log(row_line(row))
        log(f"{name}: {time.perf_counter() - t0:.0f} s")
        rows += out
    return rows


def meta_record(opts: RunOptions, args) -> dict:
    env = environment(str(opts.device))
    fc_reason = fusioncut_unavailable_reason()
    plan = opts.timing
    env.update({
        "fusioncut_unavailable": fc_reason,
        "side_stream_fault": side_stream_fault() if opts.device.type == "cuda" else None,
        "size": opts.size,
        "warmup": plan.warmup, "min_steps": plan.min_steps, "max_steps": plan.max_steps,
        "precision": plan.precision, "timing_budget_s": plan.budget_s,
        "time_kind": "cpu" if plan.use_cpu_time else "wall",
        "grad_k": opts.grad.k, "grad_k_compiled": opts.grad.k_compiled,
        "grad_floor": opts.grad.floor, "grad_max_compiled_noise": opts.grad.max_compiled_noise,
        "dtype": "float32",
        "caches": "FX graph, AOTAutograd and autotune caches off; "
        + ("a fresh Inductor cache dir per config" if opts.fresh_cache else "one Inductor cache dir per run"),
        "configs": {c: CONFIGS[c].description for c in args.configs},
        "argv": sys.argv[1:] if args.argv is None else args.argv,
    })
    return env


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--device", choices=("cpu", "cuda"), default="cpu")
    p.add_argument("--models", nargs="+", default=list(WORKLOADS), choices=list(WORKLOADS))
    p.add_argument("--configs", nargs="+", default=[c for c in CONFIGS if CONFIGS[c].default],
                   choices=list(CONFIGS))
    p.add_argument("--size", choices=SIZES, help="default: cpu on --device cpu, gpu on cuda; tiny with --quick")
    p.add_argument("--quick", action="store_true", help="tiny sizes, 1 warm-up round, 3 timed rounds")
    p.add_argument("--warmup", type=int, help="untimed rounds (default 3; quick 1)")
    p.add_argument("--steps", type=int, help="timed rounds at least (default: cpu 20, cuda 50; quick 3)")
    p.add_argument("--max-steps", type=int, help="timed rounds at most (default: 10 x --steps; quick 3)")
    p.add_argument("--precision", type=float, default=None,
                   help="stop once every median and ratio is known to this relative half-width "
                        "of its 95%% interval (default: cpu 0.02, cuda 0.01)")
    p.add_argument("--timing-budget", type=float, default=120.0,
                   help="seconds of timing rounds per workload, at most (default 120)")
    p.add_argument("--threads", type=int, help="torch.set_num_threads (CPU default: 1, for stable timings)")
    p.add_argument("--grad-k", type=float, default=DEFAULT_K,
                   help=f"gradients ok within k x float32 eager's own error (default {DEFAULT_K:g})")
    p.add_argument("--grad-k-compiled", type=float, default=DEFAULT_K_COMPILED,
                   help="... or within k_compiled x torch_default's error, when that is under "
                        f"--grad-max-compiled-noise (default {DEFAULT_K_COMPILED:g})")
    p.add_argument("--grad-max-compiled-noise", type=float, default=DEFAULT_MAX_COMPILED_NOISE,
                   help=f"(default {DEFAULT_MAX_COMPILED_NOISE:g})")
    p.add_argument("--grad-floor", type=float, default=DEFAULT_FLOOR,
                   help=f"... or within this max-normalised error (default {DEFAULT_FLOOR:g})")
    p.add_argument("--tf32", action="store_true",
                   help="CUDA: allow TF32 in matmuls and convolutions (off by default)")
    p.add_argument("--max-batch", action="store_true", help="GPU: search the largest batch that fits")
    p.add_argument("--bisect-steps", type=int, default=4, help="bisections after doubling (default 4)")
    p.add_argument("--shared-cache", action="store_true", help="one Inductor cache dir for the run (faster)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--from-json", metavar="PATH", help="render --table/--plot from an earlier run's JSON; run nothing")
    p.add_argument("--json", help="write the results here")
    p.add_argument("--plot", help="write the speed-versus-memory scatter plot (PNG) here")
    p.add_argument("--table", help="write the markdown table here")
    args = p.parse_args(argv)
    args.argv = argv
    return args


def _render(rows, meta, args) -> str:
    md = table(rows, meta)
    if args.table:
        with open(args.table, "w") as f:
            f.write(md + "\n")
    if args.plot:
        plot_or_say_why(rows, meta, args.plot)
    return md


def options(args) -> RunOptions:
    gpu = args.device == "cuda"
    size = args.size or ("tiny" if args.quick else ("gpu" if gpu else "cpu"))
    steps = args.steps if args.steps is not None else (3 if args.quick else (50 if gpu else 20))
    max_steps = args.max_steps if args.max_steps is not None else (steps if args.quick else 10 * steps)
    plan = TimingPlan(
        warmup=args.warmup if args.warmup is not None else (1 if args.quick else 3),
        min_steps=steps, max_steps=max(max_steps, steps),
        precision=args.precision if args.precision is not None else (0.01 if gpu else 0.02),
        budget_s=args.timing_budget,
        use_cpu_time=not gpu and torch.get_num_threads() == 1,
    )
    return RunOptions(device=torch.device(args.device), size=size, timing=plan,
                      grad=GradTolerance(args.grad_k, args.grad_floor, args.grad_k_compiled,
                                         args.grad_max_compiled_noise),
                      max_batch=args.max_batch,
                      bisect_steps=args.bisect_steps, fresh_cache=not args.shared_cache,
                      seed=args.seed)


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.from_json:
        with open(args.from_json) as f:
            data = json.load(f)
        print(_render(data["results"], data["meta"], args))
        return 0
    if args.device == "cuda" and not torch.cuda.is_available():
        print("bench_train.py: --device cuda, but torch.cuda.is_available() is False "
              f"(torch {torch.__version__}, built with CUDA {torch.version.cuda}); run on a CUDA "
              "machine or use --device cpu", file=sys.stderr)
        return EXIT_NO_CUDA
    if args.device == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = args.tf32
        torch.backends.cudnn.allow_tf32 = args.tf32
    if args.threads or args.device == "cpu":
        torch.set_num_threads(args.threads or 1)
    opts = options(args)
    meta = meta_record(opts, args)
    print(f"# {meta['device_name']} | torch {meta['torch']} | triton {meta['triton']} | "
          f"CUDA {meta['cuda']} | driver {meta['driver']} | size {opts.size} | {meta['date_utc']}")
    if meta["side_stream_fault"] and any(c in OFFLOAD_CONFIGS for c in args.configs):
        print(f"# offload copies are synchronous for every configuration: "
              f"{meta['side_stream_fault']}")
    t0 = time.perf_counter()
    shared = contextlib.nullcontext()
    if args.shared_cache:
        shared = torch_internals()[4]()
    with shared:
        rows = run_suite(args.models, args.configs, opts)
    meta["total_s"] = time.perf_counter() - t0
    usage = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
    meta["total_cpu_s"] = sum(u.ru_utime + u.ru_stime for u in usage)  # incl. compiler processes
    meta["load_avg_end"] = os.getloadavg()
    md = _render(rows, meta, args)
    print()
    print(md)
    print(f"\ntotal {meta['total_s']:.0f} s wall, {meta['total_cpu_s']:.0f} s CPU, "
          f"load {meta['load_avg_end'][0]:.1f}")
    if args.json:
        write_json(args.json, {"meta": meta, "results": rows})
    bad = [r for r in rows if r["status"] == "ok" and r.get("grad_verdict") == "MISMATCH"]
    for r in bad:
        print(f"GRADIENT MISMATCH: {r['model']} {r['config']} err {r['grad_err']:.2e} > "
              f"tolerance {r['grad_tol']:.2e} (from {r['grad_tol_from']})", file=sys.stderr)
    for r in rows:
        if r.get("grad_verdict") == "compiler-limited":
            print(f"note: {r['model']}: torch_default's float32 gradients are {r['grad_err']:.1e} "
                  f"from float64, eager's {r['grad_eager_err']:.1e}: Inductor's float32 numerics; "
                  "the other compiled configurations are held to torch_default's error")
    noisy = [f"{r['model']}/{r['config']}" for r in rows if r.get("within_noise")]
    if noisy:
        print(f"within noise (the 95% interval of the ratio to {'torch_default'} contains 1): "
              + ", ".join(noisy))
    return EXIT_MISMATCH if bad else 0


if __name__ == "__main__":
    sys.exit(main())
