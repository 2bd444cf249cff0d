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
import math
import os
from dataclasses import dataclass
from typing import Any

__all__ = ["PRESETS", "Device", "resolve_device"]


@dataclass(frozen=True)
class Device:
    """Costs of one machine's kernels; every field is validated (``ValueError`` naming it)."""

    name: str
    bandwidth: float
    """Bytes per second a fused memory-bound kernel moves (reads plus writes). Range: > 0."""
    kernel_overhead: float
    """Seconds per kernel launch. Range: >= 0."""
    pointwise_op_time: float
    """Seconds per element of one more simple pointwise op (add, mul, where, compare) once the
    kernel's memory traffic no longer hides it. Range: >= 0."""
    transcendental_op_time: float
    """Seconds per element of one more transcendental op (exp, log, sin, tanh, erf, pow, ...)
    once the kernel's memory traffic no longer hides it. Range: >= 0."""
    matmul_flops: float
    """Floating-point operations per second of matmuls and convolutions. Range: > 0."""
    hidden_pointwise_ops: float = 64.0
    """Pointwise ops per element a memory-bound float32 copy hides (measured). Range: >= 0."""
    hidden_transcendental_ops: float = 1.0
    """Transcendental ops per element a memory-bound float32 copy hides. Range: >= 0."""
    source: str = ""
    """Where the numbers come from (a preset's measurement, a calibration's date and host)."""
    host_bandwidth: float | None = None
    """Bytes per second a pinned copy moves between device and host memory, each way (the
    slower direction). ``None``: no host link, nothing is offloaded (a CPU device).
    Range: ``None`` or a finite number > 0."""
    offload_hidden: float = 0.0
    """Fraction of a transfer's time the compute hides when the transfer can overlap it (a
    side stream: torch's ``activation_offload_separate_stream`` with ``sink_wait`` in the
    forward, ``activation_reload_prefetch`` in the backward). PyTorch's synchronous
    ``device_put`` hides nothing, whatever this says (``offload.Overlap``).
    Range: ``[0, 1]``."""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"Device: name = {self.name!r} is invalid; expected a non-empty "
                             "string")
        for field, positive in (("bandwidth", True), ("kernel_overhead", False),
                                ("pointwise_op_time", False), ("transcendental_op_time", False),
                                ("matmul_flops", True), ("hidden_pointwise_ops", False),
                                ("hidden_transcendental_ops", False)):
            value = getattr(self, field)
            ok = isinstance(value, (int, float)) and not isinstance(value, bool) \
                and math.isfinite(value) and (value > 0 if positive else value >= 0)
            if not ok:
                valid = "a finite number > 0" if positive else "a finite number >= 0"
                raise ValueError(f"Device: {field} = {value!r} is invalid; expected {valid}")
        if not isinstance(self.source, str):
            raise ValueError(f"Device: source = {self.source!r} is invalid; expected a string")
        link = self.host_bandwidth
        if link is not None and not (_is_finite(link) and link > 0):
            raise ValueError(f"Device: host_bandwidth = {link!r} is invalid; expected None (no "
                             "host link) or a finite number > 0 (bytes/s each way)")
        hidden = self.offload_hidden
        if not (_is_finite(hidden) and 0 <= hidden <= 1):
            raise ValueError(f"Device: offload_hidden = {hidden!r} is invalid; expected a "
                             "number in [0, 1] (the fraction of a transfer compute hides)")

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
        unknown = sorted(set(data) - set(_FIELDS))
        if unknown:
            raise ValueError(f"{origin}: unknown field {unknown[0]!r}; valid fields are "
                             f"{', '.join(_FIELDS)}")
        try:
            return cls(**data)
        except (TypeError, ValueError) as e:
            raise ValueError(f"{origin}: {e}") from None

    @classmethod
    def load(cls, path: str | os.PathLike) -> Device:
        """Read a profile written by ``python -m fusioncut calibrate --out PATH``."""
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
        except FileNotFoundError:
            raise ValueError(f"Device.load: no profile at {os.fspath(path)!r}") from None
        except json.JSONDecodeError as e:
            raise ValueError(f"Device.load: {os.fspath(path)!r} is not JSON: {e}") from None
        if isinstance(data, dict) and "device" in data and isinstance(data["device"], dict):
            data = data["device"]  # a calibration report: the profile is one of its keys
        return cls.from_dict(data, origin=f"Device.load({os.fspath(path)!r})")

    def save(self, path: str | os.PathLike) -> None:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(self.to_dict(), f, indent=1)
            f.write("\n")


def _is_finite(value: object) -> bool:
    """A real number (not a bool) that float64 holds and that is neither NaN nor infinite."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return False
    try:
        return math.isfinite(float(value))
    except OverflowError:  # an int beyond float64
        return False


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
# offload_hidden = 0.9 is an assumption, not a measurement: torch's overlap settings (side
# stream, sink_wait, prefetch) ran an example step only 2.2% slower than without offloading
# (pytorch/pytorch#168316: 160.86 vs 157.42 ms), but that report gives neither the bytes moved
# nor the GPU, so no fraction follows from it. `python -m fusioncut calibrate --device cuda`
# measures both on the machine at hand.
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
    if isinstance(device, (str, os.PathLike)):
        text = os.fspath(device)
        preset = PRESETS.get(text.strip().lower())  # "H100", "cpu " name presets too
        if preset is not None:
            return preset
        if text.endswith(".json") or os.path.sep in text or os.path.exists(text):
            return Device.load(text)
        near = difflib.get_close_matches(text.strip().lower(), PRESETS, n=1, cutoff=0.5)
        raise ValueError(f"{function}: device = {text!r} is not a preset ({', '.join(PRESETS)})"
                         f" nor a profile file" + (f"; did you mean {near[0]!r}?" if near else ""))
    raise ValueError(f"{function}: device = {device!r} is invalid; expected None, a preset "
                     f"name ({', '.join(PRESETS)}), a profile path or a fusioncut.Device")
