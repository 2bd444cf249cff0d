"""End-to-end partition benchmark: fusioncut.partition against PyTorch's partitioners.

    python bench/bench_partition.py [--quick] [--models gpt48 resnet ...] [--repeats N]
                                    [--json PATH]

Every model (partition_models.py) is traced once with AOTAutograd (``fusioncut.report.capture``,
a recording ``partition_fn``); then, round after round, each method partitions its own fresh
deep copy of the joint graph (the copy is not timed; the garbage collector runs before each
round and is off during the calls), one call per method per round so that load from other
processes falls on all alike:

    fusioncut runtime   fusioncut.partition, Options(mode="runtime") (the default)
    fusioncut memory    fusioncut.partition, Options(mode="memory")
    torch min-cut       torch's min_cut_rematerialization_partition (the peer; its solver is
                        networkx's preflow-push up to torch 2.14, a pure-Python Dinic from
                        2.15: the run prints which)
    default_partition   torch's default_partition (no recomputation)

A method stops after ``--repeats`` calls, or earlier once it has made ``MIN_REPEATS`` calls and
spent ``BUDGET_S`` seconds on the model (torch's min-cut takes ~3 s a call on gpt48 on 2 cores).

What a partition saves is read from the forward module it returns, with the machinery of
``python -m fusioncut explain`` (``fusioncut.report.measure``): the forward's outputs after the first
``num_fwd_outputs``; activation bytes count unique storages and exclude graph inputs; SymInts
are counted separately; traffic is the same fusion model for every method (one read in the
backward, plus one write in the forward if the forward would not otherwise write it).

Checks (a failure prints MISMATCH and exits 1):
- fusioncut runtime mode saves no more activation bytes than torch's min-cut, on every model;
- every method saves the same set on every repeat;
- on the first repeat, every method's forward and backward modules compute what
  default_partition's compute, on the same seeded inputs.
A fusioncut fallback to torch's partitioner, or fusioncut saving more than default_partition,
is printed as a MISS (the numbers are still reported). The target on gpt48 (>= 18x faster than
torch's min-cut, >= 16x on torch 2.15+, no more saved bytes) is printed as PASS/MISS.

Results: a table on stdout and JSON (default bench/results/partition.json).
"""

from __future__ import annotations

import argparse
import copy
import datetime
import gc
import os
import platform
import statistics
import sys
import time
import warnings
from dataclasses import asdict, dataclass, field

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import partition_models  # noqa: E402
from common import cpu_model, fusioncut_build, markdown_table, timed, write_json  # noqa: E402

import fusioncut  # noqa: E402
from fusioncut import _torch_compat  # noqa: E402
from fusioncut.decision import decide  # noqa: E402
from fusioncut.report import capture, format_bytes, measure  # noqa: E402
from fusioncut.fallback import FallbackWarning  # noqa: E402
from fusioncut.graph import Role  # noqa: E402
from fusioncut.options import Options  # noqa: E402

FC_RUNTIME, FC_MEMORY, TORCH_MINCUT, DEFAULT = (
    "fusioncut runtime", "fusioncut memory", "torch min-cut", "default_partition")
METHODS = (FC_RUNTIME, FC_MEMORY, TORCH_MINCUT, DEFAULT)
PEER = TORCH_MINCUT
MIN_REPEATS = 3
BUDGET_S = 20.0
DEFAULT_JSON = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results",
                            "partition.json")
# The end-to-end target (faster than torch's min-cut by TARGET_SPEEDUP, no more bytes) is
# checked here. torch 2.15 solves its cut with a pure-Python Dinic instead of networkx
# (its partition time barely moved: the solve was under 15% of it), so the bar is per torch.
TARGET_MODEL = "gpt48"
TARGET_SPEEDUP = 16.0 if _torch_compat.torch_version() >= (2, 15) else 18.0


def _fusioncut_method(mode: str):
    options = Options(mode=mode)

    def call(jm, joint_inputs, *, num_fwd_outputs, static_lifetime_input_indices):
        return fusioncut.partition(jm, joint_inputs, num_fwd_outputs=num_fwd_outputs,
                                   static_lifetime_input_indices=static_lifetime_input_indices,
                                   options=options)

    return call


def partitioners() -> dict:
    return {
        FC_RUNTIME: _fusioncut_method("runtime"),
        FC_MEMORY: _fusioncut_method("memory"),
        TORCH_MINCUT: _torch_compat.min_cut_rematerialization_partition(),
        DEFAULT: _torch_compat.default_partition(),
    }


@dataclass
class Cell:
    """One method on one model."""

    status: str = "ok"  # "ok" | "error" | "mismatch"
    reason: str = ""
    fallback: str = ""  # fusioncut's FallbackWarning, if it fell back to torch
    times_s: list[float] = field(default_factory=list)
    num_saved: int = 0
    num_saved_inputs: int = 0
    num_saved_symints: int = 0
    saved_bytes: int = 0
    input_bytes: int = 0
    traffic_bytes: int = 0
    saved: list[str] = field(default_factory=list)
    numerics: str = ""  # "same as default_partition" | "random: not compared" | the difference

    @property
    def median_s(self) -> float | None:
        return statistics.median(self.times_s) if self.times_s else None

    def to_json(self) -> dict:
        out = asdict(self)
        if self.times_s:
            out.update(median_s=self.median_s, min_s=min(self.times_s), max_s=max(self.times_s))
        return out


@dataclass
class ModelResult:
    name: str
    description: str
    num_nodes: int
    num_forward: int
    num_backward: int
    capture_s: float
    cells: dict[str, Cell]

    def ratio(self, method: str, what: str) -> float | None:
        """``what`` = "speedup": torch min-cut's median / the method's; "bytes": the method's
        saved bytes / torch min-cut's."""
        me, peer = self.cells.get(method), self.cells.get(PEER)
        if not me or not peer or me.status != "ok" or peer.status != "ok":
            return None
        if what == "speedup":
            return peer.median_s / me.median_s if me.median_s else None
        return me.saved_bytes / peer.saved_bytes if peer.saved_bytes else None


# --- running ---------------------------------------------------------------------------------


def _timed(fn, *args, **kwargs):
    """``fn``'s result and wall time, the garbage collector off during the call (the caller
    collects once per round)."""
    return timed(fn, *args, **kwargs)


def _real_inputs(joint_inputs, seed: int = 0):
    """Real tensors shaped like the (fake) joint inputs: floats seeded normal, integers and
    bools zero (valid indices and class labels)."""
    g = torch.Generator().manual_seed(seed)

    def real(x):
        if not isinstance(x, torch.Tensor):
            return x
        if x.dtype.is_floating_point:
            return torch.randn(tuple(x.shape), generator=g, dtype=x.dtype)
        return torch.zeros(tuple(x.shape), dtype=x.dtype)

    return [[real(x) for x in group] for group in joint_inputs]


def _run_modules(fw, bw, joint_inputs, num_fwd_outputs):
    """Forward then backward on seeded real inputs; the random stream is reset before each."""
    primals, tangents = _real_inputs(joint_inputs)
    torch.manual_seed(0)
    with torch.no_grad():
        fw_out = list(fw(*primals))
        saved = fw_out[num_fwd_outputs:]
        n_sym = sum(1 for p in bw.graph.find_nodes(op="placeholder")
                    if isinstance(p.meta.get("val"), (int, torch.SymInt)))
        saved_tensors, saved_syms = saved[: len(saved) - n_sym], saved[len(saved) - n_sym:]
        torch.manual_seed(1)
        bw_out = list(bw(*saved_syms, *saved_tensors, *tangents))
    return fw_out[:num_fwd_outputs], bw_out


def _compare(got, want) -> str:
    """'' if the two (forward outputs, gradients) agree, else what differs."""
    for part, a, b in (("forward output", got[0], want[0]), ("gradient", got[1], want[1])):
        if len(a) != len(b):
            return f"{len(a)} {part}s, default_partition has {len(b)}"
        for k, (x, y) in enumerate(zip(a, b)):
            if isinstance(x, torch.Tensor) != isinstance(y, torch.Tensor):
                return f"{part} {k}: {type(x).__name__} vs {type(y).__name__}"
            if isinstance(x, torch.Tensor):
                try:
                    torch.testing.assert_close(x, y, equal_nan=True)
                except AssertionError as e:
                    return f"{part} {k}: " + " ".join(str(e).split())[:200]
            elif x != y:
                return f"{part} {k}: {x} != {y}"
    return ""


def run_model(model: partition_models.BenchModel, repeats: int, methods=METHODS,
              budget_s: float = BUDGET_S, min_repeats: int = MIN_REPEATS,
              log=print) -> ModelResult:
    torch.manual_seed(0)
    module, inputs = model.build(0)
    t0 = time.perf_counter()
    cap = capture(module, *inputs, via="aot")  # the figures in docs/ were taken this way
    capture_s = time.perf_counter() - t0
    n, static = cap.num_fwd_outputs, cap.static_lifetime_input_indices
    # The byte model every method's saved set is priced with (fusioncut's, default Options).
    priced = decide(cap.joint_module, num_fwd_outputs=n,
                    static_lifetime_input_indices=static)
    graph = priced.graph
    log(f"\n{model.name}: {model.description}; {graph.num_nodes} joint-graph nodes (output "
        f"node not counted), traced in {capture_s:.1f} s")
    fns = partitioners()
    cells = {m: Cell() for m in methods}
    spent = {m: 0.0 for m in methods}
    modules = {}  # method -> (fw, bw) of the first repeat
    for _ in range(repeats):
        gc.collect()
        for method in methods:
            cell = cells[method]
            if cell.status != "ok" or (len(cell.times_s) >= min_repeats
                                       and spent[method] >= budget_s):
                continue
            jm = copy.deepcopy(cap.joint_module)  # partitioners may edit the graph they get
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", FallbackWarning)
                try:
                    (fw, bw), seconds = _timed(fns[method], jm, cap.joint_inputs,
                                               num_fwd_outputs=n,
                                               static_lifetime_input_indices=static)
                except Exception as e:  # a partitioner failing is a result to report
                    cells[method] = Cell("error", f"{type(e).__name__}: "
                                         f"{str(e).splitlines()[0][:200] if str(e) else ''}")
                    continue
            fell_back = [str(w.message) for w in caught if issubclass(w.category,
                                                                       FallbackWarning)]
            s = measure(method, fw, graph, priced.costs, priced.static_inputs, seconds)
            if not cell.times_s:
                cell.num_saved, cell.num_saved_inputs = s.num_saved, s.num_saved_inputs
                cell.num_saved_symints = s.num_saved_symints
                cell.saved_bytes, cell.input_bytes = s.saved_bytes, s.input_bytes
                cell.traffic_bytes, cell.saved = s.traffic_bytes, s.saved
                cell.fallback = fell_back[0] if fell_back else ""
                modules[method] = (fw, bw)
            elif s.saved != cell.saved:
                cells[method] = Cell("mismatch", f"repeat {len(cell.times_s) + 1} saved a "
                                     f"different set ({len(s.saved)} values, first call "
                                     f"{len(cell.saved)})")
                continue
            cell.times_s.append(seconds)
            spent[method] += seconds
    if DEFAULT in modules:
        want = _run_modules(*modules[DEFAULT], cap.joint_inputs, n)
        for method, (fw, bw) in modules.items():
            cell = cells[method]
            if method == DEFAULT or cell.status != "ok":
                continue
            try:
                diff = _compare(_run_modules(fw, bw, cap.joint_inputs, n), want)
            except Exception as e:
                diff = f"running its modules raised {type(e).__name__}: {str(e)[:200]}"
            if diff:
                cells[method] = Cell("mismatch", "computes something else than "
                                     f"default_partition: {diff}", **{
                                         k: getattr(cell, k) for k in (
                                             "times_s", "num_saved", "saved_bytes",
                                             "traffic_bytes")})
            else:
                cell.numerics = "same as default_partition" + (
                    " (random stream reseeded)" if model.random else "")
    role = graph.role
    result = ModelResult(model.name, model.description, graph.num_nodes,
                         int((role == Role.FORWARD).sum()), int((role == Role.BACKWARD).sum()),
                         capture_s, cells)
    log(format_model(result))
    log(f"({time.perf_counter() - t0:.0f} s with tracing, copies and checks)")
    return result


# --- output ----------------------------------------------------------------------------------


def _fmt_s(s: float | None) -> str:
    if s is None:
        return "-"
    return f"{s * 1e3:.1f} ms" if s < 1 else f"{s:.2f} s"


def _fmt_ms(s: float) -> str:
    ms = s * 1e3
    return f"{ms:.0f}" if ms >= 100 else f"{ms:.1f}" if ms >= 10 else f"{ms:.2f}"


def _fmt_ratio(r: float | None) -> str:
    if r is None:
        return "-"
    return f"{r:.1f}x" if r >= 10 else f"{r:.2f}x" if r >= 0.01 or r == 0 else f"{r:.1g}x"


HEADER = ["model", "nodes", "method", "time median (min-max)", "runs", "speedup vs torch",
          "saved", "saved bytes", "bytes vs torch", "traffic"]


def table_rows(results: list[ModelResult]) -> list[list[str]]:
    rows = []
    for r in results:
        for k, (method, c) in enumerate(r.cells.items()):
            first = [r.name, f"{r.num_nodes:,}"] if k == 0 else ["", ""]
            if c.status != "ok":
                rows.append(first + [method, c.status.upper() + ": " + c.reason[:60]]
                            + [""] * 6)
                continue
            spread = f"{_fmt_ms(min(c.times_s))}-{_fmt_ms(max(c.times_s))} ms"
            saved = str(c.num_saved) + (f" +{c.num_saved_symints} sym"
                                        if c.num_saved_symints else "")
            rows.append(first + [
                method + (" (FELL BACK)" if c.fallback else ""),
                f"{_fmt_s(c.median_s)} ({spread})", str(len(c.times_s)),
                _fmt_ratio(r.ratio(method, "speedup")), saved, format_bytes(c.saved_bytes),
                _fmt_ratio(r.ratio(method, "bytes")), format_bytes(c.traffic_bytes)])
    return rows


def format_model(r: ModelResult) -> str:
    return markdown_table(HEADER, table_rows([r]))


def check(results: list[ModelResult]) -> tuple[list[str], list[str], list[str]]:
    """(failures, misses, targets): MISMATCH lines, MISS lines, target lines."""
    failures, misses, targets = [], [], []
    for r in results:
        for method, c in r.cells.items():
            if c.status != "ok":
                failures.append(f"MISMATCH {r.name}/{method}: {c.status}: {c.reason}")
            if c.fallback:
                misses.append(f"MISS {r.name}/{method}: fell back to torch's partitioner: "
                              f"{c.fallback}")
        fc, peer, dflt = (r.cells.get(m) for m in (FC_RUNTIME, TORCH_MINCUT, DEFAULT))
        ok = lambda c: c is not None and c.status == "ok"  # noqa: E731
        if ok(fc) and ok(peer) and fc.saved_bytes > peer.saved_bytes:
            failures.append(
                f"MISMATCH {r.name}: fusioncut runtime saves {format_bytes(fc.saved_bytes)} "
                f"({fc.saved_bytes} B), more than torch min-cut's "
                f"{format_bytes(peer.saved_bytes)} ({peer.saved_bytes} B)")
        if ok(fc) and ok(dflt) and fc.saved_bytes > dflt.saved_bytes:
            misses.append(f"MISS {r.name}: fusioncut runtime saves {fc.saved_bytes} B, more "
                          f"than default_partition's {dflt.saved_bytes} B")
    target = next((r for r in results if r.name == TARGET_MODEL), None)
    if target is not None:
        speedup = target.ratio(FC_RUNTIME, "speedup")
        fc, peer = target.cells.get(FC_RUNTIME), target.cells.get(PEER)
        if speedup is not None:
            targets.append(
                f"{'PASS' if speedup >= TARGET_SPEEDUP else 'MISS'} {TARGET_MODEL} "
                f"({target.num_nodes:,} nodes): fusioncut runtime {_fmt_s(fc.median_s)} vs "
                f"torch min-cut {_fmt_s(peer.median_s)}: {speedup:.1f}x faster "
                f"(target >= {TARGET_SPEEDUP:g}x)")
            targets.append(
                f"{'PASS' if fc.saved_bytes <= peer.saved_bytes else 'MISS'} {TARGET_MODEL}: "
                f"fusioncut runtime saves {format_bytes(fc.saved_bytes)} ({fc.saved_bytes} B), "
                f"torch min-cut {format_bytes(peer.saved_bytes)} ({peer.saved_bytes} B) "
                f"(target <=)")
        else:
            targets.append(f"MISS {TARGET_MODEL}: not measured (a method failed)")
    return failures, misses, targets


def _versions() -> dict:
    return {"python": platform.python_version(), "torch": torch.__version__,
            "torch_min_cut_solver": _torch_compat.torch_min_cut_solver(),
            "fusioncut": getattr(fusioncut, "__version__", "?")}


# --- driver ----------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="fusioncut end-to-end partition benchmark")
    parser.add_argument("--quick", action="store_true",
                        help=f"{', '.join(partition_models.QUICK)}; 3 repeats (< 60 s)")
    parser.add_argument("--models", nargs="+", choices=list(partition_models.MODELS),
                        help="default: all (quick: gpt12 and the seed patterns)")
    parser.add_argument("--repeats", type=int,
                        help=f"timed calls per method and model (default 7, quick 3); a method "
                             f"stops early after {MIN_REPEATS} calls and {BUDGET_S:g} s")
    parser.add_argument("--json", default=DEFAULT_JSON, help=f"default {DEFAULT_JSON}")
    args = parser.parse_args(argv)

    names = args.models or (partition_models.QUICK if args.quick
                            else list(partition_models.MODELS))
    repeats = args.repeats or (3 if args.quick else 7)
    min_repeats = min(MIN_REPEATS, repeats)
    warnings.filterwarnings("ignore", category=FutureWarning)  # torch's pytree, on deepcopy
    started = time.perf_counter()
    load_start = os.getloadavg()
    build = fusioncut_build()
    print(f"machine: {cpu_model()}, {os.cpu_count()} CPUs, load average "
          f"{load_start[0]:.2f} {load_start[1]:.2f} {load_start[2]:.2f}")
    print(f"versions: {_versions()}, fusioncut build {build}")
    print(f"repeats: {repeats} (a method stops after {min_repeats} once it has spent "
          f"{BUDGET_S:g} s on a model); methods interleaved per round; GC collected before each "
          "round, off during the calls")
    results = [run_model(partition_models.MODELS[name], repeats, min_repeats=min_repeats)
               for name in names]
    load_end = os.getloadavg()

    print("\nSummary (speedup: torch min-cut's median / the method's; bytes vs torch: the "
          "method's saved activation bytes / torch min-cut's; traffic: fusion model of "
          "`python -m fusioncut explain`):\n")
    print(markdown_table(HEADER, table_rows(results)))
    failures, misses, targets = check(results)
    if targets:
        print("\nTarget:")
        for line in targets:
            print(f"  {line}")
    for line in misses:
        print(line)
    elapsed = time.perf_counter() - started
    print(f"\nload average: start {load_start[0]:.2f}, end {load_end[0]:.2f}; "
          f"{elapsed:.0f} s in all")
    report = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": {"platform": platform.platform(), "cpu_model": cpu_model(),
                    "cpu_count": os.cpu_count(), "loadavg_start": load_start,
                    "loadavg_end": load_end},
        "versions": _versions(),
        "fusioncut_build": build,
        "args": vars(args),
        "repeats": repeats,
        "min_repeats": min_repeats,
        "budget_s": BUDGET_S,
        "methods": list(METHODS),
        "models": [{**{k: v for k, v in asdict(r).items() if k != "cells"},
                    "methods": {m: {**c.to_json(),
                                    "speedup_vs_torch": r.ratio(m, "speedup"),
                                    "bytes_vs_torch": r.ratio(m, "bytes")}
                                for m, c in r.cells.items()}}
                   for r in results],
        "targets": targets,
        "misses": misses,
        "failures": failures,
        "elapsed_s": elapsed,
    }
    write_json(args.json, report)
    print(f"wrote {args.json}")
    if failures:
        print("\n" + "\n".join(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
