"""``Device``: what a training step's kernels cost on one machine, in seconds.

The cost model of ``cost.py`` counts bytes moved between forward and backward. Pointwise
recomputation inside a fused kernel is free only while the kernel stays memory bound; a
``Device`` says when it stops being free, and what recomputing anything else costs::

    moving bytes            t = bytes / bandwidth
    a kernel launch         t = kernel_overhead
    pointwise ops           t = elements x pointwise_op_time          (add, mul, where, ...)
    transcendental ops      t = elements x transcendental_op_time     (exp, sin, tanh, erf, ...)
    matmul / convolution    t = flops / matmul_flops
    offloading to the host  t = bytes / host_bandwidth each way, of which the fraction
                            offload_hidden runs under compute when the transfer can overlap
                            it (``offload.py``; no host link: no offloading)

A memory-bound kernel moving ``M`` bytes per element hides ``M / bandwidth`` seconds of
arithmetic per element: ``hidden_pointwise_ops`` and ``hidden_transcendental_ops`` record how
many ops of each class fit in the shadow of the 8 bytes per element (4 read, 4 written) of a
float32 copy, as measured; the op times are the marginal cost of one more op once the shadow
is full (the calibration's slope). The presets come from measurements: ``"h100"`` from
``../shared/gpu-h100-2026-11-22.md`` (Triton kernels on one H100), ``"cpu"`` from this
project's 2-core build machine (Inductor's C++ kernels, one thread). ``python -m fusioncut
calibrate`` measures the machine it runs on and writes a profile that ``Device.load`` reads.

Nothing here imports torch: a profile is data.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import os
from dataclasses import dataclass
from typing import Any

from fusioncut._files import FileProblem, atomic_output, read_text
from fusioncut._validate import check_number, plain_number, shown

__all__ = ["PRESETS", "Device", "resolve_device"]

MAX_PROFILE_BYTES = 1 << 20
"""A profile is a few hundred bytes; ``Device.load`` refuses files larger than this."""

# Every numeric field's range, in its unit. Far wider than any machine, and narrow enough that
# the cost model's products (seconds x bandwidth over int64 element and byte counts) stay
# finite floats: a recompute price never overflows to inf or NaN. A new field adds a row.
FIELD_BOUNDS: dict[str, tuple[float, float]] = {
    "bandwidth": (1.0, 1e18),                # bytes/s: 1 B/s .. 1 EB/s
    "kernel_overhead": (0.0, 60.0),          # seconds per launch
    "pointwise_op_time": (0.0, 1.0),         # seconds per element
    "transcendental_op_time": (0.0, 1.0),    # seconds per element
    "matmul_flops": (1.0, 1e21),             # FLOP/s: 1 .. a zettaFLOP/s
    "hidden_pointwise_ops": (0.0, 1e6),      # ops per element
    "hidden_transcendental_ops": (0.0, 1e6),  # ops per element
}


@dataclass(frozen=True)
class Device:
    """Costs of one machine's kernels; every field is validated (``ValueError`` naming it)."""

    name: str
    bandwidth: float
    """Bytes per second a fused memory-bound kernel moves (reads plus writes). Range:
    [1, 1e18]."""
    kernel_overhead: float
    """Seconds per kernel launch. Range: [0, 60]."""
    pointwise_op_time: float
    """Seconds per element of one more simple pointwise op (add, mul, where, compare) once the
    kernel's memory traffic no longer hides it. Range: [0, 1]."""
    transcendental_op_time: float
    """Seconds per element of one more transcendental op (exp, log, sin, tanh, erf, pow, ...)
    once the kernel's memory traffic no longer hides it. Range: [0, 1]."""
    matmul_flops: float
    """Floating-point operations per second of matmuls and convolutions. Range: [1, 1e21]."""
    hidden_pointwise_ops: float = 64.0
    """Pointwise ops per element a memory-bound float32 copy hides (measured). Range:
    [0, 1e6]."""
    hidden_transcendental_ops: float = 1.0
    """Transcendental ops per element a memory-bound float32 copy hides. Range: [0, 1e6]."""
    source: str = ""
    """Where the numbers come from (a preset's measurement, a calibration's date and host)."""
    host_bandwidth: float | None = None
    """Bytes per second a pinned copy moves between device and host memory, each way (the
    slower direction). ``None``: no host link, nothing is offloaded (a CPU device).
    Range: ``None`` or [1, 1e18] (``FIELD_BOUNDS["bandwidth"]``)."""
    offload_hidden: float = 0.0
    """Fraction of a transfer's time the compute hides when the transfer can overlap it (a
    side stream: torch's ``activation_offload_separate_stream``, whose forward waits fusioncut
    paces or torch sinks, with ``activation_reload_prefetch`` in the backward). PyTorch's synchronous
    ``device_put`` hides nothing, whatever this says (``offload.Overlap``).
    Range: ``[0, 1]``."""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"Device: name = {shown(self.name)} is invalid; expected a "
                             "non-empty string")
        for field in (*FIELD_BOUNDS, "host_bandwidth", "offload_hidden"):
            object.__setattr__(self, field, plain_number(getattr(self, field)))
        for field, (lo, hi) in FIELD_BOUNDS.items():
            check_number("Device", field, getattr(self, field), lo, hi)
        if not isinstance(self.source, str):
            raise ValueError(f"Device: source = {shown(self.source)} is invalid; expected a "
                             "string")
        if self.host_bandwidth is not None:
            check_number("Device", "host_bandwidth", self.host_bandwidth,
                         *FIELD_BOUNDS["bandwidth"], valid="None (no host link) or a number "
                         "in [1, 1e+18] (bytes/s each way)")
        check_number("Device", "offload_hidden", self.offload_hidden, 0, 1,
                     valid="a number in [0, 1] (the fraction of a transfer compute hides)")

    # -- the model ---------------------------------------------------------------------------

    def seconds_per_byte(self) -> float:
        return 1.0 / self.bandwidth

    def byte_equivalents(self, seconds: float) -> float:
        """Seconds as the bytes the device moves in that time (the min cut's unit)."""
        return seconds * self.bandwidth

    @property
    def has_host_link(self) -> bool:
        """Whether values can be offloaded to host memory (``host_bandwidth`` is set)."""
        return self.host_bandwidth is not None

    # -- profiles ------------------------------------------------------------------------------

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Any, origin: str = "profile") -> Device:
        """A ``Device`` from a profile's fields; a missing, unknown or nonsensical field is a
        ``ValueError`` naming it and its valid range."""
        if not isinstance(data, dict):
            raise ValueError(f"{origin}: expected a JSON object with the fields "
                             f"{', '.join(_FIELDS)}; got {type(data).__name__}")
        missing = [f for f in _REQUIRED if f not in data]
        if missing:
            raise ValueError(f"{origin}: missing field {missing[0]!r} (a device profile has "
                             f"{', '.join(_REQUIRED)}; see fusioncut.Device)")
        unknown = sorted(set(data) - set(_FIELDS), key=str)
        if unknown:
            raise ValueError(f"{origin}: unknown field {shown(unknown[0])}; valid fields are "
                             f"{', '.join(_FIELDS)}")
        try:
            return cls(**data)
        except (TypeError, ValueError) as e:
            raise ValueError(f"{origin}: {e}") from None

    @classmethod
    def load(cls, path: str | os.PathLike) -> Device:
        """Read a profile written by ``python -m fusioncut calibrate --out PATH``.

        Rejects, as a ``ValueError`` naming the profile: a path that does not exist, is a
        directory, a pipe or a device, cannot be opened or read (a symlink loop, no
        permission, ``/proc/self/mem``), contains a NUL byte or is too long; a file larger
        than 1 MiB, not UTF-8, not JSON (or nested too deeply to parse), or whose fields are
        missing, unknown or out of range (see ``Device``)."""
        return _load(path, f"Device.load({_path_text(path)})")

    def save(self, path: str | os.PathLike) -> None:
        """Write the profile as JSON; the file is replaced only once it is complete, so a
        failed write leaves it as it was. Raises ``ValueError`` (a path that is a directory,
        a pipe, ...) or ``OSError`` (the write failed), naming the path."""
        origin = f"Device.save({_path_text(path)})"
        try:
            with atomic_output(path) as temp, open(temp, "w", encoding="utf-8") as f:
                json.dump(self.to_dict(), f, indent=1)
                f.write("\n")
        except FileProblem as e:
            raise ValueError(f"{origin}: the path {e}") from None
        except OSError as e:
            raise OSError(e.errno, f"{origin}: the profile cannot be written "
                                   f"({e.strerror or e})") from None


def _path_text(path: Any) -> str:
    try:
        return repr(os.fspath(path))  # whole: a path is the user's to recognise
    except TypeError:
        return shown(path)


def _load(path: Any, origin: str) -> Device:
    """The one place a profile is opened and parsed; every failure names ``origin``."""
    try:
        data = json.loads(read_text(path, MAX_PROFILE_BYTES))
    except FileProblem as e:
        raise ValueError(f"{origin}: the profile {e}") from None
    except RecursionError:
        raise ValueError(f"{origin}: the profile is JSON nested too deeply to be a device "
                         "profile") from None
    except ValueError as e:  # JSONDecodeError, an integer of more than 4,300 digits
        raise ValueError(f"{origin}: the profile is not JSON ({e})") from None
    if isinstance(data, dict) and "device" in data and isinstance(data["device"], dict):
        data = data["device"]  # a calibration report: the profile is one of its keys
    return Device.from_dict(data, origin=origin)


_FIELDS = tuple(f.name for f in dataclasses.fields(Device))
_REQUIRED = tuple(f.name for f in dataclasses.fields(Device)
                  if f.default is dataclasses.MISSING)

# H100 (shared/gpu-h100-2026-11-22.md): t = 4 us + bytes / 2,921 GB/s; 64 extra muls per
# element free; sin: 1 free, 4 cost 1.40x and 16 cost 5.9x the kernel (8 bytes per element),
# a slope of (5.9 - 1.4) / 12 kernel times per sin: 0.375 x 8 B / 2.921e12 B/s = 1.03 ps.
# A mul is hidden 64 times over: 8 B / 2.921e12 / 64 = 0.043 ps. Matmuls: the H100's dense
# TF32 tensor-core rate, discounted to what cuBLAS sustains (~400 TFLOP/s).
# Host link, PCIe Gen5 x16: not measured by this project. The theoretical rate is 32 GT/s x 16
# lanes x 128/130 = 63.0 GB/s each way; the preset takes torch's own planning figure,
# torch._functorch.config.activation_offload_cpu_gpu_bw = 50.0, which torch's prefetch pass
# reads as GiB/s (bytes / 1024**3 / bw): 50 x 2**30 = 53.7 GB/s, 85% of the theoretical rate.
# offload_hidden = 0.9 was an assumption: torch's overlap settings (side stream, sink_wait,
# prefetch) ran an example step only 2.2% slower than without offloading
# (pytorch/pytorch#168316: 160.86 vs 157.42 ms), a report with neither the bytes moved nor the
# GPU. `python -m fusioncut calibrate --device cuda` on an H100 (2026-11-27, torch 2.11,
# bench/recorded/gpu-h100-2026-11-27/h100.json) then measured 54.7 GB/s each way for a pinned
# 256 MiB copy and 92.5% of a device-to-host copy hidden under two matmuls on a side stream:
# both within 3% of the preset, which is kept as it was.
_H100 = Device(
    name="h100", bandwidth=2.921e12, kernel_overhead=4e-6, pointwise_op_time=4.3e-14,
    transcendental_op_time=1.03e-12, matmul_flops=4.0e14, hidden_pointwise_ops=64.0,
    hidden_transcendental_ops=1.0,
    source="shared/gpu-h100-2026-11-22.md: Triton pointwise kernels on one H100 (torch 2.11, "
           "triton 3.6); matmul rate nominal; host link torch's activation_offload_cpu_gpu_bw "
           "default (50 GiB/s), overlap assumed (0.9)",
    host_bandwidth=50.0 * 2**30, offload_hidden=0.9)

# CPU: this project's 2-core Intel Xeon build machine, 2 threads, Inductor's C++ kernels:
# `python -m fusioncut calibrate --device cpu` on 2026-11-23 measured a 64 MiB copy at 7.5 GB/s,
# 19 us per kernel call, 4 extra muls per element hidden then 0.024 ns each, 1 sin hidden then
# 0.51 ns each, and 268 GFLOP/s on a 1024 x 1024 matmul. No host link: the device's memory is
# the host's, so there is nothing to offload to.
_CPU = Device(
    name="cpu", bandwidth=7.5e9, kernel_overhead=1.9e-5, pointwise_op_time=2.4e-11,
    transcendental_op_time=5.1e-10, matmul_flops=2.68e11, hidden_pointwise_ops=4.0,
    hidden_transcendental_ops=1.0,
    source="python -m fusioncut calibrate --device cpu on the project's 2-core Intel Xeon, "
           "2 threads, torch 2.13.0+cpu, 2026-11-23")


PRESETS: dict[str, Device] = {d.name: d for d in (_H100, _CPU)}
"""Named device profiles: ``Options(device="h100")``."""


def resolve_device(device: Any, function: str = "Options") -> Device | None:
    """``None``, a preset name, a profile path or a ``Device`` -> a ``Device`` (or None)."""
    if device is None or isinstance(device, Device):
        return device
    if isinstance(device, (str, bytes, os.PathLike)):
        try:
            text = os.fsdecode(os.fspath(device))  # a bytes path is a path too
        except TypeError:  # a __fspath__ that returns neither str nor bytes
            raise ValueError(f"{function}: device = {shown(device)} is invalid; its "
                             "__fspath__ returns no path") from None
        preset = PRESETS.get(text.strip().lower())  # "H100", "cpu " name presets too
        if preset is not None:
            return preset
        if text.endswith(".json") or os.path.sep in text or os.path.exists(text):
            return _load(text, f"{function}: device = {text!r}")
        near = difflib.get_close_matches(text.strip().lower(), PRESETS, n=1, cutoff=0.5)
        raise ValueError(f"{function}: device = {shown(text)} is not a preset "
                         f"({', '.join(PRESETS)}) nor a profile file"
                         + (f"; did you mean {near[0]!r}?" if near else ""))
    raise ValueError(f"{function}: device = {shown(device)} is invalid; expected None, a "
                     f"preset name ({', '.join(PRESETS)}), a profile path or a "
                     "fusioncut.Device")
