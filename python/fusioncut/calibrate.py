"""``python -m fusioncut calibrate``: measure this machine's kernel costs into a ``Device``.

Every kernel is what training would run: functions compiled by ``torch.compile`` (Inductor's
C++ kernels on the CPU, its Triton kernels on a CUDA GPU), timed after warm-up, the fastest
of repeats (load from other processes only ever adds time)::

    bandwidth       a fused copy y = x + 1 over a tensor far larger than the caches:
                    bytes (read + write) / time
    kernel_overhead the same kernel on 64 elements (launch and call overhead)
    pointwise       y = x * c1 * c2 * ... (k multiplications, constants that do not fold) for
                    k = 1, 2, 4, ... 64: hidden_pointwise_ops is the largest k within 10% of
                    k = 1, pointwise_op_time the slope per op and element beyond it
    transcendental  the same with k sins: hidden_transcendental_ops, transcendental_op_time
    matmul          torch.mm of two n x n float32 matrices: 2 n**3 / time
    host link       (CUDA only) a pinned copy of 256 MiB each way: host_bandwidth = bytes /
                    time of the slower direction; the device-to-host copy on a side stream
                    under a chain of matmuls at least as long: offload_hidden = the share of
                    the copy's time the overlap saved, (t_mm + t_copy - t_both) / t_copy.
                    A CPU device has no host link (host_bandwidth None).

The result is printed and, with ``--out PATH``, written as a profile that
``Options(device=PATH)`` reads.
"""

from __future__ import annotations

import datetime
import math
import platform
import time
from dataclasses import dataclass, field

import torch

from fusioncut.device import Device

__all__ = ["Calibration", "calibrate"]

_KS = (1, 2, 4, 8, 16, 32, 64)
_TOL = 0.10


@dataclass
class Calibration:
    device: Device
    chain_seconds: dict[str, dict[int, float]]  # op -> k -> fastest seconds
    numel: int
    note: str
    host_seconds: dict[str, float] = field(default_factory=dict)
    """CUDA: fastest seconds of "d2h", "h2d" (the pinned copies), "matmuls" and "overlapped"
    (the copy on a side stream under the matmuls); empty on the CPU."""


def _sync(dev: torch.device) -> None:
    if dev.type == "cuda":
        torch.cuda.synchronize(dev)


def _best_time(fn, dev: torch.device, repeats: int) -> float:
    """The fastest of ``repeats`` runs after warm-up: the kernel's own time (other load on the
    machine only ever adds to it)."""
    for _ in range(3):
        fn()
    _sync(dev)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        _sync(dev)
        times.append(time.perf_counter() - t0)
    return min(times)


def _chain(op: str, k: int):
    def f(x):
        for j in range(k):
            x = x * (1.0 + 1e-6 if j % 2 == 0 else 1.0 - 1e-6) if op == "mul" else torch.sin(x)
        return x

    return f


def _fit_chain(times: dict[int, float], numel: int) -> tuple[float, float]:
    """(hidden ops, seconds per op and element beyond them). A longer chain never runs
    faster than a shorter one: the times are made non-decreasing in k first."""
    running = 0.0
    times = {k: (running := max(running, times[k])) for k in sorted(times)}
    base = times[1]
    hidden = max(k for k, t in times.items() if t <= base * (1 + _TOL)) if times else 1
    ks = sorted(times)
    big = ks[-1]
    mid = max((k for k in ks if k < big and k >= hidden), default=ks[0])
    if big == mid:
        return float(hidden), 0.0
    slope = max(0.0, (times[big] - times[mid]) / ((big - mid) * numel))
    return float(hidden), slope


_HOST_BYTES = 256 * 2**20


def _host_link(dev: torch.device, repeats: int, log) -> tuple[float | None, float,
                                                                dict[str, float]]:
    """``(host_bandwidth, offload_hidden, seconds)`` of pinned copies (see the module
    docstring); ``(None, 0.0, {})`` on a CPU device, which has no host link."""
    if dev.type != "cuda":
        return None, 0.0, {}
    numel = _HOST_BYTES // 4
    on_device = torch.empty(numel, device=dev)
    on_host = torch.empty(numel, pin_memory=True)
    t_d2h = _best_time(lambda: on_host.copy_(on_device, non_blocking=True), dev, repeats)
    t_h2d = _best_time(lambda: on_device.copy_(on_host, non_blocking=True), dev, repeats)
    a = torch.randn(4096, 4096, device=dev)
    t_one = _best_time(lambda: torch.mm(a, a), dev, repeats)
    k = max(1, math.ceil(t_d2h / t_one))  # at least as much compute as copy to hide it under

    def matmuls():
        for _ in range(k):
            torch.mm(a, a)

    side = torch.cuda.Stream(dev)
    main = torch.cuda.current_stream(dev)

    def overlapped():
        side.wait_stream(main)
        with torch.cuda.stream(side):
            on_host.copy_(on_device, non_blocking=True)
        matmuls()
        main.wait_stream(side)

    t_mm = _best_time(matmuls, dev, repeats)
    t_both = _best_time(overlapped, dev, repeats)
    bandwidth = _HOST_BYTES / max(t_d2h, t_h2d)
    hidden = min(1.0, max(0.0, (t_mm + t_d2h - t_both) / t_d2h))
    log(f"  pinned copies of {_HOST_BYTES >> 20} MiB: device to host {t_d2h * 1e3:.2f} ms, "
        f"host to device {t_h2d * 1e3:.2f} ms ({bandwidth / 1e9:.1f} GB/s each way); under "
        f"{k} matmuls ({t_mm * 1e3:.2f} ms) the copy added {(t_both - t_mm) * 1e3:.2f} ms: "
        f"{hidden:.0%} hidden")
    return bandwidth, hidden, {"d2h": t_d2h, "h2d": t_h2d, "matmuls": t_mm,
                               "overlapped": t_both}


def calibrate(device: str = "cpu", *, quick: bool = False, numel: int | None = None,
              log=print) -> Calibration:
    """Measure ``device`` ("cpu" or "cuda") and return its ``Device`` profile; ``numel``
    overrides the elements per pointwise kernel (it must dwarf the caches to measure memory
    bandwidth)."""
    if device not in ("cpu", "cuda"):
        raise ValueError(f"calibrate: device = {device!r} is invalid; expected 'cpu' or 'cuda'")
    dev = torch.device(device)
    if dev.type == "cuda" and not torch.cuda.is_available():
        raise ValueError("calibrate: device = 'cuda' but CUDA is not available")
    repeats = 5 if quick else 15
    if numel is None:
        numel = (1 << 22 if quick else 1 << 24) if dev.type == "cpu" else 1 << 27
    elif isinstance(numel, bool) or not isinstance(numel, int) or not 1024 <= numel <= 1 << 31:
        raise ValueError(f"calibrate: numel = {numel!r} is invalid; expected an int in "
                         f"[1024, 2**31]")
    x = torch.randn(numel, device=dev)

    copy = torch.compile(lambda t: t + 1.0, dynamic=False)
    t_copy = _best_time(lambda: copy(x), dev, repeats)
    bandwidth = 2 * 4 * numel / t_copy
    small = torch.randn(64, device=dev)
    tiny = torch.compile(lambda t: t + 1.0, dynamic=False)
    overhead = _best_time(lambda: tiny(small), dev, repeats * 10)
    log(f"  copy of {numel} float32: {t_copy * 1e3:.2f} ms, bandwidth {bandwidth / 1e9:.1f} GB/s; "
        f"a 64-element kernel {overhead * 1e6:.1f} us")

    chains: dict[str, dict[int, float]] = {}
    ks = _KS[:5] if quick else _KS
    for op in ("mul", "sin"):
        chains[op] = {}
        for k in ks:
            torch.compiler.reset()  # a fresh compile per chain (no recompile limit)
            fn = torch.compile(_chain(op, k), dynamic=False)
            chains[op][k] = _best_time(lambda: fn(x), dev, repeats)
        log(f"  {op} chains: " + ", ".join(f"k={k} {t * 1e3:.2f} ms" for k, t in chains[op].items()))
    hidden_mul, t_mul = _fit_chain(chains["mul"], numel)
    hidden_sin, t_sin = _fit_chain(chains["sin"], numel)

    n = 1024 if quick or dev.type == "cpu" else 8192
    a = torch.randn(n, n, device=dev)
    b = torch.randn(n, n, device=dev)
    t_mm = _best_time(lambda: torch.mm(a, b), dev, max(3, repeats // 3))
    flops = 2 * n ** 3 / t_mm
    log(f"  mm {n}x{n}: {t_mm * 1e3:.2f} ms, {flops / 1e9:.1f} GFLOP/s")

    host_bandwidth, offload_hidden, host_seconds = _host_link(dev, repeats, log)

    name = (torch.cuda.get_device_name(dev) if dev.type == "cuda"
            else platform.processor() or platform.machine())
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    profile = Device(
        name=f"calibrated-{dev.type}", bandwidth=bandwidth, kernel_overhead=overhead,
        pointwise_op_time=t_mul, transcendental_op_time=t_sin, matmul_flops=flops,
        hidden_pointwise_ops=hidden_mul, hidden_transcendental_ops=hidden_sin,
        host_bandwidth=host_bandwidth, offload_hidden=offload_hidden,
        source=f"python -m fusioncut calibrate on {name}, {torch.get_num_threads()} threads, "
               f"torch {torch.__version__}, {when}")
    return Calibration(device=profile, chain_seconds=chains, numel=numel,
                       note=f"{numel} float32 elements per pointwise kernel",
                       host_seconds=host_seconds)
