"""Runs one workload under every configuration: compile and check each, time them
interleaved, then (GPU) search each one's largest batch.

    1. references   float64 eager gradients (or the oracle, or seeded float32 eager for a
                    random workload), and float32 eager's distance to them (gradcheck.py)
    2. per config   compile once (its own class, fresh Inductor cache), first step (compile
                    time), gradient check, saved bytes, GPU peak; kept alive
    3. timing       all live configurations in rotated rounds (timing.py); afterwards Dynamo
                    must not have compiled anything new and each configuration must still
                    save what it saved in step 2, or its row is an error (configurations
                    mixed)
    4. max batch    GPU with --max-batch: everything else freed, one configuration at a time
                    (batch_search.py; a fresh compile per batch)
"""

from __future__ import annotations

import time
import traceback
import warnings
from dataclasses import dataclass
from typing import Any, Callable

import torch
from batch_search import largest_batch, linear_footprint, oom_as_false
from configs import (
    BASELINE, CONFIGS, EAGER, compile_context, compile_model, dynamo_graph_count,
    fusioncut_unavailable_reason,
)
from gradcheck import GradTolerance, grad_error, grads_of
from measure import (
    Case, free_memory, fresh_copy, grad_leaves, is_oom, measure_saved, peak_memory, sync,
    train_step,
)
from report import prepared_line
from timing import TimingPlan, time_interleaved, timing_fields
from train_models import WORKLOADS, Workload


@dataclass(frozen=True)
class RunOptions:
    device: torch.device
    size: str
    timing: TimingPlan
    grad: GradTolerance
    max_batch: bool = False
    bisect_steps: int = 4
    fresh_cache: bool = True
    seed: int = 0


@dataclass
class Reference:
    """What gradients are compared with. ``kind``: "float64 eager", "oracle",
    "float32 eager, fallback_random compile", or None when no reference could be computed."""

    kind: str | None
    grads: list | None
    eager_err: float | None
    note: str = ""


@dataclass
class Live:
    """A compiled (or eager) configuration kept for the timing rounds."""

    fn: Callable
    model: torch.nn.Module
    inputs: tuple
    leaves: list
    first_s: float | None

    def step(self, grad_out):
        return train_step(self.fn, self.inputs, self.leaves, grad_out)


def build_case(workload: Workload, opts: RunOptions) -> Case:
    module, inputs = workload.build(opts.size, opts.device, seed=opts.seed)
    with torch.no_grad():
        shape = module(*inputs).shape
    gen = torch.Generator().manual_seed(opts.seed + 1)
    return Case(module, inputs, torch.randn(shape, generator=gen).to(opts.device), opts.device)


def float64_grads(case: Case, chunks: int = 1) -> list:
    """Gradients of one float64 eager step. ``chunks`` > 1 runs the batch in that many slices
    and accumulates the parameters' gradients (exact when samples do not interact), for
    models whose float64 step does not fit at once."""
    model, inputs = fresh_copy(case, torch.float64)
    grad_out = case.grad_out.to(torch.float64)
    if chunks == 1:
        leaves = grad_leaves(model, inputs)
        train_step(model, inputs, leaves, grad_out)
        return grads_of(leaves)
    slices = [torch.tensor_split(x, chunks) if isinstance(x, torch.Tensor) else [x] * chunks
              for x in inputs]
    input_grads = [[] for x in inputs if isinstance(x, torch.Tensor) and x.requires_grad]
    for k, g in enumerate(torch.tensor_split(grad_out, chunks)):
        part = [s[k].detach().requires_grad_(x.requires_grad) if isinstance(x, torch.Tensor)
                else s[k] for s, x in zip(slices, inputs)]
        model(*part).backward(g)  # parameter gradients accumulate across slices
        for acc, x in zip(input_grads, (x for x in part
                                        if isinstance(x, torch.Tensor) and x.requires_grad)):
            acc.append(x.grad)
    params = [p for p in model.parameters() if p.requires_grad]
    return [torch.cat(acc) for acc in input_grads] + grads_of(params)


def references(workload: Workload, case: Case, opts: RunOptions) -> Reference:
    model, inputs = fresh_copy(case)
    leaves = grad_leaves(model, inputs)
    torch.manual_seed(opts.seed)
    out = train_step(model, inputs, leaves, case.grad_out)
    if workload.oracle is not None:
        expected = workload.oracle(inputs, out, case.grad_out)
        return Reference("oracle", None, grad_error(grads_of(leaves[: len(expected)]), expected))
    eager32 = grads_of(leaves)
    if workload.random:
        return Reference("float32 eager, fallback_random compile", eager32, 0.0)
    del model, inputs, leaves, out
    batch = case.grad_out.shape[0]
    chunks = 1
    while True:
        try:
            ref64 = float64_grads(case, chunks)
            break
        except Exception as exc:
            if not is_oom(exc):
                raise
            free_memory()
            if workload.batch_coupled or chunks >= batch:
                return Reference(None, None, None,
                                 "not checked: the float64 reference ran out of memory")
            chunks = min(2 * chunks, batch)
    free_memory()
    kind = "float64 eager" + (f" ({chunks} slices of the batch)" if chunks > 1 else "")
    return Reference(kind, ref64, grad_error(eager32, ref64))


def check_grads(workload: Workload, ref: Reference, inputs, leaves, out, grad_out,
                tol: GradTolerance, compiled_err: float | None = None,
                baseline: bool = False) -> dict:
    """The gradient fields of a row, for the step that produced ``out`` (gradcheck.py)."""
    if ref.kind is None:
        return {"grad_check": ref.note, "grad_err": None, "grad_ok": None,
                "grad_verdict": "not checked"}
    if ref.kind == "oracle":
        expected = workload.oracle(inputs, out, grad_out)
        err = grad_error(grads_of(leaves[: len(expected)]), expected)
    else:
        err = grad_error(grads_of(leaves), ref.grads)
    return {"grad_check": ref.kind, **tol.verdict(err, ref.eager_err, compiled_err, baseline)}


def apply_verdicts(rows: dict[str, dict], ref: Reference, tol: GradTolerance) -> None:
    """Once every configuration's error is known: each compiled one is held to eager's and
    torch_default's float32 errors, torch_default and eager to eager's alone."""
    base = rows.get(BASELINE, {})
    compiled_err = base.get("grad_err") if base.get("status") == "ok" else None
    for name, row in rows.items():
        if row.get("grad_err") is None or ref.eager_err is None:
            continue
        row.update(tol.verdict(row["grad_err"], ref.eager_err,
                               None if name == EAGER else compiled_err,
                               baseline=name == BASELINE))


def _error_status(exc: BaseException) -> tuple[str, str]:
    inner = getattr(exc, "inner_exception", None)  # BackendCompilerFailed hides the cause
    shown = inner if inner is not None else exc
    first = str(shown).splitlines()[0] if str(shown) else ""
    status = f"error: {'out of memory: ' if is_oom(exc) else ''}{type(shown).__name__}: {first}"
    tb = traceback.format_exc(limit=8)
    if inner is not None:
        tb += "\ninner:\n" + "".join(traceback.format_exception(inner)[-12:])
    return status[:300], tb


def _fallback_random_grads(workload, case, name, ref, opts) -> dict:
    """A random workload without an oracle: a second compile whose random numbers are eager's
    (``fallback_random``); the joint graph, so the partition, is the same as the timed one's."""
    config = CONFIGS[name]
    with compile_context(config.partitioner(), fallback_random=True, fresh=opts.fresh_cache):
        model, inputs = fresh_copy(case)
        fn = compile_model(model, f"{name}__fallback_random")
        leaves = grad_leaves(model, inputs)
        train_step(fn, inputs, leaves, case.grad_out)
        torch.manual_seed(opts.seed)
        out = train_step(fn, inputs, leaves, case.grad_out)
        return check_grads(workload, ref, inputs, leaves, out, case.grad_out, opts.grad)


def prepare(workload: Workload, case: Case, name: str, ref: Reference, opts: RunOptions):
    """Step 2 for one configuration: ``(row, Live or None)``."""
    config = CONFIGS[name]
    row: dict[str, Any] = {"model": workload.name, "config": name, "status": "ok"}
    live = None
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        try:
            if config.compiled and workload.random and workload.oracle is None:
                row.update(_fallback_random_grads(workload, case, name, ref, opts))
            partitioner = config.partitioner() if config.compiled else None
            with compile_context(partitioner, fresh=opts.fresh_cache):
                model, inputs = fresh_copy(case)
                fn = compile_model(model, name) if config.compiled else model
                leaves = grad_leaves(model, inputs)
                graphs_before = dynamo_graph_count()
                sync(opts.device)
                start = time.perf_counter()
                torch.manual_seed(opts.seed)
                out = train_step(fn, inputs, leaves, case.grad_out)
                sync(opts.device)
                first_s = time.perf_counter() - start
                row["dynamo_graphs"] = dynamo_graph_count() - graphs_before
                if config.compiled and row["dynamo_graphs"] < 1:
                    raise RuntimeError(f"{name}: the first step compiled nothing (it ran a graph "
                                       "another configuration compiled)")
            if "grad_check" not in row:
                row.update(check_grads(workload, ref, inputs, leaves, out, case.grad_out,
                                       opts.grad))
            del out
            row.update(measure_saved(fn, model, inputs, leaves, case.grad_out))
            row.update(peak_memory(fn, model, inputs, leaves, case.grad_out, opts.device))
            row["input_bytes"] = sum(x.untyped_storage().nbytes() for x in inputs
                                     if isinstance(x, torch.Tensor))
            records = getattr(partitioner, "records", None)
            if records:
                row["graph_saved_bytes"] = sum(r.saved_bytes for r in records)
                row["graph_saved_input_bytes"] = sum(r.saved_input_bytes for r in records)
                row["graph_saved_count"] = sum(r.saved_count for r in records)
                row["partition_s"] = sum(r.seconds for r in records)
                row["num_graphs"] = len(records)
            live = Live(fn, model, inputs, leaves, first_s if config.compiled else None)
        except Exception as exc:  # keep going: one broken config must not hide the others
            row["status"], row["traceback"] = _error_status(exc)
            row.setdefault("grad_ok", None)
            free_memory()
    # fusioncut falls back to torch's partitioner with a FallbackWarning on constructs it does
    # not handle: such a row measures torch's partition, so the table must say so.
    fallbacks = sorted({str(w.message).splitlines()[0] for w in seen
                        if w.category.__name__ == "FallbackWarning"})
    row["fallback"] = bool(fallbacks)
    if fallbacks:
        row["fallback_reasons"] = fallbacks[:5]
    return row, live


def time_live(rows: dict, live: dict[str, Live], case: Case, opts: RunOptions) -> None:
    """Step 3: interleaved timing; fills the rows' timing fields and checks that nothing was
    recompiled and that every configuration still saves what it saved when compiled."""
    if not live:
        return
    baseline = BASELINE if BASELINE in live else None
    before = dynamo_graph_count()
    steps = {name: (lambda lv=lv: lv.step(case.grad_out)) for name, lv in live.items()}
    series = time_interleaved(steps, opts.device, opts.timing, baseline)
    recompiled = dynamo_graph_count() - before
    for name, lv in live.items():
        row = rows[name]
        row.update(timing_fields(series[name], opts.timing.use_cpu_time,
                                 series.get(baseline) if baseline else None))
        row["compile_s"] = None if lv.first_s is None else max(lv.first_s - row["step_ms"] / 1e3, 0.0)
        again = measure_saved(lv.fn, lv.model, lv.inputs, lv.leaves, case.grad_out)
        if recompiled:
            row["status"] = f"error: Dynamo compiled {recompiled} graph(s) during the timing rounds"
        elif again["saved_bytes"] != row["saved_bytes"]:
            row["status"] = (f"error: saved {again['saved_bytes']} bytes after the timing rounds, "
                             f"{row['saved_bytes']} when compiled: configurations mixed")


def search_max_batch(workload: Workload, name: str, row: dict, base: int, grad_shape,
                     opts: RunOptions) -> None:
    """Step 4 for one configuration (GPU): fills ``max_batch`` and the search's record."""
    config = CONFIGS[name]
    capacity = torch.cuda.get_device_properties(opts.device).total_memory
    scaling = 2 * row["input_bytes"]  # inputs and their gradients grow with the batch
    footprint = linear_footprint(base, row["resident_bytes"] - scaling,
                                 row["peak_above_base_bytes"] + scaling)

    def step(batch: int) -> None:
        partitioner = config.partitioner() if config.compiled else None
        with compile_context(partitioner, fresh=opts.fresh_cache, reset=True):
            model, inputs = workload.build(opts.size, opts.device, batch=batch, seed=opts.seed)
            fn = compile_model(model, f"{name}__batch{batch}") if config.compiled else model
            leaves = grad_leaves(model, inputs)
            grad_out = torch.randn((batch, *grad_shape[1:]), device=opts.device)
            for _ in range(2):
                train_step(fn, inputs, leaves, grad_out)
            sync(opts.device)

    try:
        found = largest_batch(oom_as_false(step), base, footprint=footprint, capacity_bytes=capacity,
                              bisect_steps=opts.bisect_steps)
        row.update(max_batch=found.largest, max_batch_failed=found.smallest_failed,
                   max_batch_stopped_by=found.stopped_by, max_batch_tried=found.tried)
    except Exception as exc:
        row["max_batch_error"], _ = _error_status(exc)


def _add_ratios(rows: list[dict]) -> None:
    base = {r["model"]: r for r in rows if r["config"] == BASELINE and r["status"] == "ok"}
    for r in rows:
        b = base.get(r["model"])
        if b is None or r["status"] != "ok":
            continue
        r["saved_act_vs_default"] = (r["saved_act_bytes"] / b["saved_act_bytes"]
                                     if b["saved_act_bytes"] else None)
        if r.get("peak_bytes") is not None and b.get("peak_bytes"):
            r["peak_vs_default"] = r["peak_bytes"] / b["peak_bytes"]
        if r.get("max_batch") and b.get("max_batch"):
            r["max_batch_vs_default"] = r["max_batch"] / b["max_batch"]


def run_workload(name: str, configs: list[str], opts: RunOptions, log=print) -> list[dict]:
    workload = WORKLOADS[name]
    fc_reason = fusioncut_unavailable_reason()
    torch._dynamo.reset()
    case = build_case(workload, opts)
    ref = references(workload, case, opts)
    rows: dict[str, dict] = {}
    live: dict[str, Live] = {}
    for config in configs:
        if CONFIGS[config].needs_fusioncut and fc_reason is not None:
            rows[config] = {"model": name, "config": config, "status": f"skipped: {fc_reason}"}
            continue
        rows[config], lv = prepare(workload, case, config, ref, opts)
        if lv is not None:
            live[config] = lv
        apply_verdicts({k: rows[k] for k in (BASELINE, config) if k in rows}, ref, opts.grad)
        log(prepared_line(rows[config], None if lv is None else lv.first_s))
    apply_verdicts(rows, ref, opts.grad)
    time_live(rows, live, case, opts)
    del live
    torch._dynamo.reset()
    free_memory()
    if opts.max_batch and opts.device.type == "cuda":
        base = case.inputs[0].shape[0]
        grad_shape = tuple(case.grad_out.shape)
        del case
        free_memory()
        for config, row in rows.items():
            if row["status"] == "ok":
                search_max_batch(workload, config, row, base, grad_shape, opts)
                log(f"{name:13s} {config:18s} max batch {row.get('max_batch', row.get('max_batch_error'))}")
    out = [rows[c] for c in configs]
    _add_ratios(out)
    return out
