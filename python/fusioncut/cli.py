"""``python -m fusioncut``: the demo, ``explain`` for your own model, and a solver benchmark.

    python -m fusioncut demo [--layers 12]
    python -m fusioncut explain mypkg.models:make_model --input 8x128:int64 --input 8x128:int64
    python -m fusioncut bench [--quick]

Exit status: 0 on success, 1 when the model cannot be partitioned or raised, 2 on bad
arguments. Errors are one line on stderr (``--traceback`` shows the Python traceback).
Nothing is written to the working directory unless an output file is named.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import math
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Sequence

__all__ = ["CliError", "main", "parse_input_spec"]

_EPILOG = """\
examples:
  python -m fusioncut demo
  python -m fusioncut demo --layers 4 --svg cut.svg --png bytes.png
  python -m fusioncut explain mypkg.models:make_model --input 8x128:int64 --input 8x128:int64
  python -m fusioncut explain mypkg.fns:loss --input 64x256 --mode memory --json report.json
  python -m fusioncut bench --quick

FUSIONCUT_LOG=debug (or info) turns on fusioncut's log on stderr.
"""


class CliError(Exception):
    """A bad argument or an unusable target: reported as one line, exit status 2."""


class _ModelError(Exception):
    """The user's callable or model raised: one line, exit status 1."""


# --- arguments --------------------------------------------------------------------------------


def parse_input_spec(spec: str) -> tuple[tuple[int, ...], Any]:
    """``"8x128"`` -> ((8, 128), torch.float32); ``"8x128:int64"`` -> ((8, 128), torch.int64);
    ``"scalar"`` or ``":float16"``-style empty shapes are not accepted (give ``1``)."""
    shape_text, _, dtype_text = spec.partition(":")
    dims = shape_text.strip().lower().split("x")
    try:
        shape = tuple(int(d) for d in dims)
    except ValueError:
        shape = ()
    if not shape or any(d < 0 for d in shape):
        raise CliError(f"--input {spec!r}: expected a shape like 8x128 or 8x128:int64 "
                       f"(dimensions are non-negative integers joined by 'x')")
    import torch  # after the shape: a malformed one fails without importing torch

    dtype = torch.float32
    if dtype_text:
        dtype = getattr(torch, dtype_text.strip(), None)
        if not isinstance(dtype, torch.dtype):
            raise CliError(f"--input {spec!r}: unknown dtype {dtype_text!r} (e.g. float32, "
                           f"float16, bfloat16, int64, int32, bool)")
    return shape, dtype


def _make_inputs(specs: list[str], requires_grad: bool, int_high: int, seed: int) -> list:
    import torch

    g = torch.Generator().manual_seed(seed)
    out = []
    for spec in specs:
        shape, dtype = parse_input_spec(spec)
        if dtype.is_floating_point or dtype.is_complex:
            t = torch.randn(shape, generator=g).to(dtype)
            out.append(t.requires_grad_(requires_grad))
        elif dtype == torch.bool:
            out.append(torch.rand(shape, generator=g) < 0.5)
        else:
            out.append(torch.randint(0, int_high, shape, generator=g).to(dtype))
    return out


def _load_target(target: str) -> Any:
    """``module:attr`` (attr may be dotted) -> the object; the module is imported with the
    working directory on ``sys.path``, as ``python -m`` would."""
    mod_name, sep, attr = target.partition(":")
    if not sep or not mod_name or not attr:
        raise CliError(f"target {target!r}: expected module:callable, e.g. "
                       f"mypkg.models:make_model")
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        obj = importlib.import_module(mod_name)
    except ImportError as e:
        raise CliError(f"cannot import {mod_name!r}: {e}") from e
    except Exception as e:
        raise _ModelError(f"importing {mod_name!r} raised {type(e).__name__}: "
                          f"{_first_line(e)}") from e
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise CliError(f"target {target!r}: {mod_name!r} has no attribute {attr!r}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise CliError(f"target {target!r} is a {type(obj).__name__}, not a callable")
    return obj


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def _int_at_least(lo: int, hi: int | None = None):
    """An argparse type: an integer in ``[lo, hi]``."""

    def parse(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if v < lo or (hi is not None and v > hi):
            valid = f"[{lo}, {hi}]" if hi is not None else f">= {lo}"
            raise argparse.ArgumentTypeError(f"{v} is out of range {valid}")
        return v

    return parse


_positive = _int_at_least(1, 2**40)  # sizes: the memory checks refuse far less than this
_nonnegative = _int_at_least(0)


class _Parser(argparse.ArgumentParser):
    """argparse, with its usage error as one line (``prog: error: ...``), exit status 2."""

    def error(self, message: str):  # noqa: D401 - argparse API
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def _add_output_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("output (nothing is written unless named)")
    g.add_argument("--svg", metavar="FILE", help="draw the joint graph and the cut as SVG")
    g.add_argument("--png", metavar="FILE",
                   help="bar chart of saved bytes by method and op (needs matplotlib; "
                        ".png or .svg)")
    g.add_argument("--json", metavar="FILE", help="write the full report as JSON")
    g.add_argument("--rows", type=_nonnegative, default=15, metavar="N",
                   help="rows per table in the printed report (default 15; 0: all)")
    g.add_argument("--hops", type=_nonnegative, default=1, metavar="K",
                   help="SVG: draw nodes within K edges of the cut (default 1)")
    g.add_argument("--focus", metavar="NODE",
                   help="SVG: centre a large drawing on this FX node")


def _add_partition_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--mode", choices=["runtime", "memory"], default="runtime",
                   help="fusioncut.Options.mode (default runtime)")
    p.add_argument("--no-compare", action="store_true",
                   help="skip PyTorch's min-cut partitioner and default_partition")
    p.add_argument("--traceback", action="store_true", help="show Python tracebacks")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="python -m fusioncut",
        description="fusioncut: fusion-aware activation recomputation for PyTorch. Shows what "
                    "fusioncut saves for the backward, why, and how it compares with PyTorch's "
                    "partitioners.",
        epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    demo = sub.add_parser(
        "demo", help="partition an embedded GPT with fusioncut and PyTorch, side by side",
        description="Trace an embedded nanoGPT-style model (RMSNorm, NewGELU written in "
                    "pointwise ops) with AOTAutograd and partition its joint graph with "
                    "fusioncut, PyTorch's min-cut partitioner and default_partition (no "
                    "recomputation). Prints partition time, saved bytes and estimated "
                    "forward-to-backward traffic for each.")
    demo.add_argument("--layers", type=_positive, default=12, metavar="N",
                      help="transformer blocks (default 12)")
    demo.add_argument("--d-model", type=_positive, default=64, metavar="D",
                      help="model width (default 64; must be a multiple of 4 heads)")
    demo.add_argument("--seq", type=_positive, default=64, metavar="T",
                      help="sequence length (default 64)")
    demo.add_argument("--batch", type=_positive, default=4, metavar="B", help="default 4")
    demo.add_argument("--report", action="store_true",
                      help="print the full report (saved, recomputed, banned), not just totals")
    _add_partition_args(demo)
    _add_output_args(demo)

    ex = sub.add_parser(
        "explain", help="explain the partition of your model: module:callable + input shapes",
        description="Import TARGET (module:callable, e.g. mypkg.models:make_model), call it "
                    "with no arguments, and explain the partition of what it returns: an "
                    "nn.Module (its parameters are the trainable inputs) or a function (its "
                    "floating-point inputs require grad). Inputs are random tensors of the "
                    "given shapes.",
        epilog="input shapes: 8x128 (float32), 8x128:int64, 4x3x32x32:bfloat16, 16:bool",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ex.add_argument("target", metavar="TARGET", help="module:callable returning a model or "
                                                     "function")
    ex.add_argument("--input", action="append", default=[], metavar="SHAPE[:DTYPE]",
                    help="one example input (repeat in argument order)")
    ex.add_argument("--int-high", type=_int_at_least(1, 2**63 - 1), default=2, metavar="N",
                    help="integer inputs are drawn from [0, N) (default 2: valid indices for "
                         "any embedding)")
    ex.add_argument("--seed", type=_int_at_least(0, 2**63 - 1), default=0,
                    help="seed for the inputs (default 0)")
    _add_partition_args(ex)
    _add_output_args(ex)

    bench = sub.add_parser(
        "bench", help="time the max-flow solver",
        description="Run bench/bench_solver.py (--quick unless --full) when this is a "
                    "source checkout; otherwise time fusioncut.min_node_cut on built-in "
                    "layered graphs.")
    bench.add_argument("--full", action="store_true", help="bench_solver.py without --quick")
    bench.add_argument("--builtin", action="store_true",
                       help="the built-in timing even in a checkout")
    return parser


# --- commands ---------------------------------------------------------------------------------


def _options(args):
    from fusioncut.options import Options

    return Options(mode=args.mode)


def _write_outputs(report, args, title: str) -> None:
    if args.json:
        Path(args.json).write_text(report.to_json() + "\n", encoding="utf-8")
        print(f"wrote {args.json}")
    if args.svg:
        from fusioncut.report.plot import write_cut_svg

        write_cut_svg(report, args.svg, hops=args.hops, focus=args.focus, title=title)
        print(f"wrote {args.svg}")
    if args.png:
        from fusioncut.report.plot import bytes_chart

        try:
            bytes_chart(report, args.png, title=title)
        except ImportError as e:
            raise CliError(str(e)) from e
        print(f"wrote {args.png}")


def _check_outputs(args) -> None:
    """Every named output file can be written, checked before any work."""
    for flag in ("svg", "png", "json"):
        path = getattr(args, flag)
        if path is None:
            continue
        if not path.strip():
            raise CliError(f"--{flag} {path!r}: empty path; name a file")
        target = Path(path)
        if target.is_dir():
            raise CliError(f"--{flag} {path}: is a directory; name a file")
        parent = target.resolve().parent
        if not parent.is_dir():
            raise CliError(f"--{flag} {path}: directory {str(Path(path).parent)!r} "
                           "does not exist")
        try:  # a real probe: os.access says yes to root on read-only and virtual filesystems
            if target.exists():
                open(target, "ab").close()  # appends nothing, truncates nothing
            else:
                os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL))
                os.unlink(target)
        except OSError as e:
            raise CliError(f"--{flag} {path}: not writable ({e.strerror})") from None
    if getattr(args, "png", None) and importlib.util.find_spec("matplotlib") is None:
        raise CliError(f"--png {args.png}: needs matplotlib (pip install matplotlib)")


class _QuietTorch:
    """Raise torch's loggers to CRITICAL while the user's model is traced: a failing trace
    then ends in one line from us, not in PyTorch's logged traceback. FUSIONCUT_LOG=debug
    keeps them."""

    def __enter__(self):
        import logging

        self._saved = {}
        if logging.getLogger("fusioncut").isEnabledFor(logging.DEBUG):
            return self
        names = [n for n in logging.root.manager.loggerDict if n == "torch"
                 or n.startswith("torch.")]
        for name in names + ["torch"]:
            lg = logging.getLogger(name)
            self._saved[name] = lg.level
            lg.setLevel(logging.CRITICAL)
        return self

    def __exit__(self, *exc):
        import logging

        for name, level in self._saved.items():
            logging.getLogger(name).setLevel(level)
        return False


def cmd_demo(args) -> int:
    # Every check before torch is imported: a bad argument fails in a fraction of a second.
    _check_outputs(args)
    if args.d_model % _DEMO_HEADS:
        raise CliError(f"--d-model {args.d_model}: must be a multiple of {_DEMO_HEADS} (the "
                       f"heads)")
    need, have = _demo_memory(args.layers, args.d_model, args.seq, args.batch), \
        _available_memory()
    if have is not None and need > 0.8 * have:
        raise CliError(f"--layers {args.layers} --d-model {args.d_model} --seq {args.seq} "
                       f"--batch {args.batch}: tracing and partitioning would need about "
                       f"{need / 2**30:.3g} GiB, more than 80% of the {have / 2**30:.1f} GiB "
                       f"available; choose a smaller model")
    import torch

    from fusioncut.demo import DemoConfig, DemoGPT, demo_inputs
    from fusioncut.report import explain, format_bytes, format_totals

    cfg = DemoConfig(n_layer=args.layers, d_model=args.d_model, n_head=_DEMO_HEADS,
                     block_size=args.seq, batch=args.batch)
    torch.manual_seed(0)
    model = DemoGPT(cfg)
    params = sum(p.numel() for p in model.parameters())
    print(f"fusioncut demo: {cfg.n_layer}-layer GPT (d_model {cfg.d_model}, {cfg.n_head} heads, "
          f"{cfg.block_size} tokens, batch {cfg.batch}, {params / 1e6:.2f}M parameters), "
          f"mode={args.mode}")
    t0 = time.perf_counter()
    report = explain(model, *demo_inputs(cfg), options=_options(args),
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
    _write_outputs(report, args, f"fusioncut demo: {cfg.n_layer}-layer GPT")
    return 0


# Measured: python -m fusioncut demo holds ~350 MB of torch and ~5 MB of graph bookkeeping
# (three partitioners' copies of ~200 joint-graph nodes) per layer at the default sizes.
_DEMO_BASE_BYTES = 400 * 2**20
_DEMO_GRAPH_BYTES_PER_LAYER = 6 * 2**20


_DEMO_HEADS = 4


def _demo_memory(layers: int, d: int, t: int, b: int, h: int = _DEMO_HEADS) -> float:
    """Bytes the demo needs: torch, the graph copies, and the real tensors of one training
    step (activations, attention scores, parameters and gradients), three times over for the
    three partitioners' runs."""
    per_layer_tensors = 4.0 * (b * t * (24 * d + 3 * h * t) + 2 * 12 * d * d)
    return _DEMO_BASE_BYTES + float(layers) * (_DEMO_GRAPH_BYTES_PER_LAYER
                                               + 3 * per_layer_tensors)


def _available_memory() -> float | None:
    """MemAvailable from /proc/meminfo, or physical memory; None when unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return float(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return float(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_AVPHYS_PAGES"))
    except (ValueError, OSError, AttributeError):
        return None


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


def cmd_explain(args) -> int:
    _check_outputs(args)  # before importing torch: a bad path fails in a fraction of a second
    specs = list(args.input)
    total = 0
    for spec in specs:  # bad shapes fail before the user's code runs
        shape, dtype = parse_input_spec(spec)
        total += math.prod(shape) * dtype.itemsize
    have = _available_memory()
    if have is not None and total > 0.5 * have:
        raise CliError(f"--input {' '.join(specs)}: the inputs alone need {total / 2**30:.3g} "
                       f"GiB, more than half of the {have / 2**30:.1f} GiB available")
    import torch

    from fusioncut.report import explain

    factory = _load_target(args.target)
    try:
        made = factory()
    except Exception as e:
        raise _ModelError(f"{args.target}() raised {type(e).__name__}: {_first_line(e)}") from e
    is_module = isinstance(made, torch.nn.Module)
    if not is_module and not callable(made):
        raise CliError(f"{args.target}() returned a {type(made).__name__}; expected an "
                       "nn.Module or a function")
    if is_module:
        made.train()
    inputs = _make_inputs(specs, requires_grad=not is_module, int_high=args.int_high,
                          seed=args.seed)
    if not is_module and not any(getattr(t, "requires_grad", False) for t in inputs):
        raise CliError(f"{args.target}() returned a function but no --input is floating "
                       "point: nothing requires grad, so there is no backward to partition")
    try:
        with _QuietTorch():
            report = explain(made, *inputs, options=_options(args),
                             compare=not args.no_compare)
    except Exception as e:
        from fusioncut.decision import PartitionError

        if isinstance(e, PartitionError):
            raise
        raise _ModelError(f"tracing/partitioning {args.target} raised {type(e).__name__}: "
                          f"{_first_line(e)}") from e
    print(report.format(max_rows=args.rows or None))
    _write_outputs(report, args, f"fusioncut: {args.target}")
    return 0


def _repo_bench() -> Path | None:
    here = Path(__file__).resolve()
    for parent in here.parents[:4]:
        candidate = parent / "bench" / "bench_solver.py"
        if candidate.is_file():
            return candidate
    return None


def cmd_bench(args) -> int:
    script = None if args.builtin else _repo_bench()
    if script is not None:
        cmd = [sys.executable, str(script)] + ([] if args.full else ["--quick"])
        print("running " + " ".join(cmd), flush=True)
        return subprocess.call(cmd, cwd=str(script.parent.parent))
    return _builtin_bench()


def _builtin_bench() -> int:
    """Layered DAGs shaped like joint graphs: a chain of layers, each a few pointwise nodes,
    the second half depending on the first (the backward)."""
    import numpy as np

    import fusioncut

    print("fusioncut.min_node_cut on layered graphs (median of 5)")
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


# --- entry point ------------------------------------------------------------------------------


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
    handlers = {"demo": cmd_demo, "explain": cmd_explain, "bench": cmd_bench}
    show_tb = getattr(args, "traceback", False)
    try:
        return handlers[args.command](args)
    except CliError as e:
        if show_tb:
            raise
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 2
    except _ModelError as e:
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
        print(f"{prog}: error: {type(e).__name__}: {_first_line(e)} (--traceback for "
              "details)", file=sys.stderr)
        return 1
