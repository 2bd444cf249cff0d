"""Cost-model calibration on GPU: does a fused pointwise kernel's time follow bytes moved, and
how much arithmetic fits in the shadow of memory traffic?

fusioncut's cost model (docs/design.md, cost.py) charges a saved value 2x its bytes (written
in the forward, read in the backward) or 1x (already materialized) and treats recomputation
inside a fused kernel as free. The seeds justify this with two measurements: pointwise kernels
are bandwidth bound (000, 004 sec. 3), and "we need to fuse 50 multiplications into one kernel
before there is any appreciable difference in runtime" (004 sec. 3, citing He 2022; 000 says
"a hundred multiply ops (or 10 trigonometric ops)"). This script measures both on the GPU at
hand with one Triton kernel:

    y_j = chain_k(x_0 + ... + x_{r-1}) + j        for j < w

reading ``r`` tensors and writing ``w`` tensors of ``n`` float32, with ``k`` ops in the chain,
either multiplications by constants that alternate between 1 + 1e-6 and 1 - 1e-6 (no
reassociation folds them) or ``sin``.

    bandwidth sweep  k = 1, (r, w) over several pairs: fit t = t0 + bytes / BW and report the
                     largest relative residual (small: time follows bytes)
    compute sweep    (r, w) = (1, 1), k = 1 .. 512: k_free(op), the largest k whose time is
                     within --tol (10%) of k = 1. Recomputation is free up to k_free ops per
                     element per (r + w) elements of traffic, which gives the constant
                     free_ops_per_access = k_free / (r + w)

Every kernel's output is checked against the same chain computed by torch before it is timed.
Timing: ``triton.testing.do_bench`` (median, L2 flushed between runs).

    python bench/train/calibrate_triton.py [--quick] [--json PATH] [--plot PATH]
    python bench/train/calibrate_triton.py --interpret   # CPU: check the kernels only

Needs CUDA and Triton; without them it says so and exits with status 2.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # bench/

from common import environment, write_json  # noqa: E402

EXIT_UNSUPPORTED = 2
OPS = ("mul", "sin")
RW_PAIRS = ((1, 1), (2, 1), (1, 2), (3, 1), (2, 2), (4, 1), (1, 4), (4, 4))
KS = (1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512)
MAX_RW = 4


def unsupported_reason(interpret: bool) -> str | None:
    try:
        import torch
    except ImportError as exc:
        return f"torch is not importable ({exc})"
    try:
        import triton  # noqa: F401
    except ImportError as exc:
        return f"Triton is not installed ({exc}); it ships with CUDA builds of torch"
    if not interpret and not torch.cuda.is_available():
        return f"no CUDA device (torch {torch.__version__}, CUDA build: {torch.version.cuda})"
    return None


def build_kernel():
    import triton
    import triton.language as tl

    @triton.jit
    def chain_kernel(
        x0, x1, x2, x3, y0, y1, y2, y3, n,
        R: tl.constexpr, W: tl.constexpr, K: tl.constexpr, OP: tl.constexpr, BLOCK: tl.constexpr,
    ):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        acc = tl.load(x0 + offs, mask=m, other=0.0)
        if R > 1:
            acc += tl.load(x1 + offs, mask=m, other=0.0)
        if R > 2:
            acc += tl.load(x2 + offs, mask=m, other=0.0)
        if R > 3:
            acc += tl.load(x3 + offs, mask=m, other=0.0)
        for i in tl.static_range(K):
            if OP == 0:
                if i % 2 == 0:
                    acc = acc * 1.000001
                else:
                    acc = acc * 0.999999
            else:
                acc = tl.sin(acc)
        tl.store(y0 + offs, acc, mask=m)
        if W > 1:
            tl.store(y1 + offs, acc + 1.0, mask=m)
        if W > 2:
            tl.store(y2 + offs, acc + 2.0, mask=m)
        if W > 3:
            tl.store(y3 + offs, acc + 3.0, mask=m)

    return chain_kernel


def reference(xs, w, k, op):
    """The kernel's computation in torch, same op order, for the correctness check."""
    import torch

    acc = xs[0].clone()
    for x in xs[1:]:
        acc = acc + x
    for i in range(k):
        if op == "mul":
            acc = acc * torch.tensor(1.000001 if i % 2 == 0 else 0.999999, dtype=acc.dtype)
        else:
            acc = torch.sin(acc)
    return [acc + float(j) for j in range(w)]


class Runner:
    def __init__(self, n: int, device: str, block: int = 1024):
        import torch

        self.n, self.device, self.block = n, device, block
        gen = torch.Generator().manual_seed(0)
        self.xs = [torch.randn(n, generator=gen).to(device) for _ in range(MAX_RW)]
        self.ys = [torch.empty(n, device=device) for _ in range(MAX_RW)]
        self.kernel = build_kernel()

    def launch(self, r, w, k, op):
        import triton

        grid = (triton.cdiv(self.n, self.block),)
        self.kernel[grid](*self.xs, *self.ys, self.n, R=r, W=w, K=k, OP=OPS.index(op), BLOCK=self.block)

    def check(self, r, w, k, op, m: int = 1 << 16):
        """Runs the kernel on the first ``m`` elements and compares with torch."""
        import torch

        saved_n, self.n = self.n, min(m, self.n)
        try:
            self.launch(r, w, k, op)
            ref = reference([x[: self.n].cpu() for x in self.xs[:r]], w, k, op)
            for j in range(w):
                got = self.ys[j][: self.n].cpu()
                if not torch.allclose(got, ref[j], rtol=1e-4, atol=1e-4):
                    err = (got - ref[j]).abs().max().item()
                    raise AssertionError(f"calibrate_triton: r={r} w={w} k={k} op={op}: output {j} differs by {err}")
        finally:
            self.n = saved_n

    def time_ms(self, r, w, k, op) -> float:
        import triton.testing

        fn = lambda: self.launch(r, w, k, op)  # noqa: E731
        try:
            return float(triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median"))
        except TypeError:  # older Triton: quantiles instead of return_mode
            return float(triton.testing.do_bench(fn, warmup=25, rep=100, quantiles=[0.5])[0])


def fit_bandwidth(points):
    """Least squares t = t0 + bytes / bw over (bytes, ms) points; returns t0, bw, worst residual."""
    import numpy as np

    b = np.array([p[0] for p in points], dtype=float)
    t = np.array([p[1] for p in points], dtype=float)
    A = np.stack([np.ones_like(b), b], axis=1)
    (t0, slope), *_ = np.linalg.lstsq(A, t, rcond=None)
    resid = np.abs(A @ np.array([t0, slope]) - t) / t
    return float(t0), float(1.0 / slope) if slope > 0 else float("inf"), float(resid.max())


def k_free(series, tol):
    """Largest k whose time is within ``tol`` of k = 1 (all smaller k are too)."""
    base = series[0][1]
    best = series[0][0]
    for k, ms in series:
        if ms > base * (1 + tol):
            break
        best = k
    return best


def run(args) -> dict:
    import torch

    device = "cpu" if args.interpret else "cuda"
    n = args.numel or ((1 << 16) if args.interpret else ((1 << 24) if args.quick else (1 << 26)))
    runner = Runner(n, device)
    ks = KS if not (args.quick or args.interpret) else (1, 4, 16, 64)
    env = environment(device)
    result = {
        "date_utc": env["date_utc"],
        "device_name": "Triton interpreter (CPU)" if args.interpret else env["device_name"],
        "torch": torch.__version__,
        "triton": __import__("triton").__version__,
        "env": env,
        "numel": n,
        "dtype": "float32",
        "tol": args.tol,
        "bandwidth": [],
        "compute": {},
    }
    for r, w in RW_PAIRS:
        runner.check(r, w, 1, "mul")
    for op in OPS:
        for k in ks:
            runner.check(1, 1, k, op)
    print(f"checked {len(RW_PAIRS) + len(OPS) * len(ks)} kernels against torch")
    if args.interpret:
        result["note"] = "interpreter run: kernels checked, no timings"
        return result

    for r, w in RW_PAIRS:
        ms = runner.time_ms(r, w, 1, "mul")
        nbytes = (r + w) * n * 4
        result["bandwidth"].append({"r": r, "w": w, "bytes": nbytes, "ms": ms, "GBps": nbytes / ms / 1e6})
        print(f"r={r} w={w}  {nbytes / 2**20:8.0f} MiB  {ms:8.3f} ms  {nbytes / ms / 1e6:7.0f} GB/s")
    t0, bw, worst = fit_bandwidth([(p["bytes"], p["ms"]) for p in result["bandwidth"]])
    result["fit"] = {"t0_ms": t0, "GBps": bw / 1e6, "worst_rel_residual": worst}
    print(f"fit: t = {t0:.3f} ms + bytes / ({bw / 1e6:.0f} GB/s); worst relative residual {worst:.1%}")

    for op in OPS:
        series = []
        for k in ks:
            ms = runner.time_ms(1, 1, k, op)
            series.append((k, ms))
            print(f"op={op:3s} k={k:4d}  {ms:8.3f} ms  x{ms / series[0][1]:.2f}")
        kf = k_free(series, args.tol)
        result["compute"][op] = {
            "series": [{"k": k, "ms": ms} for k, ms in series],
            "k_free": kf,
            "free_ops_per_access": kf / 2,  # (r + w) = 2 element accesses per output element
        }
        print(f"op={op}: k_free = {kf} (time within {args.tol:.0%} of k = 1); {kf / 2:g} ops per element access")
    return result


def plot(result, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4))
    bws = result["bandwidth"]
    a.scatter([p["bytes"] / 2**30 for p in bws], [p["ms"] for p in bws])
    for p in bws:
        a.annotate(f"r{p['r']}w{p['w']}", (p["bytes"] / 2**30, p["ms"]), fontsize=7)
    a.set_xlabel("bytes moved (GiB)")
    a.set_ylabel("kernel time (ms)")
    a.set_title(f"k = 1: {result['fit']['GBps']:.0f} GB/s fit", fontsize=9)
    for op, c in result["compute"].items():
        s = c["series"]
        b.plot([p["k"] for p in s], [p["ms"] / s[0]["ms"] for p in s], marker="o", label=f"{op} (k_free {c['k_free']})")
    b.axhline(1 + result["tol"], color="0.7", ls="--", lw=0.8)
    b.set_xscale("log", base=2)
    b.set_xlabel("ops in the fused chain (k), r = w = 1")
    b.set_ylabel("time / time at k = 1")
    b.legend(fontsize=8)
    fig.suptitle(f"{result['device_name']}, torch {result['torch']}, triton {result['triton']}, {result['date_utc']}", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="2**24 elements, k in (1, 4, 16, 64)")
    p.add_argument("--interpret", action="store_true", help="CPU: check the kernels with Triton's interpreter")
    p.add_argument("--numel", type=int)
    p.add_argument("--tol", type=float, default=0.10, help="slowdown that still counts as free")
    p.add_argument("--json")
    p.add_argument("--plot")
    args = p.parse_args(argv)
    if args.interpret:
        os.environ["TRITON_INTERPRET"] = "1"  # read when triton is imported
    reason = unsupported_reason(args.interpret)
    if reason is not None:
        print(f"calibrate_triton.py: needs a CUDA GPU and Triton: {reason}. "
              "Nothing was measured; GPU calibration results are pending.", file=sys.stderr)
        return EXIT_UNSUPPORTED
    result = run(args)
    if args.json:
        write_json(args.json, result)
    if args.plot and not args.interpret:
        plot(result, args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
