"""Measured peak memory of a compiled CPU training step against fusioncut's estimate.

Measured peak: the step (forward and backward) runs under ``torch.profiler`` with
``profile_memory=True``; the CPU allocation and free events, in time order, give the running
sum of bytes allocated inside the window, and its maximum is the peak. Memory live before the
step (parameters, inputs) is the baseline and not counted, as in ``fusioncut.peak``. The
previous step's gradients are freed *before* the window opens: freed inside it, they would
lower the running sum by their size and hide as much of the peak. The profiler's raw event
list is reached through ``prof.profiler.kineto_results`` (the folded ``prof.events()`` merges
allocations into their ops). The window is split at the start of the compiled backward
(``CompiledFunctionBackward``): the forward's peak, the bytes held when the backward starts,
the backward's peak.

Estimated peak: ``fusioncut.decide`` on a copy of the joint graph the compile handed to the
partitioner gives the plan and its estimate (``fusioncut.peak.estimate_peak``); the compile
itself partitions with ``fusioncut.InductorPartitioner`` and the same options, and the saved
set it emitted is checked to be that plan's.

``Session(name)`` compiles one model of ``peak_models`` once to capture its joint graph, then
measures plans: ``plan(options)`` decides without compiling, ``measure(options)`` compiles
and profiles, once per distinct plan (targets that pick the same plan share a measurement).
``bench/bench_peak.py`` builds the tables from it.

On a CUDA device (``Session(..., device="cuda")``) the peak is
``torch.cuda.max_memory_allocated`` above the level at the window's start, and the profiler's
CUDA memory events split it into forward, kept and backward as on the CPU; the walk of the
generated code reads Triton's wrapper as it reads the C++ backend's.
"""

from __future__ import annotations

import copy
import hashlib
import itertools
import statistics
import time
import warnings

import numpy as np
import torch
from torch._inductor.codecache import PyCodeCache
from torch._subclasses.fake_tensor import unset_fake_temporarily
from torch.profiler import ProfilerActivity, profile

import fusioncut
from fusioncut import _torch_compat
from fusioncut.decision import decide
from fusioncut.graph import JointGraph
from fusioncut.options import Options
from fusioncut.peak import estimate_peak

from inductor_walk import call_modules, walk
from peak_models import build

__all__ = ["Session", "measured_peak", "measured_step", "profile_step", "scalar_loss"]


def profile_step(step, device: str = "cpu") -> dict:
    """One call of ``step`` under the profiler: ``peak`` (bytes above the level at the
    window's start), ``forward_peak``, ``kept`` (held when the compiled backward starts),
    ``backward_peak`` (0 and the whole window as forward when no compiled backward ran), and
    ``peak_at``: the profiled ops running when the peak was reached, outermost first. On
    ``device="cuda"`` the memory events are the CUDA allocator's and ``peak`` is
    ``torch.cuda.max_memory_allocated``'s (``event_peak`` the events' own).

    ``scratch``: the most bytes one extern matmul (``MATMUL_OPS``, which Inductor calls with
    ``out=``) allocated for itself and freed before returning: oneDNN's scratchpads and
    reorders of a reduced-precision CPU matmul (on a CPU with AVX512-BF16 a bfloat16 ``mm``
    takes 67-264 kB and a transposed operand's copy; none in float32, and none on the Intel
    machines of earlier measurements). ``forward_code_peak`` / ``backward_code_peak``: the
    phases' peaks without those transients, what the generated code itself allocates."""
    cuda = device == "cuda"
    if cuda:
        torch.cuda.synchronize()
        base = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        step()
        if cuda:
            torch.cuda.synchronize()
    events = list(prof.profiler.kineto_results.events())
    kind = "CUDA" if cuda else "CPU"
    memory = sorted((e for e in events if e.name() == "[memory]"
                     and str(e.device_type()).endswith(kind)), key=lambda e: e.start_ns())
    bw_start = min((e.start_ns() for e in events if e.name() == "CompiledFunctionBackward"),
                   default=None)
    inside, scratch = _matmul_scratch(memory, events)
    running = peak = fw_peak = bw_peak = kept = 0
    code = code_fw = code_bw = 0
    peak_ns = None
    for e, transient in zip(memory, inside):
        backward = bw_start is not None and e.start_ns() >= bw_start
        if backward and not kept:
            kept = max(running, 1)
        running += e.nbytes()
        if not transient:
            code += e.nbytes()
        if running > peak:
            peak, peak_ns = running, e.start_ns()
        if backward:
            bw_peak, code_bw = max(bw_peak, running), max(code_bw, code)
        else:
            fw_peak, code_fw = max(fw_peak, running), max(code_fw, code)
    around = sorted((e for e in events if e.name() != "[memory]" and peak_ns is not None
                     and e.start_ns() <= peak_ns <= e.end_ns()), key=lambda e: e.start_ns())
    out = {"peak": peak, "forward_peak": fw_peak, "kept": kept, "backward_peak": bw_peak,
           "peak_at": [e.name() for e in around], "scratch": scratch,
           "forward_code_peak": code_fw, "backward_code_peak": code_bw}
    if cuda:
        out["event_peak"], out["peak"] = peak, torch.cuda.max_memory_allocated() - base
    return out


MATMUL_OPS = frozenset({"aten::mm", "aten::bmm", "aten::addmm", "aten::baddbmm"})


def _matmul_scratch(memory, events) -> tuple[list[bool], int]:
    """Per memory event, whether it falls in a call of ``MATMUL_OPS`` whose events sum to
    zero (all it allocated it freed: scratch), and the most bytes one such call held."""
    frames = sorted((e.start_ns(), e.end_ns()) for e in events if e.name() in MATMUL_OPS)
    inside = [False] * len(memory)
    scratch = k = 0
    for start, end in frames:
        while k < len(memory) and memory[k].start_ns() < start:
            k += 1
        j = k
        while j < len(memory) and memory[j].start_ns() <= end:
            j += 1
        sizes = [memory[i].nbytes() for i in range(k, j)]
        if sizes and sum(sizes) == 0:
            inside[k:j] = [True] * len(sizes)
            scratch = max(scratch, max(itertools.accumulate(sizes)))
        k = j
    return inside, scratch


def measured_peak(step) -> int:
    """Peak bytes allocated inside one call of ``step`` (CPU profiler memory events)."""
    return profile_step(step)["peak"]


def scalar_loss(out):
    """The loss a step differentiates: the model's output, summed when it is not a scalar (the
    zoo ResNet returns its logits)."""
    return out if out.dim() == 0 else out.sum()


class _Recorder(_torch_compat.custom_partitioner_fn_base()):
    """Partitions with ``partition`` (a partition_fn); records a copy of each joint graph, its
    keyword arguments and the names of the saved values the forward module returns."""

    def __init__(self, partition):
        self.partition, self.calls = partition, []

    def __call__(self, gm, joint_inputs, **kwargs):
        with unset_fake_temporarily():  # the joint graph may hold real tensor constants
            joint = copy.deepcopy(gm)
        fw, bw = self.partition(gm, joint_inputs, **kwargs)
        out = fw.graph.find_nodes(op="output")[0]
        leaves = [a for a in _torch_compat.tree_leaves(list(out.args))
                  if isinstance(a, torch.fx.Node)]
        self.calls.append((joint, kwargs, [a.name for a in leaves[kwargs["num_fwd_outputs"]:]]))
        return fw, bw

    def uuid(self):
        return None


def _compiled_step(module, inputs, partition):
    """``(step, recorder, generated code paths)``: ``module`` compiled with ``partition`` as
    Inductor's partitioner (no caches), warmed up by two steps."""
    torch.compiler.reset()
    recorder = _Recorder(partition)
    before = set(map(id, PyCodeCache.modules))
    with _torch_compat.inductor_config().patch(custom_partitioner_fn=recorder,
                                               fx_graph_cache=False), \
            _torch_compat.functorch_config().patch(enable_autograd_cache=False):
        compiled = torch.compile(module)

        def step():
            scalar_loss(compiled(*inputs)).backward()

        step()
        step()
    code = call_modules([m for m in PyCodeCache.modules if id(m) not in before])
    return step, recorder, code


def _estimate(calls) -> int | None:
    if len(calls) != 1:
        return None
    joint, kwargs, names = calls[0]
    graph = JointGraph.from_fx(joint, kwargs["num_fwd_outputs"])
    saved = np.asarray(sorted(graph.index[n] for n in joint.graph.nodes
                              if n.name in set(names) and n in graph.index), dtype=np.int64)
    return estimate_peak(graph, saved).peak


def measured_step(module: torch.nn.Module, inputs, method: str, budget: float,
                  steps: int = 10) -> dict:
    """Compile ``module`` (Inductor, CPU) with ``method``'s partitioner at ``budget``; time
    ``steps`` steps after warm-up and measure one step's peak."""
    model = copy.deepcopy(module)
    if method == "fusioncut":
        partition = fusioncut.InductorPartitioner(Options(memory_budget=budget))
    else:
        def partition(gm, joint_inputs, **kwargs):
            pt = _torch_compat.min_cut_rematerialization_partition()
            with _torch_compat.functorch_config().patch(activation_memory_budget=budget):
                return pt(gm, joint_inputs, **kwargs)
    t0 = time.perf_counter()
    step, recorder, _ = _compiled_step(model, inputs, partition)
    compile_s = time.perf_counter() - t0
    times = []
    for _ in range(steps):
        model.zero_grad(set_to_none=True)
        t = time.perf_counter()
        step()
        times.append(time.perf_counter() - t)
    model.zero_grad(set_to_none=True)
    peak = measured_peak(step)
    q = np.percentile(times, [25, 75])
    estimate = _estimate(recorder.calls)
    return {"step_ms": statistics.median(times) * 1e3, "step_iqr_ms": (q[1] - q[0]) * 1e3,
            "compile_s": compile_s, "measured_peak": peak, "estimated_peak": estimate,
            "estimate_error": (estimate - peak) / peak if estimate and peak else None,
            "partitions": len(recorder.calls)}


class Session:
    """One model (``peak_models.build(name, quick)``, or ``model`` = (module, inputs) named
    ``name``): its joint graph (captured by one compile) and the measured plans."""

    def __init__(self, name: str, quick: bool = False, cache: dict | None = None,
                 model: tuple | None = None, device: str = "cpu"):
        self.name, self.device = name, device
        module, inputs = build(name, quick) if model is None else model
        self.module = module.to(device)
        self.inputs = tuple(x.to(device) for x in inputs)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            _, recorder, _ = _compiled_step(copy.deepcopy(self.module), self.inputs,
                                            fusioncut.InductorPartitioner())
        if len(recorder.calls) != 1:
            raise RuntimeError(f"{name}: {len(recorder.calls)} joint graphs; the table needs "
                               f"one per step")
        self.joint, self.kwargs, _ = recorder.calls[0]
        # A plan's measurement depends on the plan alone: ``cache`` (plan key -> row) may
        # carry them across runs of one torch and one machine.
        self._measured = {} if cache is None else cache

    def plan(self, options: Options):
        """``fusioncut.decide`` on a copy of the joint graph (no compile)."""
        kw = self.kwargs
        return decide(copy.deepcopy(self.joint), num_fwd_outputs=kw["num_fwd_outputs"],
                      static_lifetime_input_indices=kw.get("static_lifetime_input_indices"),
                      options=options)

    def measure(self, options: Options) -> dict:
        """The plan ``options`` picks, estimated and measured (compiled once per plan)."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            decision = self.plan(options)
        graph = decision.graph
        names = sorted(graph.nodes[i].name for i in decision.saved)
        key = self.name + (f"@{self.device}" if self.device != "cpu" else "") + ":" + hashlib.sha1(" ".join(names).encode()).hexdigest()
        est = (decision.budget.point.peak if decision.budget is not None
               else estimate_peak(graph, decision.saved))
        if key not in self._measured:
            model = copy.deepcopy(self.module)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                step, recorder, code = _compiled_step(model, self.inputs,
                                                      fusioncut.InductorPartitioner(options))
            emitted = set(recorder.calls[0][2]) if recorder.calls else set()
            model.zero_grad(set_to_none=True)
            measured = profile_step(step, self.device)
            walks = {("backward" if "tangents_" in open(p).read() else "forward"): walk(p)
                     for p in code}
            self._measured[key] = {
                "measured": measured["peak"], "measured_forward": measured["forward_peak"],
                "measured_kept": measured["kept"], "measured_backward": measured["backward_peak"],
                "measured_scratch": measured["scratch"],
                "measured_forward_code": measured["forward_code_peak"],
                "measured_backward_code": measured["backward_code_peak"],
                "peak_at": measured["peak_at"],
                "code_forward": walks["forward"].peak if "forward" in walks else None,
                "code_backward": (walks["backward"].peak if "backward" in walks else None),
                # What the generated backward holds at its peak: the line and the largest
                # storages (a diagnosis of the estimate's error without the code at hand).
                "code_backward_at": (walks["backward"].peak_line if "backward" in walks
                                     else None),
                "code_backward_held": (walks["backward"].held_at_peak[:24] if "backward" in walks
                                       else None),
                "emitted_as_decided": emitted == set(names), "code": code, "saved": names}
        point = decision.budget.point if decision.budget is not None else None
        return {**self._measured[key], "key": key, "decision": decision,
                "saved_bytes": point.saved_bytes if point else None,
                "recompute_seconds": point.recompute_seconds if point else 0.0,
                "estimate": est.peak,
                "estimate_forward": est.forward_peak, "estimate_kept": est.kept_bytes,
                "estimate_backward": est.backward_peak}
