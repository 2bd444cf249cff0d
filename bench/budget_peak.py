"""One compiled training step under a memory budget: its time, and its peak memory measured on
the CPU next to fusioncut's estimate of it.

Measured peak: the step (forward and backward) runs under ``torch.profiler`` with
``profile_memory=True``; the CPU allocation and free events, in time order, give the running
sum of bytes allocated inside the window, and its maximum is the peak (memory live before the
step, parameters and inputs, is the baseline and not counted, as in ``fusioncut.peak``). The
profiler's raw event list is reached through ``prof.profiler.kineto_results`` (the folded
``prof.events()`` merges allocations into their ops). Gradients are set to None before the
step so that their allocation is inside the window, as in the estimate.

Estimated peak: the partitioner is wrapped to record the joint graph and the saved set it
chose; ``fusioncut.peak.estimate_peak`` of that saved set on fusioncut's graph of the same
joint graph.
"""

from __future__ import annotations

import copy
import statistics
import time

import numpy as np
import torch
from torch.profiler import ProfilerActivity, profile

import fusioncut
from fusioncut import _torch_compat
from fusioncut.graph import JointGraph
from fusioncut.options import Options
from fusioncut.peak import estimate_peak

__all__ = ["measured_peak", "measured_step"]


def measured_peak(step) -> int:
    """Peak bytes allocated inside one call of ``step`` (CPU profiler memory events)."""
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        step()
    events = [e for e in prof.profiler.kineto_results.events() if e.name() == "[memory]"
              and str(e.device_type()).endswith("CPU")]
    running = peak = 0
    for e in sorted(events, key=lambda e: e.start_ns()):
        running += e.nbytes()
        peak = max(peak, running)
    return peak


class _Recorder(_torch_compat.custom_partitioner_fn_base()):
    """Partitions with fusioncut or torch at a budget; records the joint graph and the saved
    tensors of the forward module it returns."""

    def __init__(self, method: str, budget: float):
        self.method, self.budget, self.calls = method, budget, []

    def __call__(self, gm, joint_inputs, **kwargs):
        joint = copy.deepcopy(gm)
        if self.method == "fusioncut":
            fw, bw = fusioncut.partition(gm, joint_inputs,
                                         options=Options(memory_budget=self.budget), **kwargs)
        else:
            partition = _torch_compat.min_cut_rematerialization_partition()
            with _torch_compat.functorch_config().patch(activation_memory_budget=self.budget):
                fw, bw = partition(gm, joint_inputs, **kwargs)
        out = fw.graph.find_nodes(op="output")[0]
        leaves = [a for a in _torch_compat.tree_leaves(list(out.args))
                  if isinstance(a, torch.fx.Node)]
        self.calls.append((joint, kwargs, [a.name for a in leaves[kwargs["num_fwd_outputs"]:]]))
        return fw, bw

    def uuid(self):
        return None


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
    torch.compiler.reset()
    model = copy.deepcopy(module)
    recorder = _Recorder(method, budget)
    inductor = _torch_compat.inductor_config()
    with inductor.patch(custom_partitioner_fn=recorder, fx_graph_cache=False), \
            _torch_compat.functorch_config().patch(enable_autograd_cache=False):
        compiled = torch.compile(model)

        def step():
            model.zero_grad(set_to_none=True)
            out = compiled(*inputs)
            (out if out.dim() == 0 else out.sum()).backward()

        t0 = time.perf_counter()
        step()
        compile_s = time.perf_counter() - t0
        step()
        times = []
        for _ in range(steps):
            t = time.perf_counter()
            step()
            times.append(time.perf_counter() - t)
        peak = measured_peak(step)
    q = np.percentile(times, [25, 75])
    estimate = _estimate(recorder.calls)
    return {"step_ms": statistics.median(times) * 1e3, "step_iqr_ms": (q[1] - q[0]) * 1e3,
            "compile_s": compile_s, "measured_peak": peak, "estimated_peak": estimate,
            "estimate_error": (estimate - peak) / peak if estimate and peak else None,
            "partitions": len(recorder.calls)}
