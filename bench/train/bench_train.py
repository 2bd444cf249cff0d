"""Training-step benchmark: eager vs torch.compile under different partitioners (issue #6).

For every workload in ``train_models.WORKLOADS`` and every configuration

    eager               no compiler
    torch_default       torch.compile, ``custom_partitioner_fn = None``
                        (torch's ``min_cut_rematerialization_partition``)
    default_partition   torch.compile, torch's ``default_partition`` (saves what eager saves,
                        no recomputation), wrapped in a ``CustomPartitionerFn``
    fusioncut_runtime   torch.compile, ``fusioncut.InductorPartitioner(Options(mode="runtime"))``
    fusioncut_memory    torch.compile, ``fusioncut.InductorPartitioner(Options(mode="memory"))``

it measures, on one training step (``grad = None``; forward; ``out.backward(grad_out)`` with a
fixed random ``grad_out``; no optimizer, which no partitioner touches):

    step_ms            median over timed steps after warm-up (CUDA events on GPU)
    compile_s          wall time of the first step minus the median step: Dynamo, AOTAutograd,
                       partitioning and Inductor for forward and backward
    saved_bytes        bytes of the distinct storages autograd keeps between forward and
                       backward, seen by ``torch.autograd.graph.saved_tensors_hooks`` (same
                       method for every config, eager included)
    saved_act_bytes    the same without storages of parameters, buffers and inputs
    graph_saved_bytes  for custom partitioners: sum of the forward graph's saved outputs, as
                       the partitioner returned them (captured by wrapping it)
    partition_s        for custom partitioners: time inside the partitioner
    peak_bytes         GPU: ``torch.cuda.max_memory_allocated`` over one step, and the same
                       above the memory allocated before the step
    max_batch          GPU with ``--max-batch``: largest batch that runs (doubling, then bisection)
    grad_ok            gradients of inputs and parameters match eager (fp32; max-normalised
                       error <= --grad-tol), on the compile being timed. A random workload
                       with an oracle (dropout_mask) is checked against the oracle's exact
                       gradients for the step's own random numbers; one without is checked
                       in a second compile with ``fallback_random=True``, which reproduces
                       eager's random stream (but keeps ``rand`` as an aten op, where the
                       timed compile sees Inductor's seeded ``inductor_random``).

Caches never mix configurations: the FX graph cache and the AOTAutograd cache are disabled,
and every configuration compiles inside ``torch._inductor.utils.fresh_cache()`` (a new
Inductor cache dir, in-memory code caches cleared), after ``torch._dynamo.reset()``, on a fresh
``deepcopy`` of the model.

    python bench/train/bench_train.py --device cpu --json out.json --plot out.png
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import datetime
import gc
import inspect
import json
import math
import os
import platform
import resource
import statistics
import sys
import time
import traceback
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train_models import SIZES, WORKLOADS, Workload  # noqa: E402

CONFIGS = ("eager", "torch_default", "default_partition", "fusioncut_runtime", "fusioncut_memory")
BASELINE = "torch_default"


# --- torch internals the harness depends on (one place, so a torch upgrade breaks here) ------


def _torch_internals():
    from torch._functorch import config as functorch_config
    from torch._functorch.partitioners import default_partition
    from torch._inductor import config as inductor_config
    from torch._inductor.custom_graph_pass import CustomPartitionerFn
    from torch._inductor.utils import fresh_cache

    return functorch_config, inductor_config, default_partition, CustomPartitionerFn, fresh_cache


def fusioncut_unavailable_reason() -> str | None:
    """None when ``fusioncut.InductorPartitioner`` and ``fusioncut.Options`` can be used."""
    try:
        import fusioncut

        fusioncut.InductorPartitioner  # noqa: B018
        fusioncut.Options  # noqa: B018
    except Exception as exc:  # ImportError, AttributeError: the partitioner has not landed
        return f"fusioncut partitioner unavailable: {type(exc).__name__}: {exc}"
    return None


# --- partitioners ----------------------------------------------------------------------------


@dataclass
class PartitionRecord:
    """What one call of a wrapped partitioner produced."""

    seconds: float
    saved_count: int
    saved_bytes: int
    saved_input_bytes: int  # saved values that are forward inputs (placeholders)
    saved_names: list[str] = field(default_factory=list)


def _fake_nbytes(node) -> int | None:
    val = node.meta.get("val")
    if isinstance(val, torch.Tensor):
        try:
            return int(val.numel()) * val.element_size()
        except Exception:  # symbolic sizes
            return None
    return None


def record_forward_saved(fw_module, num_fwd_outputs: int, seconds: float) -> PartitionRecord:
    """Reads the saved values off the forward graph: outputs after the first ``num_fwd_outputs``."""
    out = next(n for n in reversed(fw_module.graph.nodes) if n.op == "output")
    saved = [a for a in out.args[0][num_fwd_outputs:] if a is not None]
    count = total = inputs = 0
    names = []
    for node in saved:
        nbytes = _fake_nbytes(node)
        if nbytes is None:
            continue  # SymInts
        count += 1
        total += nbytes
        names.append(node.name)
        if node.op == "placeholder":
            inputs += nbytes
    return PartitionRecord(seconds, count, total, inputs, names)


def make_recording_partitioner(fn: Callable, label: str):
    """A ``CustomPartitionerFn`` calling ``fn`` and recording the forward graph's saved values.

    ``uuid()`` is None, which tells Inductor to skip its code cache for graphs compiled with it.
    """
    _, _, _, CustomPartitionerFn, _ = _torch_internals()

    class RecordingPartitioner(CustomPartitionerFn):
        def __init__(self):
            self.label = label
            self.records: list[PartitionRecord] = []

        def __call__(self, gm, joint_inputs, **kwargs):
            t0 = time.perf_counter()
            fw, bw = fn(gm, joint_inputs, **kwargs)
            self.records.append(record_forward_saved(fw, kwargs["num_fwd_outputs"], time.perf_counter() - t0))
            return fw, bw

        def uuid(self):
            return None

    return RecordingPartitioner()


def _default_partition(gm, joint_inputs, **kwargs):
    """torch's ``default_partition`` takes no ``compiler=`` argument; pass what it accepts."""
    _, _, default_partition, _, _ = _torch_internals()
    accepted = inspect.signature(default_partition).parameters
    return default_partition(gm, joint_inputs, **{k: v for k, v in kwargs.items() if k in accepted})


def make_partitioner(config: str):
    """The ``custom_partitioner_fn`` for a compiled config (None for torch's default)."""
    if config == "torch_default":
        return None
    if config == "default_partition":
        return make_recording_partitioner(_default_partition, config)
    if config in ("fusioncut_runtime", "fusioncut_memory"):
        import fusioncut

        inner = fusioncut.InductorPartitioner(fusioncut.Options(mode=config.split("_", 1)[1]))
        return make_recording_partitioner(inner, config)
    raise ValueError(f"make_partitioner: config = {config!r} is not one of {CONFIGS[1:]}")


@contextlib.contextmanager
def compile_context(partitioner, *, fallback_random: bool = False, fresh: bool = True):
    """Inductor/AOTAutograd settings for one compiled configuration; caches cannot leak."""
    functorch_config, inductor_config, _, _, fresh_cache = _torch_internals()
    with contextlib.ExitStack() as stack:
        stack.enter_context(
            inductor_config.patch(
                custom_partitioner_fn=partitioner,
                fx_graph_cache=False,
                fx_graph_remote_cache=False,
                autotune_local_cache=False,
                autotune_remote_cache=False,
                fallback_random=fallback_random,
            )
        )
        stack.enter_context(
            functorch_config.patch(enable_autograd_cache=False, enable_remote_autograd_cache=False)
        )
        if fresh:
            stack.enter_context(fresh_cache())
        torch._dynamo.reset()
        try:
            yield
        finally:
            torch._dynamo.reset()


# --- one step and its measurements -----------------------------------------------------------


@dataclass
class Case:
    """A built workload: the module to copy, its inputs, the fixed output gradient."""

    workload: Workload
    module: torch.nn.Module
    inputs: tuple
    grad_out: torch.Tensor
    device: torch.device


def fresh_copy(case: Case):
    model = copy.deepcopy(case.module)
    inputs = tuple(
        x.detach().clone().requires_grad_(x.requires_grad) if isinstance(x, torch.Tensor) else x for x in case.inputs
    )
    return model, inputs


def grad_leaves(model, inputs):
    return [x for x in inputs if isinstance(x, torch.Tensor) and x.requires_grad] + [
        p for p in model.parameters() if p.requires_grad
    ]


def train_step(fn, inputs, leaves, grad_out):
    for t in leaves:
        t.grad = None
    out = fn(*inputs)
    out.backward(grad_out)
    return out


def _sync(device):
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def time_steps(fn, inputs, leaves, grad_out, device, warmup: int, steps: int) -> tuple[list[float], list[float] | None]:
    """Per-step milliseconds: (wall, cpu). Wall: CUDA events on GPU, perf_counter on CPU.
    cpu (CPU device only): ``time.thread_time`` of the calling thread, which with one intra-op
    thread is where the whole step runs, so time spent descheduled on a shared machine does
    not count; None on GPU."""
    for _ in range(warmup):
        train_step(fn, inputs, leaves, grad_out)
    _sync(device)
    wall, cpu = [], []
    for _ in range(steps):
        if device.type == "cuda":
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            train_step(fn, inputs, leaves, grad_out)
            end.record()
            end.synchronize()
            wall.append(start.elapsed_time(end))
        else:
            c0, t0 = time.thread_time(), time.perf_counter()
            train_step(fn, inputs, leaves, grad_out)
            wall.append((time.perf_counter() - t0) * 1e3)
            cpu.append((time.thread_time() - c0) * 1e3)
    return wall, (cpu if device.type != "cuda" else None)


def measure_saved(fn, model, inputs, leaves, grad_out) -> dict:
    """Distinct storages packed by autograd during one forward, via saved-tensor hooks."""
    exclude = {t.untyped_storage().data_ptr() for t in list(model.parameters()) + list(model.buffers())}
    exclude |= {x.untyped_storage().data_ptr() for x in inputs if isinstance(x, torch.Tensor)}
    seen: dict[int, int] = {}

    def pack(t):
        st = t.untyped_storage()
        seen[st.data_ptr()] = st.nbytes()
        return t

    for t in leaves:
        t.grad = None
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = fn(*inputs)
    out.backward(grad_out)
    act = {p: b for p, b in seen.items() if p not in exclude}
    return {
        "saved_count": len(seen),
        "saved_bytes": sum(seen.values()),
        "saved_act_count": len(act),
        "saved_act_bytes": sum(act.values()),
    }


def compare_grads(leaves, ref_grads) -> float:
    """Largest max-normalised gradient error over all leaves (inf on a missing/NaN grad)."""
    worst = 0.0
    for t, ref in zip(leaves, ref_grads, strict=True):
        if (t.grad is None) != (ref is None):
            return math.inf
        if ref is None:
            continue
        g = t.grad.detach().double()
        r = ref.double()
        err = (g - r).abs().max().item() / max(r.abs().max().item(), 1e-12)
        if not math.isfinite(err):
            return math.inf
        worst = max(worst, err)
    return worst


def peak_memory(fn, inputs, leaves, grad_out, device) -> dict:
    if device.type != "cuda":
        return {"peak_bytes": None, "peak_above_base_bytes": None}
    train_step(fn, inputs, leaves, grad_out)  # grads allocated, steady state
    _sync(device)
    base = torch.cuda.memory_allocated(device)
    torch.cuda.reset_peak_memory_stats(device)
    train_step(fn, inputs, leaves, grad_out)
    _sync(device)
    peak = torch.cuda.max_memory_allocated(device)
    return {"peak_bytes": peak, "peak_above_base_bytes": peak - base}


def _is_oom(exc: BaseException) -> bool:
    while exc is not None:
        if isinstance(exc, torch.OutOfMemoryError) or "out of memory" in str(exc).lower():
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def _free_cuda():
    gc.collect()
    if torch.cuda.is_available():
        torch.cuda.empty_cache()


# --- one configuration -----------------------------------------------------------------------


@dataclass
class RunOptions:
    device: torch.device
    size: str
    warmup: int
    steps: int
    grad_tol: float
    max_batch: bool
    max_batch_limit: int
    bisect_steps: int
    fresh_cache: bool = True


def _make_fn(config, model):
    if config == "eager":
        return model
    return torch.compile(model, backend="inductor", dynamic=False)


def _config_ctx(config, opts, fallback_random=False):
    if config == "eager":
        return contextlib.nullcontext(None)
    partitioner = make_partitioner(config)

    @contextlib.contextmanager
    def ctx():
        with compile_context(partitioner, fallback_random=fallback_random, fresh=opts.fresh_cache):
            yield partitioner

    return ctx()


def run_config(case: Case, config: str, opts: RunOptions, ref_grads, seed: int) -> dict:
    """Measures one (workload, config) pair; exceptions become ``status = "error: ..."``."""
    row: dict[str, Any] = {"model": case.workload.name, "config": config, "status": "ok"}
    caught = warnings.catch_warnings(record=True)
    seen = caught.__enter__()
    warnings.simplefilter("always")
    try:
        dev = opts.device
        # Gradient check. Random workloads: a separate compile with fallback_random so that
        # Inductor draws eager's random numbers; the joint graph (and so the partition) is the same.
        if case.workload.random and case.workload.oracle is None and config != "eager":
            with _config_ctx(config, opts, fallback_random=True):
                model, inputs = fresh_copy(case)
                fn, leaves = _make_fn(config, model), grad_leaves(model, inputs)
                train_step(fn, inputs, leaves, case.grad_out)
                torch.manual_seed(seed)
                train_step(fn, inputs, leaves, case.grad_out)
                row["grad_err"] = compare_grads(leaves, ref_grads)
                del model, inputs, fn, leaves

        with _config_ctx(config, opts) as partitioner:
            model, inputs = fresh_copy(case)
            fn, leaves = _make_fn(config, model), grad_leaves(model, inputs)
            _sync(dev)
            t0 = time.perf_counter()
            train_step(fn, inputs, leaves, case.grad_out)
            _sync(dev)
            first_s = time.perf_counter() - t0
            if case.workload.oracle is not None:
                out = train_step(fn, inputs, leaves, case.grad_out)
                expected = case.workload.oracle(inputs, out, case.grad_out)
                row["grad_err"] = compare_grads(leaves[: len(expected)], expected)
                row["grad_check"] = "oracle"
                del out
            elif not case.workload.random or config == "eager":
                torch.manual_seed(seed)
                train_step(fn, inputs, leaves, case.grad_out)
                row["grad_err"] = compare_grads(leaves, ref_grads)
                row["grad_check"] = "eager"
            else:
                row["grad_check"] = "eager, fallback_random compile"
            row.update(measure_saved(fn, model, inputs, leaves, case.grad_out))
            times, cpu_times = time_steps(fn, inputs, leaves, case.grad_out, dev, opts.warmup, opts.steps)
            row["step_ms"] = statistics.median(times)
            row["step_ms_min"] = min(times)
            row["step_ms_all"] = [round(t, 4) for t in times]
            row["step_cpu_ms"] = statistics.median(cpu_times) if cpu_times else None
            # The time the ratios use: thread CPU time on a single-threaded CPU run (robust to
            # other processes on the machine), wall time otherwise.
            single = dev.type == "cpu" and torch.get_num_threads() == 1
            row["time_ms"] = row["step_cpu_ms"] if single else row["step_ms"]
            row["time_kind"] = "cpu" if single else "wall"
            row["compile_s"] = None if config == "eager" else max(first_s - row["step_ms"] / 1e3, 0.0)
            row.update(peak_memory(fn, inputs, leaves, case.grad_out, dev))
            records = getattr(partitioner, "records", None)
            if records:
                row["graph_saved_bytes"] = sum(r.saved_bytes for r in records)
                row["graph_saved_input_bytes"] = sum(r.saved_input_bytes for r in records)
                row["graph_saved_count"] = sum(r.saved_count for r in records)
                row["partition_s"] = sum(r.seconds for r in records)
                row["num_graphs"] = len(records)
            del model, inputs, fn, leaves
        row["grad_ok"] = bool(row["grad_err"] <= opts.grad_tol)
        if opts.max_batch and dev.type == "cuda":
            row["max_batch"] = max_batch(case.workload, config, opts)
    except Exception as exc:  # keep going: one broken config must not hide the others
        row["status"] = f"error: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"[:300]
        row["traceback"] = traceback.format_exc(limit=8)
        inner = getattr(exc, "inner_exception", None)  # BackendCompilerFailed hides the cause
        if inner is not None:
            row["status"] = f"error: {type(inner).__name__}: {str(inner).splitlines()[0] if str(inner) else ''}"[:300]
            row["traceback"] += "\ninner:\n" + "".join(traceback.format_exception(inner)[-12:])
        row.setdefault("grad_ok", False)
    finally:
        caught.__exit__(None, None, None)
        _free_cuda()
    # fusioncut falls back to torch's partitioner with a FallbackWarning on constructs it does
    # not handle: such a row measures torch's partition, so the table must say so.
    fallbacks = sorted({str(w.message).splitlines()[0] for w in seen if w.category.__name__ == "FallbackWarning"})
    row["fallback"] = bool(fallbacks)
    if fallbacks:
        row["fallback_reasons"] = fallbacks[:5]
    return row


def _fits(workload: Workload, config: str, opts: RunOptions, batch: int) -> bool:
    try:
        with _config_ctx(config, opts):
            model, inputs = workload.build(opts.size, opts.device, batch=batch)
            fn, leaves = _make_fn(config, model), grad_leaves(model, inputs)
            with torch.no_grad():
                shape = _make_fn("eager", model)(*inputs).shape
            grad_out = torch.randn(shape, device=opts.device)
            for _ in range(2):
                train_step(fn, inputs, leaves, grad_out)
            _sync(opts.device)
            return True
    except Exception as exc:
        if _is_oom(exc):
            return False
        raise
    finally:
        _free_cuda()


def max_batch(workload: Workload, config: str, opts: RunOptions) -> int | None:
    """Largest batch that runs one training step: doubling until OOM, then bisection."""
    _, inputs = workload.build(opts.size, "cpu")
    base = inputs[0].shape[0]
    lo, hi = 0, None
    b = base
    while b <= base * opts.max_batch_limit:
        if _fits(workload, config, opts, b):
            lo, b = b, b * 2
        else:
            hi = b
            break
    if hi is None:
        return lo  # limit reached without OOM
    for _ in range(opts.bisect_steps):
        if hi - lo <= 1:
            break
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if _fits(workload, config, opts, mid) else (lo, mid)
    return lo


# --- the suite -------------------------------------------------------------------------------


def build_case(workload: Workload, opts: RunOptions, seed: int) -> tuple[Case, list]:
    """Builds the workload and computes eager's reference gradients (seeded RNG)."""
    module, inputs = workload.build(opts.size, opts.device, seed=seed)
    with torch.no_grad():
        shape = copy.deepcopy(module)(*inputs).shape
    gen = torch.Generator().manual_seed(seed + 1)
    grad_out = torch.randn(shape, generator=gen).to(opts.device)
    case = Case(workload, module, inputs, grad_out, opts.device)
    model, inputs = fresh_copy(case)
    leaves = grad_leaves(model, inputs)
    torch.manual_seed(seed)
    train_step(model, inputs, leaves, grad_out)
    ref = [None if t.grad is None else t.grad.detach().clone() for t in leaves]
    return case, ref


def device_name(device: torch.device) -> str:
    if device.type == "cuda":
        return torch.cuda.get_device_name(device)
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def environment(opts: RunOptions, args) -> dict:
    fc_reason = fusioncut_unavailable_reason()
    fc_version = None
    if fc_reason is None:
        import fusioncut

        fc_version = getattr(fusioncut, "__version__", None)
    return {
        "date_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "device": opts.device.type,
        "device_name": device_name(opts.device),
        "cpu_count": os.cpu_count(),
        "torch_threads": torch.get_num_threads(),
        "torch": torch.__version__,
        "python": platform.python_version(),
        "fusioncut": fc_version,
        "fusioncut_unavailable": fc_reason,
        "size": opts.size,
        "warmup": opts.warmup,
        "steps": opts.steps,
        "grad_tol": opts.grad_tol,
        "dtype": "float32",
        "tf32": bool(opts.device.type == "cuda" and torch.backends.cudnn.allow_tf32),
        "caches": "FX graph cache and AOTAutograd cache disabled; "
        + ("fresh Inductor cache dir per config" if opts.fresh_cache else "one Inductor cache dir per run"),
        "argv": sys.argv[1:],
    }


def warm_up_compiler(device: torch.device) -> float:
    """Compiles and runs a trivial training step once, so that one-time costs (imports, the
    C++ toolchain probe, precompiled headers, Triton's first launch) are not charged to the
    first configuration's compile time. Returns the seconds it took."""
    t0 = time.perf_counter()
    with compile_context(None):
        x = torch.randn(64, device=device, requires_grad=True)
        torch.compile(lambda t: (t * 2).sin(), backend="inductor", dynamic=False)(x).sum().backward()
    _sync(device)
    return time.perf_counter() - t0


def run_suite(models, configs, opts: RunOptions, seed: int = 0, log=print) -> list[dict]:
    rows = []
    fc_reason = fusioncut_unavailable_reason()
    if any(c != "eager" for c in configs):
        log(f"compiler warm-up {warm_up_compiler(opts.device):.1f} s (not charged to any config)")
    for name in models:
        workload = WORKLOADS[name]
        case, ref = build_case(workload, opts, seed)
        for config in configs:
            if config.startswith("fusioncut") and fc_reason is not None:
                rows.append({"model": name, "config": config, "status": f"skipped: {fc_reason}"})
                log(f"{name:13s} {config:18s} skipped ({fc_reason})")
                continue
            t0 = time.perf_counter()
            row = run_config(case, config, opts, ref, seed)
            row["wall_s"] = time.perf_counter() - t0
            rows.append(row)
            log(_row_line(row))
        del case, ref
        _free_cuda()
    _add_ratios(rows)
    return rows


def _add_ratios(rows):
    base = {r["model"]: r for r in rows if r["config"] == BASELINE and r["status"] == "ok"}
    for r in rows:
        b = base.get(r["model"])
        if b is None or r["status"] != "ok":
            continue
        r["step_vs_default"] = r["time_ms"] / b["time_ms"] if b["time_ms"] else None
        r["saved_act_vs_default"] = (
            r["saved_act_bytes"] / b["saved_act_bytes"] if b["saved_act_bytes"] else None
        )
        if r.get("peak_bytes") is not None and b.get("peak_bytes"):
            r["peak_vs_default"] = r["peak_bytes"] / b["peak_bytes"]


# --- output ----------------------------------------------------------------------------------


def _mib(x):
    if x is None:
        return "-"
    return f"{x / 2**20:.2f}" if x >= 2**16 or x == 0 else f"{x / 2**20:.4f}"


def _row_line(r) -> str:
    if r["status"] != "ok":
        return f"{r['model']:13s} {r['config']:18s} {r['status']}"
    comp = "-" if r.get("compile_s") is None else f"{r['compile_s']:.1f}s"
    return (
        f"{r['model']:13s} {r['config']:18s} step {r['step_ms']:9.3f} ms"
        + (f" ({r['step_cpu_ms']:8.3f} cpu-ms)" if r.get("step_cpu_ms") is not None else "")
        + f"  saved act {_mib(r['saved_act_bytes'])} MiB"
        f"  compile {comp}  grad_err {r['grad_err']:.1e} {'ok' if r['grad_ok'] else 'MISMATCH'}"
        + (f"  FALLBACK: {r['fallback_reasons'][0][:80]}" if r.get("fallback") else "")
    )


def table(rows, meta) -> str:
    """Markdown table: one row per (model, config), ratios against torch's default partitioner."""
    gpu = meta["device"] == "cuda"
    cpu_time = any(r.get("step_cpu_ms") is not None for r in rows)
    head = ["model", "config", "step ms"] + (["step cpu-ms"] if cpu_time else [])
    head += ["x default", "saved act MiB", "x default", "saved total MiB"]
    if gpu:
        head += ["peak MiB", "x default", "max batch"]
    head += ["compile s", "grads"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        if r["status"] != "ok":
            cells = [r["model"], r["config"], r["status"].split(":", 1)[0]] + [""] * (len(head) - 3)
            lines.append("| " + " | ".join(cells) + " |")
            continue
        ratio = lambda k: "-" if r.get(k) is None else f"{r[k]:.2f}"  # noqa: E731
        cells = [
            r["model"],
            r["config"],
            f"{r['step_ms']:.3f}",
        ] + ([f"{r['step_cpu_ms']:.3f}" if r.get("step_cpu_ms") is not None else "-"] if cpu_time else []) + [
            ratio("step_vs_default"),
            _mib(r["saved_act_bytes"]),
            ratio("saved_act_vs_default"),
            _mib(r["saved_bytes"]),
        ]
        if gpu:
            cells += [_mib(r.get("peak_bytes")), ratio("peak_vs_default"), str(r.get("max_batch", "-"))]
        cells += [
            "-" if r.get("compile_s") is None else f"{r['compile_s']:.1f}",
            ("ok" if r["grad_ok"] else "MISMATCH") + f" ({r['grad_err']:.0e})"
            + (" FALLBACK" if r.get("fallback") else ""),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


_STYLE = {
    "eager": ("tab:gray", "o"),
    "torch_default": ("tab:blue", "s"),
    "default_partition": ("tab:orange", "^"),
    "fusioncut_runtime": ("tab:green", "D"),
    "fusioncut_memory": ("tab:red", "v"),
}


def plot(rows, meta, path):
    """Speed versus memory: an overview normalised to torch's default partitioner, then one
    panel per model in absolute units. Lower-left is better on every panel."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ok = [r for r in rows if r["status"] == "ok"]
    models = list(dict.fromkeys(r["model"] for r in ok))
    use_peak = meta["device"] == "cuda" and all(r.get("peak_bytes") for r in ok)
    mem_key, mem_label = ("peak_bytes", "peak memory") if use_peak else ("saved_act_bytes", "saved activations")
    time_label = "thread CPU" if ok and all(r.get("time_kind") == "cpu" for r in ok) else "wall"
    n = len(models) + 1
    cols = min(4, n)
    nrows = math.ceil(n / cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(4.2 * cols, 3.6 * nrows), squeeze=False)
    ax0 = axes[0][0]
    # Memory is normalised to eager's (the fraction of what autograd would keep): torch's
    # default already saves almost nothing on some models, which makes it a poor denominator.
    mem_ref_cfg = "eager" if any(r["config"] == "eager" for r in ok) else None
    for r in ok:
        base = next((b for b in ok if b["model"] == r["model"] and b["config"] == BASELINE), None)
        peers = [b[mem_key] for b in ok if b["model"] == r["model"] and (mem_ref_cfg is None or b["config"] == mem_ref_cfg)]
        mem_ref = max(peers) if peers else 0
        if base is None or not mem_ref or not base["time_ms"]:
            continue
        c, m = _STYLE.get(r["config"], ("k", "x"))
        ax0.scatter(r[mem_key] / mem_ref, r["time_ms"] / base["time_ms"], c=c, marker=m, s=28, alpha=0.75)
    ax0.axhline(1, color="0.8", lw=0.8)
    ax0.margins(0.08)
    ax0.set_xlim(left=0)
    ax0.set_ylim(bottom=0)
    ax0.set_title("all models", fontsize=9)
    ref_label = "eager" if mem_ref_cfg else "largest config"
    ax0.set_xlabel(f"{mem_label} (x {ref_label})", fontsize=8)
    ax0.set_ylabel(f"step {time_label} time (x torch default)", fontsize=8)
    for i, model in enumerate(models, start=1):
        ax = axes[i // cols][i % cols]
        for r in (r for r in ok if r["model"] == model):
            c, m = _STYLE.get(r["config"], ("k", "x"))
            ax.scatter(r[mem_key] / 2**20, r["time_ms"], c=c, marker=m, s=34, alpha=0.75)
        ax.set_title(model, fontsize=9)
        ax.set_xlabel(f"{mem_label} (MiB)", fontsize=8)
        ax.set_ylabel(f"step ({time_label}, ms)", fontsize=8)
        ax.tick_params(labelsize=7)
        pts = [(r[mem_key] / 2**20, r["time_ms"]) for r in ok if r["model"] == model]
        ax.set_xlim(0, max(max(x for x, _ in pts) * 1.12, 1e-3))
        ax.set_ylim(0, max(y for _, y in pts) * 1.12)
    for j in range(n, nrows * cols):
        axes[j // cols][j % cols].axis("off")
    handles = [
        plt.Line2D([], [], color=c, marker=m, ls="", label=k) for k, (c, m) in _STYLE.items()
        if any(r["config"] == k for r in ok)
    ]
    fig.legend(handles=handles, loc="lower center", ncol=len(handles), fontsize=8, frameon=False)
    fig.suptitle(f"training step, {meta['device_name']}, torch {meta['torch']}, {meta['date_utc']}", fontsize=10)
    fig.tight_layout(rect=(0, 0.04, 1, 0.97))
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _plot_or_say_why(rows, meta, path) -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print(f"bench_train.py: matplotlib is not installed; no plot written to {path} "
              "(pip install matplotlib)", file=sys.stderr)
        return False
    plot(rows, meta, path)
    return True


# --- CLI -------------------------------------------------------------------------------------


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--device", choices=("cpu", "cuda"), default="cpu")
    p.add_argument("--models", nargs="+", default=list(WORKLOADS), choices=list(WORKLOADS))
    p.add_argument("--configs", nargs="+", default=list(CONFIGS), choices=list(CONFIGS))
    p.add_argument("--size", choices=SIZES, help="default: cpu on --device cpu, gpu on cuda; tiny with --quick")
    p.add_argument("--quick", action="store_true", help="tiny sizes, 1 warm-up, 3 timed steps")
    p.add_argument("--warmup", type=int)
    p.add_argument("--steps", type=int)
    p.add_argument("--threads", type=int, help="torch.set_num_threads (CPU default: 1, for stable timings)")
    p.add_argument("--grad-tol", type=float, default=1e-3)
    p.add_argument("--tf32", action="store_true",
                   help="CUDA: allow TF32 in matmuls and convolutions (off by default: fp32 gradients are compared)")
    p.add_argument("--max-batch", action="store_true", help="GPU: search the largest batch that fits")
    p.add_argument("--max-batch-limit", type=int, default=64, help="stop doubling at this multiple of the base batch")
    p.add_argument("--bisect-steps", type=int, default=3)
    p.add_argument("--shared-cache", action="store_true", help="one Inductor cache dir for the run (faster)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--from-json", metavar="PATH", help="render --table/--plot from an earlier run's JSON; run nothing")
    p.add_argument("--json", help="write the results here")
    p.add_argument("--plot", help="write the speed-versus-memory scatter plot (PNG) here")
    p.add_argument("--table", help="write the markdown table here")
    return p.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.from_json:
        with open(args.from_json) as f:
            data = json.load(f)
        md = table(data["results"], data["meta"])
        print(md)
        if args.table:
            with open(args.table, "w") as f:
                f.write(md + "\n")
        if args.plot:
            _plot_or_say_why(data["results"], data["meta"], args.plot)
        return 0
    if args.device == "cuda" and not torch.cuda.is_available():
        print("bench_train.py: --device cuda, but torch.cuda.is_available() is False "
              f"(torch {torch.__version__}, built with CUDA {torch.version.cuda}); run on a CUDA "
              "machine or use --device cpu", file=sys.stderr)
        return 2
    if args.device == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = args.tf32
        torch.backends.cudnn.allow_tf32 = args.tf32
    size = args.size or ("tiny" if args.quick else ("gpu" if args.device == "cuda" else "cpu"))
    if args.threads or args.device == "cpu":
        torch.set_num_threads(args.threads or 1)
    opts = RunOptions(
        device=torch.device(args.device),
        size=size,
        warmup=args.warmup if args.warmup is not None else (1 if args.quick else 3),
        steps=args.steps if args.steps is not None else (3 if args.quick else (20 if args.device == "cpu" else 50)),
        grad_tol=args.grad_tol,
        max_batch=args.max_batch,
        max_batch_limit=args.max_batch_limit,
        bisect_steps=args.bisect_steps,
        fresh_cache=not args.shared_cache,
    )
    meta = environment(opts, args)
    print(f"# {meta['device_name']} | torch {meta['torch']} | size {size} | {meta['date_utc']}")
    t0 = time.perf_counter()
    if args.shared_cache:
        _, _, _, _, fresh_cache = _torch_internals()
        with fresh_cache():
            rows = run_suite(args.models, args.configs, opts, seed=args.seed)
    else:
        rows = run_suite(args.models, args.configs, opts, seed=args.seed)
    meta["total_s"] = time.perf_counter() - t0
    usage = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
    meta["total_cpu_s"] = sum(u.ru_utime + u.ru_stime for u in usage)  # incl. compiler processes
    meta["load_avg_end"] = os.getloadavg()
    md = table(rows, meta)
    print()
    print(md)
    print(f"\ntotal {meta['total_s']:.0f} s wall, {meta['total_cpu_s']:.0f} s CPU, load {meta['load_avg_end'][0]:.1f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"meta": meta, "results": rows}, f, indent=1, default=str)
    if args.table:
        with open(args.table, "w") as f:
            f.write(md + "\n")
    if args.plot:
        _plot_or_say_why(rows, meta, args.plot)
    bad = [r for r in rows if r["status"] == "ok" and not r["grad_ok"]]
    for r in bad:
        print(f"GRADIENT MISMATCH: {r['model']} {r['config']} err {r['grad_err']:.2e}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
