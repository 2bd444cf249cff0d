"""Bracketed solves: budgeted partitions with and without them, same run, same graphs.

    python bench/bench_brackets.py [--models gpt48 llama2k resnet] [--repeats 5] [--json PATH]

A parametric sweep's solve between two of its cuts runs on the band between them
(``NodeCutGraph._solve_between``; docs/design.md, "Bracketed solves"). Per model (captured
once, as ``bench_budget.py`` does) this times, interleaved so that load hits both alike,
``fusioncut.partition`` in runtime mode and at ``memory_budget_bytes`` 10/30/55/80% of the way
up from the least plan's saved bytes, with and without ``offload="auto"`` (the "h100"
preset), each once with brackets and once with ``BudgetNetwork.nested`` forced off (every solve
on the whole network, as before); the plans must be the same. Reported: median wall and CPU
seconds, the minimum cuts' count and C++ time per partition, and each budgeted partition over
the runtime one.
"""

from __future__ import annotations

import argparse
import copy
import gc
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_budget import build  # noqa: E402
from budget_offload import DEVICE, _kwargs  # noqa: E402
from common import environment, markdown_table, write_json  # noqa: E402

import fusioncut  # noqa: E402
from fusioncut import _solver, _torch_compat, budget_plans  # noqa: E402
from fusioncut.options import Options  # noqa: E402
from fusioncut.report import capture  # noqa: E402

FRACTIONS = (0.1, 0.3, 0.55, 0.8)
DEFAULT_JSON = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results",
                            "brackets.json")


class _Solves:
    """Counts the minimum cuts of a partition and their seconds (both solve entry points of
    ``NodeCutGraph``, wrapped while the context is open)."""

    NAMES = ("solve_int64", "_solve_between")

    def __init__(self):
        self.count, self.seconds = 0, 0.0
        self._saved = {}

    def __enter__(self):
        for name in self.NAMES:
            self._saved[name] = getattr(_solver.NodeCutGraph, name)
            setattr(_solver.NodeCutGraph, name, self._timed(self._saved[name]))
        return self

    def __exit__(self, *exc):
        for name, method in self._saved.items():
            setattr(_solver.NodeCutGraph, name, method)

    def _timed(self, method):
        def timed(graph, *args, **kwargs):
            t0 = time.perf_counter()
            try:
                return method(graph, *args, **kwargs)
            finally:
                self.count += 1
                self.seconds += time.perf_counter() - t0
        return timed


def _rounds(cap, cases, repeats, solves, runs, plans) -> None:
    """Every case with and without brackets, ``repeats`` times, interleaved."""
    nested = budget_plans.BudgetNetwork.nested
    for _ in range(repeats):
        for case, options in cases.items():
            for bracket in (True, False):
                budget_plans.BudgetNetwork.nested = nested if bracket else property(
                    lambda self: False)
                with _torch_compat.quiet_copies():
                    jm = copy.deepcopy(cap.joint_module)
                gc.collect()
                solves.count, solves.seconds = 0, 0.0
                w0, c0 = time.perf_counter(), time.process_time()
                with _torch_compat.functorch_config().patch(
                        activation_offload_separate_stream=False):
                    fw, bw = fusioncut.partition(jm, cap.joint_inputs, options=options,
                                                 **_kwargs(cap))
                runs[case, bracket].append((time.perf_counter() - w0, time.process_time() - c0,
                                            solves.count, solves.seconds))
                plans.setdefault(case, set()).add(str(fw.graph) + str(bw.graph))


def bench_model(name: str, repeats: int, solves: _Solves, quick: bool = False,
                log=print) -> dict:
    module, inputs = build(name, quick)
    cap = capture(module, *inputs)
    front = fusioncut.pareto(cap.joint_module, **_kwargs(cap), options=Options(device=DEVICE))
    few, most = front.least.saved_bytes, front.runtime.saved_bytes
    cases = {"runtime": Options()}
    for offload in ("never", "auto"):
        for f in FRACTIONS:
            cases[f"{offload} {f:g}"] = Options(device=DEVICE, offload=offload,
                                                memory_budget_bytes=int(few + f * (most - few)))
    runs = {(c, b): [] for c in cases for b in (True, False)}
    plans = {}
    nested = budget_plans.BudgetNetwork.nested
    try:
        _rounds(cap, cases, repeats, solves, runs, plans)
    finally:
        budget_plans.BudgetNetwork.nested = nested
    rows = []
    rt = {b: statistics.median(r[1] for r in runs["runtime", b]) for b in (True, False)}
    for case in cases:
        row = {"case": case, "same_plan": len(plans[case]) == 1}
        for b, key in ((True, "with"), (False, "without")):
            r = runs[case, b]
            row[key] = {"wall_s": statistics.median(x[0] for x in r),
                        "cpu_s": statistics.median(x[1] for x in r),
                        "solves": r[0][2], "solve_s": statistics.median(x[3] for x in r)}
            row[key]["over_runtime_cpu"] = row[key]["cpu_s"] / rt[b]
        rows.append(row)
    log(f"{name}: {len(cap.joint_module.graph.nodes)} joint-graph nodes")
    log(markdown_table(
        ["case", "same plan", "CPU ms with / without", "x runtime with / without",
         "cuts with / without", "cut ms with / without"],
        [[r["case"], "yes" if r["same_plan"] else "NO",
          f"{r['with']['cpu_s'] * 1e3:.1f} / {r['without']['cpu_s'] * 1e3:.1f}",
          f"{r['with']['over_runtime_cpu']:.2f} / {r['without']['over_runtime_cpu']:.2f}",
          f"{r['with']['solves']} / {r['without']['solves']}",
          f"{r['with']['solve_s'] * 1e3:.1f} / {r['without']['solve_s'] * 1e3:.1f}"]
         for r in rows]))
    return {"model": name, "rows": rows}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="*", default=["gpt48", "llama2k", "resnet"])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="the models at test size")
    parser.add_argument("--json", default=DEFAULT_JSON)
    args = parser.parse_args(argv)
    with _Solves() as solves:
        results = [bench_model(m, args.repeats, solves, args.quick) for m in args.models]
    write_json(args.json, {"environment": environment(), "results": results})
    same = all(r["same_plan"] for m in results for r in m["rows"])
    print(f"every plan the same with and without brackets: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
