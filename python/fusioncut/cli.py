"""``python -m fusioncut``: the demo, ``explain`` and ``pareto`` for your own model, a solver
benchmark and the device calibration.

    python -m fusioncut demo [--layers 12]
    python -m fusioncut explain mypkg.models:make_model --input 8x128:int64 --input 8x128:int64
    python -m fusioncut explain transformers:GPT2LMHeadModel --config gpt2-tiny.json \
        --input input_ids=2x64:int --input labels=2x64:int
    python -m fusioncut pareto mypkg.models:make_model --input 8x128:int64 --png pareto.png
    python -m fusioncut bench [--script [--full]]
    python -m fusioncut calibrate [--out device.json]

Exit status: 0 on success, 1 when the model cannot be partitioned or raised, 2 on bad
arguments. Errors are one line on stderr (``--traceback`` shows the Python traceback).
Nothing is written to the working directory unless an output file is named.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Sequence

from fusioncut.cli_args import (
    DEMO_HEADS,
    CliError,
    ModelError,
    Parser,
    QuietTorch,
    add_output_args,
    add_partition_args,
    available_memory,
    budget_list,
    byte_count,
    check_outputs,
    demo_memory,
    first_line,
    int_at_least,
    parse_input_spec,
    positive,
    write_output,
)
from fusioncut.cli_inputs import load as load_model
from fusioncut.cli_inputs import INPUT_HELP, unit_interval

__all__ = ["CliError", "build_parser", "main", "parse_input_spec"]

_EPILOG = """\
examples:
  python -m fusioncut demo
  python -m fusioncut demo --layers 4 --svg cut.svg --png bytes.png
  python -m fusioncut explain mypkg.models:make_model --input 8x128:int64 --input 8x128:int64
  python -m fusioncut explain transformers:GPT2LMHeadModel --config gpt2-tiny.json \\
      --input input_ids=2x64:int --input labels=2x64:int --budget 0.5 --device cpu
  python -m fusioncut explain mypkg.fns:loss --input 64x256 --mode memory --json report.json
  python -m fusioncut pareto mypkg.models:make_model --input 8x128:int64 --png pareto.png
  python -m fusioncut bench
  python -m fusioncut calibrate --out device.json

FUSIONCUT_LOG=debug (or info) turns on fusioncut's log on stderr.
"""


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="python -m fusioncut",
        description="fusioncut: fusion-aware activation recomputation for PyTorch. Shows what "
                    "fusioncut saves for the backward, why, and how it compares with PyTorch's "
                    "partitioners.",
        epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=_version())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)

    demo = sub.add_parser(
        "demo", help="partition an embedded GPT with fusioncut and PyTorch, side by side",
        description="Trace an embedded nanoGPT-style model (RMSNorm, NewGELU written in "
                    "pointwise ops) with AOTAutograd and partition its joint graph with "
                    "fusioncut, PyTorch's min-cut partitioner and default_partition (no "
                    "recomputation). Prints partition time, saved bytes and estimated "
                    "forward-to-backward traffic for each.")
    demo.add_argument("--layers", type=positive, default=12, metavar="N",
                      help="transformer blocks (default 12)")
    demo.add_argument("--d-model", type=positive, default=64, metavar="D",
                      help="model width (default 64; must be a multiple of 4 heads)")
    demo.add_argument("--seq", type=positive, default=64, metavar="T",
                      help="sequence length (default 64)")
    demo.add_argument("--batch", type=positive, default=4, metavar="B", help="default 4")
    demo.add_argument("--report", action="store_true",
                      help="print the full report (saved, recomputed, banned), not just totals")
    add_partition_args(demo)
    add_output_args(demo)

    ex = _target_parser(
        sub, "explain", help="explain the partition of your model: TARGET + inputs",
        description="Build TARGET (module:callable, e.g. mypkg.models:make_model, called with "
                    "no arguments; or a class such as transformers:GPT2LMHeadModel built from "
                    "--config), call what it returns on random inputs the way torch.compile "
                    "does (Dynamo; keyword inputs, graph breaks), and explain the partition "
                    "of every joint graph: what is saved and recomputed, and why, next to "
                    "PyTorch's partitioners at the same setting. A module's parameters are "
                    "its trainable inputs; a function's floating-point inputs require grad.")
    ex.add_argument("--device", default=None, metavar="NAME|PROFILE",
                    help="price recomputation on a preset (h100, cpu) or a profile written by "
                         "`calibrate --out` (default: the byte model, no prices)")
    target = ex.add_mutually_exclusive_group()  # one memory target at most
    target.add_argument("--budget", type=unit_interval, default=None, metavar="B",
                        help="Options.memory_budget in [0, 1]: 0 the least activation memory, "
                             "1 the runtime plan (priced on --device, default h100)")
    target.add_argument("--peak", type=byte_count, default=None, metavar="BYTES",
                        help="Options.peak_memory_bytes: the fastest plan whose estimated "
                             "peak, with the margin, fits (e.g. 512MiB; priced on --device, "
                             "default h100)")
    ex.add_argument("--wide", action="store_true",
                    help="print every reason whole (default: cut at 100 characters; --json "
                         "has them whole)")
    add_partition_args(ex)
    add_output_args(ex)

    bench = sub.add_parser(
        "bench", help="time the max-flow solver",
        description="Time fusioncut.min_node_cut on built-in layered graphs of 1k, 10k and "
                    "100k nodes (median of 5). --script runs bench/bench_solver.py instead, "
                    "which is only in a source checkout.")
    bench.add_argument("--script", action="store_true",
                       help="run the checkout's bench/bench_solver.py --quick (OR-tools and "
                            "networkx as peers)")
    bench.add_argument("--full", action="store_true",
                       help="with --script: bench_solver.py without --quick")
    bench.add_argument("--builtin", action="store_true", help=argparse.SUPPRESS)
    _add_budget_commands(sub)
    return parser


def _target_parser(sub, name: str, *, help: str, description: str) -> argparse.ArgumentParser:
    """A command that imports TARGET (module:callable) and calls it on random inputs."""
    p = sub.add_parser(name, help=help, description=description,
                       epilog=INPUT_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("target", metavar="TARGET",
                   help="module:callable returning a model or function, or a model class "
                        "built from --config")
    p.add_argument("--config", metavar="FILE|JSON", default=None,
                   help="build TARGET from this JSON object (a file, or the JSON text): a "
                        "Hugging Face class gets its config_class(**JSON), random weights, "
                        "nothing downloaded; any other callable is called with **JSON")
    p.add_argument("--input", action="append", default=[], metavar="[NAME=]SHAPE[:DTYPE][RANGE]",
                   help="one example input; repeat: positional ones first, in order, then "
                        "NAME= keywords (see below)")
    p.add_argument("--int-high", type=int_at_least(1, 2**63 - 1), default=None, metavar="N",
                   help="integer inputs without a RANGE are drawn from [0, N) (default: the "
                        "model's input embedding size, else 2)")
    p.add_argument("--seed", type=int_at_least(0, 2**63 - 1), default=0,
                   help="seed for the inputs (default 0)")
    p.add_argument("--via", choices=["dynamo", "aot"], default="dynamo",
                   help="trace as torch.compile does (dynamo, default) or with aot_module / "
                        "aot_function (aot: positional inputs only)")
    return p


def _version() -> str:
    from importlib import metadata

    from fusioncut._core import __version__

    try:
        torch_version = metadata.version("torch")
    except metadata.PackageNotFoundError:
        torch_version = "not installed"
    return (f"fusioncut {__version__} (torch {torch_version}, python "
            f"{sys.version.split()[0]})")


def _add_budget_commands(sub) -> None:
    """Add ``pareto`` and ``calibrate`` to the command line's sub-parsers."""
    par = _target_parser(
        sub, "pareto", help="the memory-budget frontier of your model, with PyTorch's "
                            "budget plans",
        description="Import TARGET (module:callable) as `explain` does, compute fusioncut's "
                    "frontier between recomputation and activation memory, and score "
                    "fusioncut's and PyTorch's activation_memory_budget plans at each budget "
                    "the same way: saved bytes, estimated peak, recompute time on the device "
                    "and PyTorch's FLOP count.")
    par.add_argument("--device", default=None, metavar="NAME|PROFILE",
                     help="price recomputation on a preset (h100, cpu) or a profile written "
                          "by `calibrate --out` (default h100)")
    par.add_argument("--budgets", type=budget_list, default=None, metavar="B,B,...",
                     help="budgets to compare at (default 0, 0.1, ..., 1)")
    par.add_argument("--png", metavar="FILE", help="draw the frontier (needs matplotlib)")
    par.add_argument("--json", metavar="FILE", help="write every plan's scores as JSON")
    par.set_defaults(svg=None)
    add_partition_args(par)

    cal = sub.add_parser(
        "calibrate", help="measure this machine's kernel costs into a device profile",
        description="Time kernels compiled by torch.compile (Inductor's C++ kernels on the "
                    "CPU, its Triton kernels on a CUDA GPU): memory bandwidth, per-kernel "
                    "overhead, how much pointwise and transcendental work a memory-bound "
                    "kernel hides, and matmul throughput. Prints the profile; --out writes it "
                    "for Options(device=PATH).")
    cal.add_argument("--device", choices=["cpu", "cuda"], default=None,
                     help="default: cuda when available, else cpu")
    cal.add_argument("--out", metavar="FILE", help="write the profile as JSON")
    cal.add_argument("--quick", action="store_true", help="fewer sizes and repeats")
    cal.add_argument("--traceback", action="store_true", help="show Python tracebacks")


# --- commands -----------------------------------------------------------------------------


def options_from_args(args):
    """``Options`` from ``--mode`` and, where the command has them, ``--device`` and
    ``--budget`` or ``--peak``; a bad device is a one-line error (exit 2)."""
    from fusioncut.device import resolve_device
    from fusioncut.options import Options

    try:
        device = resolve_device(getattr(args, "device", None), "--device")
    except ValueError as e:
        raise CliError(str(e)) from None
    return Options(mode=args.mode, device=device, memory_budget=getattr(args, "budget", None),
                   peak_memory_bytes=getattr(args, "peak", None),
                   offload=getattr(args, "offload", None))


def write_outputs(report, args, title: str) -> None:
    if args.json:
        write_output("json", args.json, lambda p: Path(p).write_text(
            report.to_json() + "\n", encoding="utf-8"))
    if args.svg:
        from fusioncut.report.plot import write_cut_svg

        write_output("svg", args.svg, lambda p: write_cut_svg(
            report, p, hops=args.hops, focus=args.focus, title=title))
    if args.png:
        from fusioncut.report.plot import bytes_chart

        try:
            write_output("png", args.png, lambda p: bytes_chart(report, p, title=title))
        except ImportError as e:
            raise CliError(str(e)) from e


def cmd_demo(args) -> int:
    # Every check before torch is imported: a bad argument fails in a fraction of a second.
    check_outputs(args)
    if args.d_model % DEMO_HEADS:
        raise CliError(f"--d-model {args.d_model}: must be a multiple of {DEMO_HEADS} (the "
                       f"heads)")
    need, have = demo_memory(args.layers, args.d_model, args.seq, args.batch), \
        available_memory()
    if have is not None and need > 0.8 * have:
        raise CliError(f"--layers {args.layers} --d-model {args.d_model} --seq {args.seq} "
                       f"--batch {args.batch}: tracing and partitioning would need about "
                       f"{need / 2**30:.3g} GiB, more than 80% of the {have / 2**30:.1f} GiB "
                       f"available; choose a smaller model")
    import torch

    from fusioncut.demo import DemoConfig, DemoGPT, demo_inputs
    from fusioncut.report import explain, format_bytes, format_totals

    cfg = DemoConfig(n_layer=args.layers, d_model=args.d_model, n_head=DEMO_HEADS,
                     block_size=args.seq, batch=args.batch)
    torch.manual_seed(0)
    model = DemoGPT(cfg)
    params = sum(p.numel() for p in model.parameters())
    print(f"fusioncut demo: {cfg.n_layer}-layer GPT (d_model {cfg.d_model}, {cfg.n_head} heads, "
          f"{cfg.block_size} tokens, batch {cfg.batch}, {params / 1e6:.2f}M parameters), "
          f"mode={args.mode}")
    t0 = time.perf_counter()
    report = explain(model, *demo_inputs(cfg), options=options_from_args(args),
                     compare=not args.no_compare)
    elapsed = time.perf_counter() - t0
    print(f"joint graph: {report.num_nodes} nodes ({report.num_forward} forward, "
          f"{report.num_backward} backward); traced and partitioned three ways in "
          f"{elapsed:.1f} s\n")
    if args.report:
        print(report.format(max_rows=args.rows or None))
    else:
        print(format_totals(report))
        _print_verdict(report, format_bytes)
    write_outputs(report, args, f"fusioncut demo: {cfg.n_layer}-layer GPT")
    return 0


def _print_verdict(report, format_bytes) -> None:
    fc = report.fusioncut
    lines = []
    for m in report.methods[1:]:
        if m.error or not m.saved_bytes:
            continue
        diff = m.saved_bytes - fc.saved_bytes
        word = "less" if diff >= 0 else "more"
        lines.append(f"fusioncut saves {abs(diff) / m.saved_bytes:.0%} {word} than {m.method} "
                     f"({format_bytes(abs(diff))}), with "
                     f"{format_bytes(abs(m.traffic_bytes - fc.traffic_bytes))} "
                     f"{'less' if m.traffic_bytes >= fc.traffic_bytes else 'more'} traffic")
    if lines:
        print()
        print("\n".join(lines))
    print("\n(`python -m fusioncut demo --report` lists every saved value and why.)")


@contextlib.contextmanager
def model_work(target: str):
    """The work on the user's model, with torch's loggers quiet (``QuietTorch``): whatever it
    raises becomes a one-line ``ModelError`` naming ``target``, except a ``PartitionError``,
    which ``main`` prints as the grouped report it is."""
    with QuietTorch():
        try:
            yield
        except Exception as e:
            from fusioncut.decision import PartitionError

            if isinstance(e, PartitionError):
                raise
            raise ModelError(f"tracing/partitioning {target} raised {type(e).__name__}: "
                             f"{first_line(e)}") from e


def cmd_explain(args) -> int:
    options = options_from_args(args)  # every argument checked first, torch imported after
    made, positional, keywords = load_model(args)
    from fusioncut.report import explain

    with model_work(args.target):
        report = explain(made, *positional, options=options, compare=not args.no_compare,
                         via=args.via, **keywords)
    print(report.format(max_rows=args.rows or None, clip=None if args.wide else 100))
    write_outputs(report, args, f"fusioncut explain: {args.target}")
    return 0


def _repo_bench() -> Path | None:
    here = Path(__file__).resolve()
    for parent in here.parents[:4]:
        candidate = parent / "bench" / "bench_solver.py"
        if candidate.is_file():
            return candidate
    return None


def cmd_bench(args) -> int:
    if not args.script:
        if args.full:
            raise CliError("--full: runs bench/bench_solver.py, so it needs --script")
        return _builtin_bench()
    script = _repo_bench()
    if script is None:
        raise CliError("--script: bench/bench_solver.py is not here (it is part of a source "
                       "checkout, not of the installed package); run `python -m fusioncut "
                       "bench` for the built-in timing")
    cmd = [sys.executable, str(script)] + ([] if args.full else ["--quick"])
    print("fusioncut bench: running " + " ".join(cmd), flush=True)
    return subprocess.call(cmd, cwd=str(script.parent.parent))


def _builtin_bench() -> int:
    """Layered DAGs shaped like joint graphs: a chain of layers, each a few pointwise nodes,
    the second half depending on the first (the backward)."""
    import numpy as np

    import fusioncut

    print("fusioncut bench: fusioncut.min_node_cut on built-in layered graphs shaped like "
          "joint graphs (median of 5; `bench --script` runs bench/bench_solver.py from a "
          "source checkout)")
    print(f"  {'nodes':>8}  {'edges':>8}  {'time':>10}  {'cut value':>12}")
    rng = np.random.default_rng(0)
    for n in (1_000, 10_000, 100_000):
        half = n // 2
        src = [np.arange(n - 1)]
        dst = [np.arange(1, n)]
        skip = rng.integers(0, half, size=half)  # backward node reads a forward value
        src.append(skip)
        dst.append(half + np.arange(half))
        src = np.concatenate(src).astype(np.int64)
        dst = np.concatenate(dst).astype(np.int64)
        keep = src < dst
        src, dst = src[keep], dst[keep]
        w = rng.integers(1, 1 << 20, size=n).astype(np.int64)
        sink_in = np.zeros(n, dtype=bool)
        sink_in[half:] = True
        source_in = np.zeros(n, dtype=bool)
        source_in[0] = True
        times = []
        for _ in range(5):
            t0 = time.perf_counter()
            cut = fusioncut.min_node_cut(w, src, dst, source_in=source_in, sink_in=sink_in)
            times.append(time.perf_counter() - t0)
        print(f"  {n:>8}  {len(src):>8}  {np.median(times) * 1e3:>8.2f} ms  {cut.value:>12}")
    return 0


def cmd_pareto(args) -> int:
    args.rows = 0
    args.budget = None
    options = options_from_args(args)
    made, positional, keywords = load_model(args)
    from fusioncut.report.charts import plot_pareto
    from fusioncut.report.pareto import BUDGETS, format_pareto, pareto, pareto_dict

    with model_work(args.target):
        report = pareto(made, *positional, options=options, budgets=args.budgets or BUDGETS,
                        compare=not args.no_compare, via=args.via, **keywords)
    print(format_pareto(report))
    if args.json:
        write_output("json", args.json, lambda p: Path(p).write_text(
            json.dumps(pareto_dict(report), indent=1) + "\n", encoding="utf-8"))
    if args.png:
        try:
            write_output("png", args.png, lambda p: plot_pareto(
                report, p, title=f"fusioncut pareto: {args.target}"))
        except ImportError as e:
            raise CliError(str(e)) from e
    return 0


def cmd_calibrate(args) -> int:
    args.svg = args.png = args.json = None
    check_outputs(args)
    import torch

    from fusioncut.calibrate import calibrate

    device = args.device or ("cuda" if torch.cuda.is_available() else "cpu")
    if device == "cuda" and not torch.cuda.is_available():
        raise CliError("--device cuda: CUDA is not available on this machine")
    print(f"fusioncut calibrate: timing compiled kernels on {device} "
          f"({torch.get_num_threads()} threads)")
    with QuietTorch():
        result = calibrate(device, quick=args.quick, log=print)
    profile = result.device
    for name, value in profile.to_dict().items():
        print(f"  {name:26s} {value}")
    if args.out:
        write_output("out", args.out, profile.save)
    return 0


# --- entry point --------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns the exit status.

    Rejects, before any tracing and before torch is imported where it can: unknown options and
    out-of-range numbers (argparse, exit 2), output paths that are directories, empty, in a
    missing directory or not writable, a demo or inputs that would not fit in memory, bad
    ``--input`` shapes or dtypes, and targets that are not ``module:callable`` (one line, exit
    2). A model that raises, fails to trace or cannot be partitioned exits 1 with one line;
    PyTorch's own logged tracebacks appear only under ``FUSIONCUT_LOG=debug``, Python's under
    ``--traceback``.
    """
    import warnings

    # torch's own deprecation noise from deep-copying GraphModules, not the user's business.
    warnings.filterwarnings("ignore", category=FutureWarning, message=".*LeafSpec.*")
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    prog = f"python -m fusioncut {args.command}"
    handlers = {"demo": cmd_demo, "explain": cmd_explain, "bench": cmd_bench,
                "pareto": cmd_pareto, "calibrate": cmd_calibrate}
    show_tb = getattr(args, "traceback", False)
    try:
        return handlers[args.command](args)
    except CliError as e:
        if show_tb:
            raise
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 2
    except ModelError as e:
        if show_tb:
            raise
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    except Exception as e:
        from fusioncut.decision import PartitionError

        if isinstance(e, PartitionError):
            from fusioncut.report import format_partition_error

            print(format_partition_error(e), file=sys.stderr)
            return 1
        if show_tb:
            raise
        print(f"{prog}: error: {type(e).__name__}: {first_line(e)} (--traceback for "
              "details)", file=sys.stderr)
        return 1
