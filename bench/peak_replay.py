"""The peak estimate against every plan measured before, in a minute: no plan is compiled.

    python bench/peak_replay.py [--plans bench/recorded/peak-cpu-2026-11-28-plans.json]
                                [--models gpt hf-llama ...] [--json PATH] [--rows]

``bench/bench_peak.py --cache FILE`` keeps each plan it measures (the saved nodes by name,
the measured peak, forward peak, bytes kept and backward peak); a plan's measurement depends
on the plan alone, on one torch and one machine. This script captures each model's joint
graph once (one compile, as ``bench_peak`` does), estimates every stored plan of it with the
installed ``fusioncut.peak`` and prints the errors, (estimate - measured) / measured: per
model the mean absolute error, the worst under and over, the share within 10%, the largest
difference in the bytes kept between the passes, and how many plans' estimated backward order
is not a schedule (a node placed before a value it reads); ``--rows`` adds every plan. A
change to the estimate's rules is judged here on the plans of every model at once, before
``bench_peak`` measures the plans the changed estimate picks.

The stored plans (``bench/recorded/peak-cpu-2026-12-04-plans.json``: 417 plans of 36 models,
torch 2.13.0+cpu, transformers 5.24.0: the 314 of ``peak-cpu-2026-11-28-plans.json``, measured
2026-11-27 and 28, among them the 68 under bfloat16 autocast; and 103 measured on 2026-12-04
for the plans the estimate of that day picks, among them the first of ViT, Whisper, ConvNeXt
and MobileNet v2) hold for that torch and those models' code; on another, measure anew with
``bench_peak.py --cache`` (a transformers release that renames a graph's nodes makes its plans
unreadable: ``replay`` says which node it misses).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from budget_peak import Session  # noqa: E402
from common import environment, markdown_table, write_json  # noqa: E402
from peak_models import ALL, MODELS  # noqa: E402

from fusioncut.options import Options  # noqa: E402
from fusioncut.peak import PeakEstimate, phase_events  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_PLANS = os.path.join(HERE, "recorded", "peak-cpu-2026-12-04-plans.json")
DEFAULT_JSON = os.path.join(HERE, "results", "peak_replay.json")
WITHIN = 0.10
MIB = 2 ** 20


def replay(name: str, plans: dict, session: Session | None = None) -> list[dict]:
    """Every stored plan of model ``name``, estimated on its captured joint graph."""
    mine = {k: v for k, v in plans.items() if k.split(":")[0] == name}
    if not mine:
        return []
    if session is None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            session = Session(name)
            graph = session.plan(Options()).graph
    else:
        graph = session.plan(Options()).graph
    index = {graph.nodes[i].name: i for i in range(graph.num_nodes)}
    rows = []
    for key, plan in sorted(mine.items()):
        missing = [n for n in plan["saved"] if n not in index]
        if missing:
            raise ValueError(f"peak_replay: plan {key} saves {missing[:3]}, which the captured "
                             f"graph of {name} does not have (another torch or model?)")
        saved = np.array(sorted(index[n] for n in plan["saved"]), dtype=np.int64)
        forward, backward, kept = phase_events(graph, saved)
        est = PeakEstimate(forward.peak(), backward.peak(), kept)
        rows.append({"key": key, "estimate": est.peak, "measured": plan["measured"],
                     "late_reads": late_reads(graph, backward.time),
                     "error": (est.peak - plan["measured"]) / plan["measured"],
                     "forward_error": (est.forward_peak - plan["measured_forward"])
                     / plan["measured_forward"],
                     "backward_error": (est.backward_peak - plan["measured_backward"])
                     / plan["measured_backward"],
                     "kept_difference": est.kept_bytes - plan["measured_kept"]})
    return rows


def late_reads(graph, t: np.ndarray) -> int:
    """Reads a phase's order ``t`` (``PhaseEvents.time``) places before the value they read
    (0 when the order is a schedule; docs/budget.md: the fused order is not one on some
    plans)."""
    src, dst = graph.edge_src, graph.edge_dst
    inside = (t[src] >= 0) & (t[dst] >= 0)
    return int((inside & (t[src] >= t[dst])).sum())


def stored_plan(path: str, key: str, tool: str) -> tuple[str, dict] | None:
    """The plan stored in the file ``path`` (``bench_peak.py --cache``) named ``key`` or by a
    unique prefix of its key, as (key, plan); None, having said why on stderr, when none or
    several match."""
    with open(path) as f:
        plans = json.load(f)
    keys = [k for k in plans if k.startswith(key)]
    if len(keys) != 1:
        print(f"{tool}: {len(keys)} plans match {key!r}; one needed (peak_replay.py --rows "
              f"lists the keys)", file=sys.stderr)
        return None
    return keys[0], plans[keys[0]]


def summary(name: str, rows: list[dict]) -> dict:
    err = np.array([r["error"] for r in rows])
    return {"model": name, "plans": len(rows), "mean_abs_error": float(np.abs(err).mean()),
            "worst_under": float(err.min()), "worst_over": float(err.max()),
            "within_10pct": float(np.mean(np.abs(err) <= WITHIN)),
            "not_a_schedule": sum(r["late_reads"] > 0 for r in rows),
            "kept_difference": max(abs(r["kept_difference"]) for r in rows)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plans", default=DEFAULT_PLANS)
    parser.add_argument("--models", nargs="+", default=list(MODELS),
                        choices=ALL)
    parser.add_argument("--json", default=DEFAULT_JSON)
    parser.add_argument("--rows", action="store_true", help="print every plan")
    args = parser.parse_args(argv)
    with open(args.plans) as f:
        plans = json.load(f)
    results, table = [], []
    for name in args.models:
        rows = replay(name, plans)
        if not rows:
            continue
        s = summary(name, rows)
        results.append({**s, "rows": rows})
        table.append([name, str(s["plans"]), f"{100 * s['mean_abs_error']:.1f}%",
                      f"{100 * s['worst_under']:+.1f}%", f"{100 * s['worst_over']:+.1f}%",
                      f"{100 * s['within_10pct']:.0f}%", f"{s['kept_difference']:,} B",
                      str(s["not_a_schedule"])])
        print(" | ".join(table[-1]), flush=True)
        if args.rows:
            for r in sorted(rows, key=lambda r: r["error"]):
                late = f"  ({r['late_reads']} late reads)" if r["late_reads"] else ""
                print(f"    {100 * r['error']:+6.1f}%  estimate {r['estimate'] / MIB:7.2f} MiB  "
                      f"measured {r['measured'] / MIB:7.2f} MiB  {r['key']}{late}")
    if not results:
        print(f"peak_replay: no stored plan of {', '.join(args.models)} in {args.plans}",
              file=sys.stderr)
        return 2
    every = np.concatenate([[r["error"] for r in m["rows"]] for m in results])
    table.append(["all", str(len(every)), f"{100 * np.abs(every).mean():.1f}%",
                  f"{100 * every.min():+.1f}%", f"{100 * every.max():+.1f}%",
                  f"{100 * np.mean(np.abs(every) <= WITHIN):.0f}%", "",
                  str(sum(m["not_a_schedule"] for m in results))])
    text = markdown_table(["model", "plans", "mean |error|", "worst under", "worst over",
                           "within 10%", "kept bytes: largest difference",
                           "orders not a schedule"], table)
    print("\n" + text)
    write_json(args.json, {"environment": environment("cpu"), "plans": args.plans,
                           "results": results, "table": text})
    return 0


if __name__ == "__main__":
    sys.exit(main())
