"""The offload column of bench_budget.py: one joint graph's frontier with and without offloading,
partition times, and PyTorch's plans scored in the same cost model.

Everything is priced on the ``"h100"`` preset (its host link: 50 GiB/s each way, 90% of an
overlapped transfer hidden) under torch's offload settings at the time of the call (the default:
synchronous ``device_put``, nothing hidden; ``--offload-stream`` adds the side stream and
prefetch). A plan's estimated step time::

    step = C_fwd + C_bwd + bytes moved / bandwidth + recompute seconds + transfer seconds

``C_fwd`` and ``C_bwd`` the forward's and backward's compute in ``recompute.py``'s model (the
host link's phase compute, ``offload_link``), the rest ``FrontierPoint.step_seconds`` (the
transfers' exposed time, link excess included). Reported per model:

- the least estimated peak among the plans of each frontier whose step is at most 5% (and 10%,
  25%, unbounded) over the runtime plan's, without and with ``offload="auto"``, and the least
  a ``peak_memory_bytes`` target reaches within the same step (``_least_by_target``: below the
  frontier's points its plan offloads what the peak holds, ``budget_polish``);
- the whole frontier's time with and without offload (interleaved, medians), and a budgeted
  partition with offload (``partition`` end to end, emission through torch's offload pass
  included, synchronous: the side stream needs an accelerator) against a runtime-mode one,
  interleaved, medians of 3: ``memory_budget`` at ``PARTITION_BUDGETS`` and
  ``peak_memory_bytes`` at ``PEAK_TARGET_FRACTIONS`` of the way from the offload frontier's
  least estimated peak to the runtime plan's (the search of ``budget_polish`` included), and
  ``memory_budget_bytes`` at ``BYTE_FRACTIONS`` of the way from its least plan's saved bytes to
  the runtime plan's (``Frontier.best_within`` over the link's sweeps);
- PyTorch's knapsack at ``activation_memory_budget`` 0.1-0.5 and PyTorch's offload (its
  default min cut with ``enable_activation_offloading`` and every saved activation marked
  ``should_offload``, which is what tagging every saveable activation ``MUST_CPU_OFFLOAD``
  asks for; torch's ``can_offload`` keeps what it can), each scored on fusioncut's graph, next
  to fusioncut's plan for ``peak_memory_bytes`` = that plan's estimated peak: is it no slower?
"""

from __future__ import annotations

import copy
import gc
import statistics
import time

import numpy as np
import torch.fx as fx

import fusioncut
from fusioncut import _torch_compat
from fusioncut.device import PRESETS
from fusioncut.graph import Role
from fusioncut.options import Options
from fusioncut.recompute import recompute_model
from fusioncut.report.pareto import torch_budget_plan

__all__ = ["KNAPSACK_BUDGETS", "STEP_SLACKS", "bench_offload", "torch_offload_plan"]

DEVICE = PRESETS["h100"]
STEP_SLACKS = (0.05, 0.10, 0.25, None)  # None: any step time
KNAPSACK_BUDGETS = (0.1, 0.2, 0.3, 0.4, 0.5)
PARTITION_BUDGETS = (0.0, 0.25, 0.5, 0.75)
PEAK_TARGET_FRACTIONS = (0.1, 0.3, 0.5, 0.7)  # peak targets timed, from the least peak up
BYTE_FRACTIONS = (0.1, 0.3, 0.55, 0.8)  # byte budgets timed, from the least plan's bytes up


def _kwargs(cap) -> dict:
    return dict(num_fwd_outputs=cap.num_fwd_outputs,
                static_lifetime_input_indices=cap.static_lifetime_input_indices)


def torch_offload_plan(cap, graph) -> tuple[np.ndarray, np.ndarray, float]:
    """PyTorch's partitioner with its offloading on and every forward value marked
    ``should_offload``: its saved set, the values its pass offloaded (joint-node indices of
    ``graph``) and its partition time."""
    partition = _torch_compat.min_cut_rematerialization_partition()
    with _torch_compat.quiet_copies():
        jm = copy.deepcopy(cap.joint_module)
    for node in jm.graph.nodes:
        if node.op == "call_function":
            node.meta["should_offload"] = True
    # Which values torch's pass offloads does not depend on its stream settings; its
    # side-stream emission (prefetch benchmarks nodes on the accelerator) needs a GPU.
    with _torch_compat.functorch_config().patch(enable_activation_offloading=True,
                                                activation_memory_budget=1.0,
                                                activation_offload_separate_stream=False):
        t0 = time.perf_counter()
        fw, _ = partition(jm, cap.joint_inputs, **_kwargs(cap))
        elapsed = time.perf_counter() - t0
    out = fw.graph.find_nodes(op="output")[0]
    leaves = [a for a in _torch_compat.tree_leaves(list(out.args)) if isinstance(a, fx.Node)]
    by_name = {nd.name: i for i, nd in enumerate(graph.nodes)}
    saved, moved = set(), set()
    for a in leaves[cap.num_fwd_outputs:]:
        name = a.name[len("cpu_offload_"):] if a.name.startswith("cpu_offload_") else a.name
        if name in by_name:
            saved.add(by_name[name])
            if name != a.name:
                moved.add(by_name[name])
    return (np.array(sorted(saved), dtype=np.int64), np.array(sorted(moved), dtype=np.int64),
            elapsed)


def _partition_times(cap, repeats: int, device, peaks=(), byte_limits=()
                     ) -> tuple[float, dict[float, float], dict[int, float], dict[int, float]]:
    """Median seconds of ``fusioncut.partition`` in runtime mode and with ``offload="auto"``
    on ``device`` (named: a CPU capture gets no host link otherwise) at each of
    ``PARTITION_BUDGETS``, at each peak target of ``peaks`` and at each byte budget of
    ``byte_limits`` (bytes), interleaved, each call on its own deep copy."""
    runs: dict[object, list[float]] = {None: [], **{("budget", b): [] for b in PARTITION_BUDGETS},
                                       **{("peak", t): [] for t in peaks},
                                       **{("bytes", t): [] for t in byte_limits}}
    # Emission with torch's side stream needs an accelerator: partitions emit synchronously.
    with _torch_compat.functorch_config().patch(activation_offload_separate_stream=False):
        _rounds(cap, runs, repeats, device)
    return (statistics.median(runs[None]),
            {b: statistics.median(runs[("budget", b)]) for b in PARTITION_BUDGETS},
            {t: statistics.median(runs[("peak", t)]) for t in peaks},
            {t: statistics.median(runs[("bytes", t)]) for t in byte_limits})


def _rounds(cap, runs, repeats: int, device) -> None:
    for _ in range(repeats):
        for key in runs:
            if key is None:
                options = Options()
            elif key[0] == "budget":
                options = Options(device=device, memory_budget=key[1], offload="auto")
            elif key[0] == "bytes":
                options = Options(device=device, memory_budget_bytes=key[1], offload="auto")
            else:
                options = Options(device=device, peak_memory_bytes=key[1], offload="auto")
            with _torch_compat.quiet_copies():
                jm = copy.deepcopy(cap.joint_module)
            gc.collect()
            t0 = time.perf_counter()
            fusioncut.partition(jm, cap.joint_inputs, options=options, **_kwargs(cap))
            runs[key].append(time.perf_counter() - t0)


def base_seconds(graph, device) -> float:
    """The forward's and backward's compute in ``recompute.py``'s model on ``device``: a
    plan's estimated step is this plus what it adds (``FrontierPoint.step_seconds``)."""
    seconds = recompute_model(graph, device).seconds(graph)
    return float(seconds[graph.role == Role.FORWARD].sum()
                 + seconds[graph.role == Role.BACKWARD].sum())


def _least(points, step, limit):
    ok = [p for p in points if limit is None or step(p) <= limit]
    return min(ok, key=lambda p: (p.peak.peak, step(p)))


def _least_by_target(front, step, limit, least, misses: int = 8):
    """The least estimated peak a ``peak_memory_bytes`` target (no margin) reaches with a plan
    whose step is at most ``limit``: targets from ``least`` (the frontier's plan) downward in
    steps of 0.25% of the runtime plan's peak, until ``misses`` targets in a row get no such
    plan. Below the frontier's points the target's plan offloads what the peak holds
    (``budget_polish``)."""
    stride = max(1, front.runtime.peak.peak // 400)
    best, missed, n = least, 0, least.peak.peak - stride
    while missed < misses and n > 0:
        p, gap = front.for_peak(n)
        if gap == 0 and step(p) <= limit:
            if p.peak.peak < best.peak.peak:
                best = p
            missed, n = 0, min(n, p.peak.peak) - stride
        else:
            missed, n = missed + 1, n - stride
    return best


def _summary(p, step) -> dict:
    return {"peak_bytes": p.peak.peak, "kept_bytes": p.saved_bytes,
            "offloaded_bytes": p.offloaded_bytes, "step_seconds": step(p),
            "recompute_seconds": p.recompute_seconds, "offload_seconds": p.offload_seconds,
            "link_excess_seconds": p.link_excess_seconds}


def bench_offload(name: str, cap, log=print, repeats: int = 3, device=DEVICE) -> dict:
    """Every figure of the offload column for one captured model (module docstring), priced
    on ``device`` (the ``"h100"`` preset unless given)."""
    kwargs = _kwargs(cap)
    times: dict[str, list[float]] = {"plain": [], "offload": []}
    for _ in range(repeats):  # both frontiers, interleaved: load hits both alike
        for key, options in (("plain", Options(device=device)),
                             ("offload", Options(device=device, offload="auto"))):
            gc.collect()
            t0 = time.perf_counter()
            built = fusioncut.pareto(cap.joint_module, **kwargs, options=options)
            _ = built.points
            times[key].append(time.perf_counter() - t0)
            if key == "plain":
                plain = built
            else:
                front = built
    points = front.points
    frontier_s = statistics.median(times["offload"])
    plain_s = statistics.median(times["plain"])
    graph = front.graph
    base = base_seconds(graph, device)

    def step(p) -> float:
        return base + p.step_seconds(device)

    runtime = step(front.runtime)
    least = {}
    for slack in STEP_SLACKS:
        limit = None if slack is None else runtime * (1 + slack)
        a, b = _least(plain.points, step, limit), _least(points, step, limit)
        row = least["any" if slack is None else f"{slack:g}"] = {
            "without": _summary(a, step), "with": _summary(b, step),
            "reduction": 1 - b.peak.peak / a.peak.peak}
        if limit is not None:
            c = _least_by_target(front, step, limit, b)
            row["by_target"] = _summary(c, step)
            row["by_target_reduction"] = 1 - c.peak.peak / a.peak.peak
    lo, hi = front.least.peak.peak, front.runtime.peak.peak
    targets = [int(lo + f * (hi - lo)) for f in PEAK_TARGET_FRACTIONS]
    few, most = front.least.saved_bytes, front.runtime.saved_bytes
    limits = [int(few + f * (most - few)) for f in BYTE_FRACTIONS]
    runtime_s, budgeted, by_peak, by_bytes = _partition_times(cap, repeats, device, targets,
                                                              limits)
    ratios = [t / runtime_s for t in budgeted.values()]

    evaluate = front.generator.evaluate
    peers = []
    for b in KNAPSACK_BUDGETS:
        saved, _ = torch_budget_plan(cap.joint_module, cap.joint_inputs, graph,
                                     cap.num_fwd_outputs, cap.static_lifetime_input_indices, b)
        peers.append((f"knapsack {b:g}", evaluate.point(saved, None)))
    saved, moved, _ = torch_offload_plan(cap, graph)
    peers.append(("offload all", evaluate.point(saved, None, moved)))
    rows = []
    for label, theirs in peers:
        mine, gap = front.for_peak(theirs.peak.peak)
        rows.append({"peer": label, "torch": _summary(theirs, step),
                     "fusioncut": _summary(mine, step), "fits": gap == 0,
                     "no_slower": gap == 0 and step(mine) <= step(theirs) * (1 + 1e-9)})
    out = {"model": name, "offload_hidden": device.offload_hidden,
           "runtime_step_seconds": runtime, "base_compute_seconds": base,
           "runtime_peak_bytes": front.runtime.peak.peak, "least_peak": least,
           "frontier_s": frontier_s, "plain_frontier_s": plain_s,
           "frontier_points": len(points), "plain_frontier_points": len(plain.points),
           "runtime_partition_s": runtime_s,
           "offload_partition_s": {str(b): t for b, t in budgeted.items()},
           "offload_over_runtime_median": statistics.median(ratios),
           "offload_over_runtime_max": max(ratios), "peers": rows,
           "peak_target_partition_s": {f"{f:g}": by_peak[t]
                                       for f, t in zip(PEAK_TARGET_FRACTIONS, targets)},
           "byte_budget_partition_s": {f"{f:g}": by_bytes[t]
                                       for f, t in zip(BYTE_FRACTIONS, limits)},
           "torch_offload": {"saved": len(saved), "offloaded": len(moved)}}
    _log(out, log)
    return out


def _log(r: dict, log) -> None:
    mib = 2.0 ** 20
    log(f"\n{r['model']} offload (h100 preset, offload_hidden {r['offload_hidden']:g}): "
        f"runtime step {r['runtime_step_seconds'] * 1e3:.3f} ms (compute "
        f"{r['base_compute_seconds'] * 1e3:.3f} ms), peak "
        f"{r['runtime_peak_bytes'] / mib:.2f} MiB; offload frontier {r['frontier_points']} "
        f"points in {r['frontier_s']:.2f} s (without offload {r['plain_frontier_points']} in "
        f"{r['plain_frontier_s']:.2f} s, same run); budgeted partition with offload "
        f"{r['offload_over_runtime_median']:.2f}x a runtime one (median), at most "
        f"{r['offload_over_runtime_max']:.2f}x ({r['runtime_partition_s'] * 1e3:.0f} ms)")
    by_peak = r["peak_target_partition_s"]
    log(f"  peak targets {' / '.join(f'{float(f):.0%}' for f in by_peak)} of the way up from "
        f"the least peak: partitions "
        + " / ".join(f"{t * 1e3:.0f} ms ({t / r['runtime_partition_s']:.2f}x)"
                     for t in by_peak.values()))
    by_bytes = r["byte_budget_partition_s"]
    log(f"  memory_budget_bytes {' / '.join(f'{float(f):.0%}' for f in by_bytes)} of the way up "
        f"from the least plan's saved bytes: partitions "
        + " / ".join(f"{t * 1e3:.0f} ms ({t / r['runtime_partition_s']:.2f}x)"
                     for t in by_bytes.values()))
    for key, row in r["least_peak"].items():
        a, b = row["without"], row["with"]
        log(f"  least peak at step <= {'any' if key == 'any' else '+' + key}: without offload "
            f"{a['peak_bytes'] / mib:.2f} MiB, with {b['peak_bytes'] / mib:.2f} MiB "
            f"({row['reduction']:+.0%}; offloads {b['offloaded_bytes'] / mib:.2f} MiB, step "
            f"{b['step_seconds'] / r['runtime_step_seconds'] - 1:+.1%})"
            + ("" if "by_target" not in row else
               f"; by a peak target {row['by_target']['peak_bytes'] / mib:.2f} MiB "
               f"({row['by_target_reduction']:+.0%}; offloads "
               f"{row['by_target']['offloaded_bytes'] / mib:.2f} MiB, step "
               f"{row['by_target']['step_seconds'] / r['runtime_step_seconds'] - 1:+.1%})"))
    for row in r["peers"]:
        t, f = row["torch"], row["fusioncut"]
        log(f"  PyTorch {row['peer']:13s}: peak {t['peak_bytes'] / mib:7.2f} MiB step "
            f"{t['step_seconds'] * 1e3:.3f} ms | fusioncut at that peak: "
            f"{f['peak_bytes'] / mib:7.2f} MiB step {f['step_seconds'] * 1e3:.3f} ms "
            f"(offloads {f['offloaded_bytes'] / mib:.2f} MiB) "
            f"{'no slower' if row['no_slower'] else 'SLOWER' if row['fits'] else 'MISSES'}")
