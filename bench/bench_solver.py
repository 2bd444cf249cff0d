"""Max-flow benchmark: fusioncut.min_cut against its peers on torch's and synthetic networks.

    python bench/bench_solver.py [--quick] [--json out.json] [--families torch layered ...]

For every graph (graphs.py) and every available tool (peers.py) it times "numpy arrays in,
cut out": ``--repeats`` timed calls (fewer once a tool has used ``--budget`` seconds on the
graph, but at least ``MIN_REPEATS``, 1 with --quick), interleaved round-robin across tools,
with the garbage collector off during each call. Each tool is warmed up once on a tiny graph
first, so imports are not timed. It reports the median and min-max, the time ratio to OR-tools and to networkx's
``preflow_push`` measured in the same run, and checks every answer:

- every tool's cut value equals fusioncut's (and, for the recorded torch networks, the value
  torch's own solver returned when the network was recorded: networkx up to torch 2.14, its
  pure-Python Dinic from 2.15; the recording's ``solver`` field says which);
- every source side a tool returns is a cut whose capacity is that value.

A mismatch is printed as MISMATCH and makes the run exit with status 1.

Peak memory of one fusioncut solve on the 1M-vertex layered graph is measured in a fresh
subprocess (see ``measure_peak_memory``). Results go to a table on stdout and to a JSON file
(default bench/results/solver.json).
"""

from __future__ import annotations

import argparse
import datetime
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import graphs  # noqa: E402
import peers  # noqa: E402
from common import cpu_model as _cpu_model  # noqa: E402
from common import fusioncut_build as _fusioncut_build  # noqa: E402
from common import markdown_table, module_versions, timed, write_json  # noqa: E402

MIN_REPEATS = 3
# A tool (other than fusioncut's "auto") whose median on a family's previous size took longer
# than this is skipped on the family's next, 10x larger size: it would take minutes there.
SLOW_SKIP_S = 2.0
DEFAULT_JSON = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", "solver.json")
MEMORY_GRAPH = "layered-1M"  # graphs.layered(1_000_000, seed)
MEMORY_TOOLS = (peers.FUSIONCUT, peers.ORTOOLS, "pymaxflow")
# The solver's targets, checked and printed at the end.
TARGET_GPT48_VS_ORTOOLS = 2.0
TARGET_GPT48_VS_NX = 1000.0
TARGET_1M_SECONDS = 0.150
TARGET_1M_PEAK_MB = 200.0


@dataclass
class Cell:
    """One tool on one graph."""

    status: str  # "ok", "skipped", "mismatch", "error"
    reason: str = ""
    value: int | None = None
    times_ms: list[float] = field(default_factory=list)

    @property
    def median_ms(self) -> float | None:
        return statistics.median(self.times_ms) if self.times_ms else None

    def to_json(self) -> dict:
        out = asdict(self)
        if self.times_ms:
            out.update(
                median_ms=self.median_ms, min_ms=min(self.times_ms), max_ms=max(self.times_ms)
            )
        return out


@dataclass
class GraphResult:
    name: str
    family: str
    num_nodes: int
    num_edges: int
    finite_capacity_sum: int
    expected_value: int | None
    cells: dict[str, Cell]


def _timed(fn, *args):
    return timed(fn, *args, collect=True)


def warm_up(tools: list[str]) -> None:
    """One untimed call per tool on a tiny graph: imports and one-time initialisation."""
    tiny = graphs.layered(200, 0)
    for tool in tools:
        try:
            peers.PEERS[tool].solve(
                tiny.num_nodes, tiny.src, tiny.dst, tiny.capacity, tiny.source, tiny.sink
            )
        except Exception:  # reported on the real graphs
            pass


def check_answer(net: graphs.Network, value: int, side, reference: int | None) -> list[str]:
    problems = []
    if reference is not None and value != reference:
        problems.append(f"value {value} != reference {reference}")
    if side is not None:
        if not side[net.source] or side[net.sink]:
            problems.append("source side does not separate source from sink")
        elif (capacity := peers.cut_capacity(net.src, net.dst, net.capacity, side)) != value:
            problems.append(f"its source side is a cut of capacity {capacity}, not {value}")
    return problems


def run_graph(
    net: graphs.Network,
    tools: list[str],
    repeats: int,
    budget_s: float,
    min_repeats: int = MIN_REPEATS,
    too_slow: dict[str, str] | None = None,
) -> GraphResult:
    """Time every tool on ``net`` and check every answer.

    The calls are interleaved, one per tool per round, so that load from other processes
    on the machine falls on all tools alike and the ratios stay fair. A tool leaves after
    ``repeats`` calls, or once it has spent ``budget_s`` seconds and made ``min_repeats``.
    Values must equal the recorded one (torch networks) or else the first answer, which is
    fusioncut's whenever it is available (it comes first). ``too_slow`` maps tools to skip
    to the reason.
    """
    cells: dict[str, Cell] = {}
    spent: dict[str, float] = {}
    reference = net.expected_value
    args = (net.num_nodes, net.src, net.dst, net.capacity, net.source, net.sink)
    for tool in tools:
        reason = peers.PEERS[tool].skip_reason(net.num_nodes, net.num_edges, net.capacity)
        reason = reason or (too_slow or {}).get(tool)
        cells[tool] = Cell("skipped", reason) if reason else Cell("ok")
        spent[tool] = 0.0
    for _ in range(repeats):
        for tool, cell in cells.items():
            if cell.status != "ok" or (len(cell.times_ms) >= min_repeats and spent[tool] >= budget_s):
                continue
            try:
                (value, side), seconds = _timed(peers.PEERS[tool].solve, *args)
            except Exception as exc:  # a peer failing is a result to report, not a crash
                cells[tool] = Cell("error", f"{type(exc).__name__}: {exc}")
                continue
            if cell.value is None:
                if problems := check_answer(net, value, side, reference):
                    cells[tool] = Cell("mismatch", "; ".join(problems), value)
                    continue
                cell.value = value
                reference = value if reference is None else reference
            elif value != cell.value:
                cells[tool] = Cell("mismatch", f"returned {value}, earlier {cell.value}", value)
                continue
            cell.times_ms.append(seconds * 1e3)
            spent[tool] += seconds
    return GraphResult(
        net.name,
        net.family,
        net.num_nodes,
        net.num_edges,
        net.finite_capacity_sum(),
        net.expected_value,
        cells,
    )


def measure_peak_memory(net: graphs.Network, tool: str) -> dict:
    """Peak resident memory one solve adds, measured in a fresh Python process.

    tracemalloc cannot see C++ allocations, so the child process reads the kernel's counters:
    it loads the graph's arrays (saved here as .npy) and imports the tool, makes one untimed
    call on a tiny graph so lazily loaded code is resident, then resets the peak resident set
    size by writing 5 to /proc/self/clear_refs (Linux >= 4.0), reads VmRSS as the baseline,
    solves once, and reads VmHWM (peak RSS). Peak memory of the solve = VmHWM - baseline: what
    the tool allocates (its graph, working arrays, the returned cut) at its high point. If the
    peak cannot be reset, the child reports ru_maxrss-style VmHWM before/after instead, which
    is the same number whenever the solve is the process's high point (flag ``reset_peak``).
    """
    with tempfile.TemporaryDirectory() as tmp:
        for key in ("src", "dst", "capacity"):
            np.save(os.path.join(tmp, f"{key}.npy"), getattr(net, key))
        meta = {"num_nodes": net.num_nodes, "source": net.source, "sink": net.sink}
        child = subprocess.run(
            [sys.executable, os.path.abspath(__file__), "--memory-child", tool, tmp],
            input=json.dumps(meta),
            capture_output=True,
            text=True,
            timeout=600,
        )
    if child.returncode != 0:
        return {"tool": tool, "error": child.stderr.strip().splitlines()[-1:]}
    return json.loads(child.stdout.strip().splitlines()[-1])


def _proc_status_kb(field_name: str) -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field_name + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"/proc/self/status has no {field_name}")


def _memory_child(tool: str, folder: str) -> None:
    meta = json.loads(sys.stdin.read())
    src, dst, capacity = (np.load(os.path.join(folder, f"{k}.npy")) for k in ("src", "dst", "capacity"))
    solve = peers.PEERS[tool].solve
    tiny = graphs.layered(1000, 0)
    solve(tiny.num_nodes, tiny.src, tiny.dst, tiny.capacity, tiny.source, tiny.sink)
    del tiny
    gc.collect()
    try:
        with open("/proc/self/clear_refs", "w") as clear_refs:
            clear_refs.write("5")
        reset_peak = True
    except OSError:
        reset_peak = False
    baseline_kb = _proc_status_kb("VmRSS") if reset_peak else _proc_status_kb("VmHWM")
    start = time.perf_counter()
    value, side = solve(meta["num_nodes"], src, dst, capacity, meta["source"], meta["sink"])
    seconds = time.perf_counter() - start
    peak_kb = _proc_status_kb("VmHWM")
    print(
        json.dumps(
            {
                "tool": tool,
                "value": value,
                "seconds": seconds,
                "baseline_mb": baseline_kb / 1024,
                "peak_mb": peak_kb / 1024,
                "solve_peak_mb": (peak_kb - baseline_kb) / 1024,
                "input_mb": (src.nbytes + dst.nbytes + capacity.nbytes) / 2**20,
                "reset_peak": reset_peak,
            }
        )
    )


# Output -----------------------------------------------------------------------------------


def _fmt_ms(ms: float | None) -> str:
    if ms is None:
        return "-"
    if ms >= 100:
        return f"{ms:.0f}"
    if ms >= 10:
        return f"{ms:.1f}"
    if ms >= 1:
        return f"{ms:.2f}"
    return f"{ms:.3f}"


def _ratio(a: float | None, b: float | None) -> str:
    if a is None or b is None:
        return "-"
    r = a / b
    return f"{r:,.0f}" if r >= 100 else f"{r:.3g}"


def print_graph(result: GraphResult, out=sys.stdout) -> None:
    ref = result.cells.get(peers.ORTOOLS)
    nx = result.cells.get(peers.NX_PREFLOW)
    ref_ms = ref.median_ms if ref else None
    nx_ms = nx.median_ms if nx else None
    value = next((c.value for c in result.cells.values() if c.status == "ok"), None)
    print(
        f"\n{result.name} ({result.family}): {result.num_nodes:,} vertices, "
        f"{result.num_edges:,} edges, min cut {value if value is None else f'{value:,}'}",
        file=out,
    )
    print(
        f"  {'tool':22s} {'median ms':>10s} {'min-max ms':>17s} {'runs':>4s} "
        f"{'time/OR-tools':>13s} {'time/nx preflow':>15s}",
        file=out,
    )
    for tool, cell in result.cells.items():
        if cell.status != "ok":
            print(f"  {tool:22s} {cell.status.upper()}: {cell.reason}", file=out)
            continue
        spread = f"{_fmt_ms(min(cell.times_ms))}-{_fmt_ms(max(cell.times_ms))}"
        print(
            f"  {tool:22s} {_fmt_ms(cell.median_ms):>10s} {spread:>17s} "
            f"{len(cell.times_ms):>4d} {_ratio(cell.median_ms, ref_ms):>13s} "
            f"{_ratio(cell.median_ms, nx_ms):>15s}",
            file=out,
        )


def summary_rows(results: list[GraphResult]) -> list[list[str]]:
    rows = []
    for r in results:
        def med(tool):
            cell = r.cells.get(tool)
            return cell.median_ms if cell and cell.status == "ok" else None

        fc, ort, nxp = med(peers.FUSIONCUT), med(peers.ORTOOLS), med(peers.NX_PREFLOW)
        fastest_peer = min(
            (
                (c.median_ms, t)
                for t, c in r.cells.items()
                if c.status == "ok" and not t.startswith("fusioncut")
            ),
            default=(None, "-"),
        )
        rows.append(
            [
                r.name,
                f"{r.num_nodes:,}",
                f"{r.num_edges:,}",
                _fmt_ms(fc),
                _fmt_ms(ort),
                _ratio(ort, fc) + "x" if fc and ort else "-",
                _fmt_ms(nxp),
                _ratio(nxp, fc) + "x" if fc and nxp else "-",
                f"{fastest_peer[1]} {_fmt_ms(fastest_peer[0])}",
            ]
        )
    return rows


SUMMARY_HEADER = [
    "graph",
    "vertices",
    "edges",
    "fusioncut ms",
    "OR-tools ms",
    "OR-tools/fusioncut",
    "nx preflow ms",
    "nx/fusioncut",
    "fastest peer ms",
]


def check_targets(results: list[GraphResult], memory: list[dict]) -> list[str]:
    """The targets as PASS/MISS lines (only those this run measured)."""
    lines = []
    by_name = {r.name: r for r in results}

    def med(graph, tool):
        cell = by_name[graph].cells.get(tool) if graph in by_name else None
        return cell.median_ms if cell and cell.status == "ok" else None

    fc, ort, nxp = (med("gpt48", t) for t in (peers.FUSIONCUT, peers.ORTOOLS, peers.NX_PREFLOW))
    if fc and ort:
        ok = ort / fc >= TARGET_GPT48_VS_ORTOOLS
        lines.append(
            f"{'PASS' if ok else 'MISS'} gpt48: fusioncut {ort / fc:.2f}x faster than OR-tools "
            f"(target >= {TARGET_GPT48_VS_ORTOOLS:g}x)"
        )
    if fc and nxp:
        ok = nxp / fc >= TARGET_GPT48_VS_NX
        lines.append(
            f"{'PASS' if ok else 'MISS'} gpt48: fusioncut {nxp / fc:.0f}x faster than networkx "
            f"preflow_push (target >= {TARGET_GPT48_VS_NX:g}x)"
        )
    slower = [
        f"{r.name} ({med(r.name, peers.FUSIONCUT) / med(r.name, peers.ORTOOLS):.2f}x OR-tools' time)"
        for r in results
        if med(r.name, peers.FUSIONCUT) and med(r.name, peers.ORTOOLS)
        and med(r.name, peers.FUSIONCUT) > med(r.name, peers.ORTOOLS)
    ]
    if any(med(r.name, peers.FUSIONCUT) and med(r.name, peers.ORTOOLS) for r in results):
        lines.append(
            ("MISS fusioncut slower than OR-tools on: " + ", ".join(slower))
            if slower
            else "PASS fusioncut is not slower than OR-tools on any graph"
        )
    one_m = MEMORY_GRAPH
    fc_1m = med(one_m, peers.FUSIONCUT)
    if fc_1m is not None:
        ok = fc_1m / 1e3 < TARGET_1M_SECONDS
        lines.append(
            f"{'PASS' if ok else 'MISS'} {one_m}: fusioncut median {fc_1m:.0f} ms "
            f"(target < {TARGET_1M_SECONDS * 1e3:.0f} ms)"
        )
    for m in memory:
        if m.get("tool") == peers.FUSIONCUT and "solve_peak_mb" in m:
            ok = m["solve_peak_mb"] < TARGET_1M_PEAK_MB
            lines.append(
                f"{'PASS' if ok else 'MISS'} {one_m}: fusioncut solve peak memory "
                f"{m['solve_peak_mb']:.0f} MB (target < {TARGET_1M_PEAK_MB:.0f} MB)"
            )
    return lines


def _versions() -> dict:
    return {"python": platform.python_version(), "numpy": np.__version__,
            **module_versions("fusioncut", "ortools", "maxflow", "igraph", "scipy", "networkx")}


# Driver -----------------------------------------------------------------------------------


def build_graphs(families: list[str], sizes: list[int], recorded: list[str], seed: int):
    """Yields the networks one at a time, so only one large graph is alive at once."""
    if "torch" in families:
        for name in recorded:
            yield graphs.load_recorded(name)
    for family in families:
        if family == "torch":
            continue
        for size in sizes:
            yield graphs.FAMILIES[family](size, seed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="fusioncut max-flow benchmark")
    parser.add_argument("--quick", action="store_true", help="small graphs, few repeats (<60 s)")
    parser.add_argument("--json", default=DEFAULT_JSON, help=f"output file (default {DEFAULT_JSON})")
    parser.add_argument(
        "--families", nargs="+", default=["torch", *graphs.FAMILIES],
        choices=["torch", *graphs.FAMILIES],
    )
    parser.add_argument("--sizes", type=int, nargs="+", help="synthetic sizes (vertices)")
    parser.add_argument("--tools", nargs="+", choices=list(peers.PEERS), help="default: all available")
    parser.add_argument("--repeats", type=int, help="timed calls per cell (default 15, quick 5)")
    parser.add_argument("--budget", type=float, help="seconds per cell before stopping early")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-memory", action="store_true", help="skip the peak-memory subprocess")
    parser.add_argument("--memory-child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.memory_child:
        _memory_child(*args.memory_child)
        return 0

    sizes = args.sizes or list(graphs.QUICK_SIZES if args.quick else graphs.SIZES)
    recorded = ["gpt12", "gpt48"] if args.quick else list(graphs.RECORDED)
    repeats = args.repeats or (5 if args.quick else 15)
    budget = args.budget if args.budget is not None else (0.5 if args.quick else 3.0)
    available = peers.available_peers()
    tools = [t for t in (args.tools or list(peers.PEERS)) if t in available]
    missing = [t for t in (args.tools or list(peers.PEERS)) if t not in available]
    notes = [
        "Times are 'numpy arrays in, cut out': converting the int64 arrays to the tool's "
        "input, building its graph, solving, and reading the source side back (scipy: value only).",
        "INF edges: fusioncut gets 2**62, networkx float('inf'), the others the sum of finite "
        "capacities + 1 (see bench/peers.py).",
        "scipy's maximum_flow truncates capacities to int32: it is skipped where the sum of "
        "finite capacities exceeds int32 and should not be trusted beyond that.",
    ]
    if peers.FUSIONCUT not in tools:
        notes.append("fusioncut.min_cut is not available: values are checked against the first peer.")
    if missing:
        notes.append("not installed: " + ", ".join(missing))

    started = time.perf_counter()
    load_start = os.getloadavg()
    build = _fusioncut_build()
    print(f"tools: {', '.join(tools)}")
    print(f"machine: {_cpu_model()}, {os.cpu_count()} CPUs, load average {load_start[0]:.1f}")
    print(f"fusioncut: {build}")
    for note in notes:
        print(f"note: {note}")
    warm_up(tools)
    min_repeats = 1 if args.quick else MIN_REPEATS
    results: list[GraphResult] = []
    memory: list[dict] = []
    too_slow: dict[str, dict[str, str]] = {}  # family -> tool -> reason
    for net in build_graphs(args.families, sizes, recorded, args.seed):
        skip = too_slow.setdefault(net.family, {})
        result = run_graph(net, tools, repeats, budget, min_repeats, skip)
        for tool, cell in result.cells.items():
            if tool != peers.FUSIONCUT and cell.status == "ok" and cell.median_ms > SLOW_SKIP_S * 1e3:
                skip[tool] = f"skipped (too slow: {cell.median_ms / 1e3:.1f} s on {net.name})"
        results.append(result)
        print_graph(result)
        sys.stdout.flush()
        if net.name == MEMORY_GRAPH and not args.no_memory:
            for tool in MEMORY_TOOLS:
                if tool in tools:
                    memory.append(measure_peak_memory(net, tool))
        del net

    print("\nSummary (medians; ratios > 1 mean fusioncut is faster):\n")
    rows = summary_rows(results)
    print(markdown_table(SUMMARY_HEADER, rows))
    if memory:
        print(f"\nPeak memory of one solve on {MEMORY_GRAPH} (fresh subprocess, VmHWM - VmRSS baseline):")
        for m in memory:
            if "solve_peak_mb" in m:
                print(
                    f"  {m['tool']:12s} {m['solve_peak_mb']:7.1f} MB above a {m['baseline_mb']:.0f} MB "
                    f"baseline (input arrays {m['input_mb']:.0f} MB), cold solve {m['seconds'] * 1e3:.0f} ms"
                    + ("" if m["reset_peak"] else " [peak not reset: VmHWM before/after]")
                )
            else:
                print(f"  {m['tool']:12s} ERROR {m.get('error')}")
    targets = check_targets(results, memory)
    if targets:
        print("\nTargets:")
        for line in targets:
            print(f"  {line}")
    bad = [
        f"{r.name}/{tool}: {cell.status}: {cell.reason}"
        for r in results
        for tool, cell in r.cells.items()
        if cell.status in ("mismatch", "error")
    ]
    elapsed = time.perf_counter() - started
    if _fusioncut_build().get("core_built") != build.get("core_built"):
        notes.append("fusioncut's extension was rebuilt during the run: results mix two builds.")
        print(f"\nWARNING: {notes[-1]}")
    report = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": {
            "platform": platform.platform(),
            "cpu_model": _cpu_model(),
            "cpu_count": os.cpu_count(),
            # Other processes' load skews absolute times; the interleaved ratios less so.
            "loadavg_start": load_start,
            "loadavg_end": os.getloadavg(),
        },
        "versions": _versions(),
        "fusioncut_build": build,
        "args": {k: v for k, v in vars(args).items() if k != "memory_child"},
        "repeats": repeats,
        "budget_s": budget,
        "tools": tools,
        "notes": notes,
        "graphs": [
            {
                **{k: v for k, v in asdict(r).items() if k != "cells"},
                "results": {t: c.to_json() for t, c in r.cells.items()},
            }
            for r in results
        ],
        "memory": memory,
        "targets": targets,
        "failures": bad,
        "elapsed_s": elapsed,
    }
    write_json(args.json, report)
    print(f"\nwrote {args.json} ({elapsed:.0f} s)")
    if bad:
        print("\nFAILED: answers differ:\n  " + "\n  ".join(bad))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
