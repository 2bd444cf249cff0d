"""Helpers the benchmarks share: tables, timing, JSON output and the record of the machine.

Used by bench_solver.py, bench_partition.py and bench/train/. Nothing here imports torch or
fusioncut at module level, so the max-flow benchmark runs without torch.
"""

from __future__ import annotations

import datetime
import gc
import importlib
import importlib.util
import json
import os
import platform
import shutil
import subprocess
import time

__all__ = ["cpu_model", "environment", "fusioncut_build", "markdown_table", "module_versions",
           "timed", "write_json"]


def markdown_table(header: list[str], rows: list[list[str]]) -> str:
    """A markdown table with columns padded to their widest cell."""
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(header)]
    line = lambda cells: "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths)) + " |"  # noqa: E731
    sep = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([line(header), sep, *(line(row) for row in rows)])


def timed(fn, *args, collect: bool = False, **kwargs):
    """``(fn(*args, **kwargs), seconds)`` with the cyclic garbage collector off during the call;
    ``collect`` runs one collection first (one takes ~0.2 s once torch is loaded, so callers
    that time many calls collect once per round instead)."""
    if collect:
        gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        result = fn(*args, **kwargs)
        return result, time.perf_counter() - start
    finally:
        gc.enable()


def write_json(path: str, report: dict) -> None:
    """Writes ``report`` to ``path`` (folders created), one space of indent; values JSON does
    not know (tuples aside) are written as ``str``."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as out:
        json.dump(report, out, indent=1, default=str)


def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo, else what ``platform`` knows."""
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def fusioncut_build() -> dict:
    """Which fusioncut was measured: the repository commit and the extension's build time."""
    build: dict = {}
    try:
        build["git_head"] = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=os.path.dirname(os.path.abspath(__file__)),
            capture_output=True, text=True, check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        pass
    try:
        import fusioncut._core as core

        mtime = os.path.getmtime(core.__file__)
        build["core_built"] = datetime.datetime.fromtimestamp(
            mtime, datetime.timezone.utc
        ).isoformat(timespec="seconds")
    except (ImportError, OSError):
        pass
    return build


def module_versions(*names: str) -> dict:
    """``{name: __version__}`` for each importable module (``"?"`` without a version), None
    for those not installed."""
    versions = {}
    for name in names:
        try:
            versions[name] = getattr(importlib.import_module(name), "__version__", "?")
        except ImportError:
            versions[name] = None
    return versions


def _nvidia_driver() -> str | None:
    """The NVIDIA driver version: nvidia-smi, else /proc/driver/nvidia/version."""
    smi = shutil.which("nvidia-smi")
    if smi:
        try:
            out = subprocess.run([smi, "--query-gpu=driver_version", "--format=csv,noheader"],
                                 capture_output=True, text=True, timeout=20, check=True)
            first = out.stdout.strip().splitlines()
            if first:
                return first[0].strip()
        except (OSError, subprocess.SubprocessError):
            pass
    try:
        with open("/proc/driver/nvidia/version") as f:
            line = f.readline()
        for word in line.split():
            if word[:1].isdigit() and "." in word:
                return word
    except OSError:
        pass
    return None


def environment(device: str = "cpu") -> dict:
    """What produced a result: date, machine, versions (Python, torch, Triton, CUDA, cuDNN,
    NVIDIA driver, fusioncut and its build), the device's name and memory, CPU model, cores,
    torch's intra-op threads and the load average. torch is optional."""
    env: dict = {
        "date_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "cpu_model": cpu_model(),
        "cpu_count": os.cpu_count(),
        "loadavg": os.getloadavg(),
        "device": device,
        "device_name": cpu_model(),
        "fusioncut_build": fusioncut_build(),
    }
    env.update(module_versions("fusioncut", "torch", "numpy"))
    env["triton"] = (module_versions("triton")["triton"]
                     if importlib.util.find_spec("triton") is not None else None)
    if env["torch"] is None:
        return env
    import torch

    env["torch_threads"] = torch.get_num_threads()
    env["cuda"] = torch.version.cuda
    env["cudnn"] = None
    env["driver"] = None
    if device.startswith("cuda") and torch.cuda.is_available():
        dev = torch.device(device)
        props = torch.cuda.get_device_properties(dev)
        env.update(
            device_name=torch.cuda.get_device_name(dev),
            device_memory_bytes=int(props.total_memory),
            device_capability=f"{props.major}.{props.minor}",
            cudnn=torch.backends.cudnn.version(),
            driver=_nvidia_driver(),
            tf32_matmul=bool(torch.backends.cuda.matmul.allow_tf32),
            tf32_cudnn=bool(torch.backends.cudnn.allow_tf32),
        )
    return env
