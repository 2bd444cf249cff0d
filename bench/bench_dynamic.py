"""Dynamic-shape re-solving: ``Plan.solve`` and ``Plan.breakpoints`` against torch.

    python bench/bench_dynamic.py [--layers 48] [--repeats 200] [--json out.json]

Model: the zoo's GPT (``fusioncut.models``: token + position embedding, ``--layers`` x
[LayerNorm, causal attention, LayerNorm, MLP with GeLU], final LayerNorm, untied head,
cross-entropy), d_model 32, 2 heads,
traced once with ``aot_module(..., dynamic=True)`` so batch and sequence length are symbols.

Timed, in the same run:

- ``plan``: ``fusioncut.plan`` (once per graph: analysis, the cost model, the network);
- ``solve``: ``Plan.solve(sizes)`` at seeded random (batch, seq) sizes, median over
  ``--repeats`` calls (garbage collector off);
- ``torch``: a fresh ``min_cut_rematerialization_partition`` of a copy of the same joint
  graph (what torch does for every new graph), median over a few calls;
- ``budget``: ``Plan.solve(sizes, memory_budget=0.5)``: the budget frontier at new sizes and
  its plan (median over 20 seeded sizes);
- ``breakpoints``: ``Plan.breakpoints(seq, 16, 65536)`` with batch at its hint.

Checked: the decision at the hints equals ``fusioncut.decide`` on the same graph (``plan``
itself raises otherwise), each timed solve agrees with a from-scratch
``fusioncut.min_node_cut`` on ``Plan.weights`` (the same network, not contracted), and the
breakpoint ranges cover [16, 65536] with each range's decision equal to ``solve`` at both ends.
Results: a table on stdout and JSON (default bench/results/dynamic.json).
"""

from __future__ import annotations

import argparse
import copy
import datetime
import gc
import json
import os
import platform
import statistics
import sys
import time
import warnings

import numpy as np
import torch

from fusioncut.models import GPT, GPTConfig

DEFAULT_JSON = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", "dynamic.json")
TARGET_SOLVE_S = 1e-3
TARGET_RATIO = 1000.0
TARGET_BREAKPOINTS_S = 20e-3


def gpt_config(layers: int) -> GPTConfig:
    """The zoo's GPT (tests style: LayerNorm, F.gelu, written-out attention), untied head, no
    dropout, d_model 32, positions for up to 65536 tokens."""
    return GPTConfig(vocab=64, block_size=65536, d_model=32, n_head=2, n_layer=layers,
                     dropout_sites=(), head="untied")


def capture(layers: int, batch: int, seq: int):
    """The joint graph AOTAutograd hands a partitioner, traced with dynamic shapes."""
    from functorch.compile import aot_module, default_partition

    torch.manual_seed(0)
    model = GPT(gpt_config(layers))
    captured = []

    def record(joint_module, joint_inputs, *, num_fwd_outputs, **kwargs):
        captured.append((copy.deepcopy(joint_module), joint_inputs, num_fwd_outputs,
                         kwargs.get("static_lifetime_input_indices")))
        return default_partition(joint_module, joint_inputs, num_fwd_outputs=num_fwd_outputs)

    g = torch.Generator().manual_seed(0)
    idx = torch.randint(0, 64, (batch, seq), generator=g)
    targets = torch.randint(0, 64, (batch, seq), generator=g)
    compiled = aot_module(model, fw_compiler=_nop, bw_compiler=_nop, partition_fn=record,
                          dynamic=True)
    compiled(idx, targets)
    return captured[0]


def _nop(gm, _inputs):
    return gm


def timed(fn, repeats: int) -> list[float]:
    times = []
    gc.disable()
    try:
        for _ in range(repeats):
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
    finally:
        gc.enable()
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, default=48)
    parser.add_argument("--repeats", type=int, default=1000)
    parser.add_argument("--torch-repeats", type=int, default=3)
    parser.add_argument("--json", default=DEFAULT_JSON)
    args = parser.parse_args()

    from fusioncut import dynamic
    from torch._functorch.partitioners import min_cut_rematerialization_partition

    warnings.simplefilter("ignore", FutureWarning)
    t0 = time.perf_counter()
    joint, joint_inputs, num_fwd, static = capture(args.layers, batch=3, seq=17)
    trace_s = time.perf_counter() - t0
    n_nodes = len(joint.graph.nodes)

    plan_times = []
    plan = None
    for _ in range(3):
        gm = copy.deepcopy(joint)
        t0 = time.perf_counter()
        plan = dynamic.plan(gm, joint_inputs, num_fwd_outputs=num_fwd,
                            static_lifetime_input_indices=static)
        plan_times.append(time.perf_counter() - t0)
    names = list(plan.symbols)
    batch_sym, seq_sym = _batch_and_seq(plan)

    rng = np.random.default_rng(0)
    sizes_list = [{batch_sym: int(rng.integers(1, 17)) + 1, seq_sym: int(rng.integers(16, 4097))}
                  for _ in range(args.repeats)]
    # Correctness of the timed path: the contracted network agrees with the full one.
    mismatches = 0
    for sizes in sizes_list[:10]:
        d = plan.solve(sizes)
        w = plan.weights(sizes)
        ref = _reference_cut(plan, w, sizes)
        if not np.array_equal(ref, d.saved_index):
            mismatches += 1
    it = iter(sizes_list * 2)
    plan.solve(sizes_list[0])  # warm
    solve_times = timed(lambda: plan.solve(next(it)), args.repeats)
    # Under a memory budget: the frontier at the new sizes, then its plan for the budget.
    it_b = iter(sizes_list * 2)
    budget_times = timed(lambda: plan.solve(next(it_b), memory_budget=0.5), 20)

    torch_times = []
    for _ in range(args.torch_repeats):
        gm = copy.deepcopy(joint)
        t0 = time.perf_counter()
        min_cut_rematerialization_partition(gm, joint_inputs, num_fwd_outputs=num_fwd,
                                            static_lifetime_input_indices=static)
        torch_times.append(time.perf_counter() - t0)

    bp_times = []
    bp = None
    for _ in range(5):
        t0 = time.perf_counter()
        bp = plan.breakpoints(seq_sym, 16, 65536)
        bp_times.append(time.perf_counter() - t0)
    covered = bp[0][0] == 16 and bp[-1][1] == 65536 and all(
        bp[j][1] + 1 == bp[j + 1][0] for j in range(len(bp) - 1))
    ends_ok = all(plan.solve({batch_sym: plan.symbols[batch_sym].hint, seq_sym: t}).key()
                  == d.key() for a, b, d in bp for t in (a, b))

    # Where a solve's time goes: sizes -> element counts, weights, the max-flow itself.
    sizes0 = sizes_list[0]
    values0 = plan.sizes.values(sizes0, "bench")
    E0 = plan._evaluate(values0)
    w0 = plan._network_weights(E0)
    parts = {
        "validate sizes": statistics.median(timed(lambda: plan.sizes.values(sizes0, "b"), 200)),
        "element counts": statistics.median(timed(lambda: plan._evaluate(values0), 200)),
        "weights": statistics.median(timed(lambda: plan._network_weights(E0), 200)),
        "max-flow (C++)": statistics.median(timed(
            lambda: plan.cut(w0, "b"), 200)),
    }

    t0 = time.perf_counter()
    report = dynamic.check_optimal_over_ranges(plan)
    check_s = time.perf_counter() - t0

    network_nodes = plan._contracted.num_nodes + len(plan._dyn_ban_nodes)
    solve_med = statistics.median(solve_times)
    torch_med = statistics.median(torch_times)
    bp_med = statistics.median(bp_times)
    ratio = torch_med / solve_med
    rows = [
        ("joint graph", f"{n_nodes} nodes, symbols {names} (batch {batch_sym}, seq {seq_sym})"),
        ("trace (aot_module, dynamic=True)", f"{trace_s:.1f} s"),
        ("fusioncut.plan", f"{statistics.median(plan_times) * 1e3:.1f} ms (median of 3)"),
        ("Plan.solve", f"{solve_med * 1e6:.0f} us median, min {min(solve_times) * 1e6:.0f} us, "
                       f"p90 {np.percentile(solve_times, 90) * 1e6:.0f} us "
                       f"({args.repeats} seeded sizes)"),
        ("  of which", ", ".join(f"{k} {v * 1e6:.0f} us" for k, v in parts.items())),
        ("network", f"{network_nodes} nodes after contracting the backward "
                    f"({len(plan._dyn_ban_nodes)} size-dependent bans)"),
        ("torch min_cut_rematerialization_partition",
         f"{torch_med * 1e3:.0f} ms median of {args.torch_repeats}"),
        ("ratio torch / Plan.solve", f"{ratio:,.0f}x"),
        ("Plan.solve(sizes, memory_budget=0.5)",
         f"{statistics.median(budget_times) * 1e3:.1f} ms median of 20 seeded sizes"),
        ("Plan.breakpoints(seq, 16, 65536)", f"{bp_med * 1e3:.2f} ms median of 5, "
                                             f"{len(bp)} range(s): "
                                             + ", ".join(f"[{a}, {b}]" for a, b, _ in bp)),
        ("check_optimal_over_ranges (hints)",
         f"{check_s * 1e3:.1f} ms: optimal={report.optimal} over {report.box}"
         + (f", counterexample {report.counterexample}" if report.counterexample else "")
         + (f" ({report.detail})" if report.detail else "")),
        ("load average (shared machine)", " ".join(f"{x:.1f}" for x in os.getloadavg())),
        ("checks", f"contracted == full network: {10 - mismatches}/10; ranges cover: {covered}; "
                   f"range ends == solve: {ends_ok}"),
    ]
    width = max(len(r[0]) for r in rows)
    print(f"bench_dynamic: GPT with {args.layers} layers, d_model 32, CPU, "
          f"{platform.processor() or platform.machine()}")
    for k, v in rows:
        print(f"  {k:<{width}}  {v}")
    targets = {
        "solve_under_1ms": solve_med < TARGET_SOLVE_S,
        "ratio_at_least_1000x": ratio >= TARGET_RATIO,
        "breakpoints_under_20ms": bp_med < TARGET_BREAKPOINTS_S,
    }
    print("  targets: " + ", ".join(f"{k}: {'ok' if v else 'MISSED'}" for k, v in targets.items()))
    result = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
        "machine": platform.platform(),
        "torch": torch.__version__,
        "layers": args.layers,
        "joint_nodes": n_nodes,
        "symbols": {k: {"hint": v.hint, "lo": v.lo, "hi": v.hi} for k, v in plan.symbols.items()},
        "trace_s": trace_s,
        "plan_s": plan_times,
        "solve_s_median": solve_med,
        "budget_solve_s_median": statistics.median(budget_times),
        "solve_s_p90": float(np.percentile(solve_times, 90)),
        "solve_s_min": min(solve_times),
        "load_average": os.getloadavg(),
        "solve_parts_s": parts,
        "network_nodes": network_nodes,
        "torch_partition_s": torch_times,
        "ratio_torch_over_solve": ratio,
        "breakpoints_s": bp_times,
        "breakpoints": [{"lo": a, "hi": b, "saved": len(d.saved_index), "cost": d.cost}
                        for a, b, d in bp],
        "range_check": {"s": check_s, "optimal": report.optimal, "box": report.box,
                        "counterexample": report.counterexample, "detail": report.detail},
        "checks": {"contracted_equals_full": mismatches == 0, "ranges_cover": covered,
                   "range_ends_equal_solve": ends_ok},
        "targets": targets,
    }
    os.makedirs(os.path.dirname(args.json), exist_ok=True)
    with open(args.json, "w") as f:
        json.dump(result, f, indent=2)
    print(f"  wrote {args.json}")
    ok = mismatches == 0 and covered and ends_ok
    return 0 if ok else 1


def _batch_and_seq(plan) -> tuple[str, str]:
    """Batch is the symbol with hint 3, sequence the one with hint 17 (as traced)."""
    by_hint = {info.hint: name for name, info in plan.symbols.items()}
    return by_hint[3], by_hint[17]


def _reference_cut(plan, w, sizes) -> np.ndarray:
    """decide()'s network, uncontracted, solved from scratch with fusioncut.min_node_cut."""
    import fusioncut

    ref = plan.reference
    source_in = ref.source_in.copy()
    E = plan._evaluate(plan.sizes.values(sizes, "bench"))
    if len(plan._dyn_ban_nodes):
        source_in[plan._dyn_ban_nodes] = plan._bans(E)
    g = plan.graph
    cut = fusioncut.min_node_cut(w, g.edge_src, g.edge_dst, source_in=source_in,
                                 sink_in=ref.sink_in, sink_out=ref.sink_out)
    return np.asarray(cut.cut_nodes, dtype=np.int64)


if __name__ == "__main__":
    sys.exit(main())
