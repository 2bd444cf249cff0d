"""What the command line checks before any work: arguments, targets, output paths, memory.

Nothing here imports torch but inside the functions that build tensors, and of fusioncut only
its torch-free file helpers (``_files.py``), so a bad argument fails in a fraction of a second
(``cli.py`` holds the commands).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import sys
from typing import Any, Callable

from fusioncut._files import FileProblem, atomic_output, plot_problem, writable_problem
from fusioncut.options import MAX_TARGET_BYTES

__all__ = ["DEMO_HEADS", "CliError", "ModelError", "Parser", "QuietTorch", "add_output_args",
           "add_partition_args", "available_memory", "budget_list", "check_outputs",
           "demo_memory", "first_line", "int_at_least", "load_target",
           "nonnegative", "parse_input_spec", "positive", "write_output"]


class CliError(Exception):
    """A bad argument or an unusable target: reported as one line, exit status 2."""


class ModelError(Exception):
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


def load_target(target: str) -> Any:
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
        raise ModelError(f"importing {mod_name!r} raised {type(e).__name__}: "
                          f"{first_line(e)}") from e
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise CliError(f"target {target!r}: {mod_name!r} has no attribute {attr!r}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise CliError(f"target {target!r} is a {type(obj).__name__}, not a callable")
    return obj


def first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def int_at_least(lo: int, hi: int | None = None):
    """An argparse type: an integer in ``[lo, hi]``."""

    valid = f"[{lo}, {hi}]" if hi is not None else f">= {lo}"

    def parse(text: str) -> int:
        digits = text.strip().lstrip("+-")
        if digits.isdigit() and len(digits) > 30:  # int() refuses 4,300 digits; none fit
            raise argparse.ArgumentTypeError(f"an integer of {len(digits)} digits is out of "
                                             f"range {valid}")
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is not an integer") from None
        if v < lo or (hi is not None and v > hi):
            raise argparse.ArgumentTypeError(f"{v} is out of range {valid}")
        return v

    return parse


positive = int_at_least(1, 2**40)  # sizes: the memory checks refuse far less than this
nonnegative = int_at_least(0)


class Parser(argparse.ArgumentParser):
    """argparse, with its usage error as one line (``prog: error: ...``), exit status 2."""

    def error(self, message: str):  # noqa: D401 - argparse API
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def add_output_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("output (nothing is written unless named)")
    g.add_argument("--svg", metavar="FILE", help="draw the joint graph and the cut as SVG")
    g.add_argument("--png", metavar="FILE",
                   help="bar chart of saved bytes by method and op (needs matplotlib; "
                        ".png or .svg)")
    g.add_argument("--json", metavar="FILE", help="write the full report as JSON")
    g.add_argument("--rows", type=nonnegative, default=15, metavar="N",
                   help="rows per table in the printed report (default 15; 0: all)")
    g.add_argument("--hops", type=nonnegative, default=1, metavar="K",
                   help="SVG: draw nodes within K edges of the cut (default 1)")
    g.add_argument("--focus", metavar="NODE",
                   help="SVG: centre a large drawing on this FX node")


def add_partition_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--mode", choices=["runtime", "memory"], default="runtime",
                   help="fusioncut.Options.mode (default runtime)")
    p.add_argument("--offload", choices=["never", "tagged", "auto"], default=None,
                   help="fusioncut.Options.offload: auto lets the cut offload to host memory "
                        "under a memory target (default: never, or auto under torch's "
                        "enable_activation_offloading)")
    p.add_argument("--no-compare", action="store_true",
                   help="skip PyTorch's min-cut partitioner and default_partition")
    p.add_argument("--traceback", action="store_true", help="show Python tracebacks")


def check_outputs(args) -> None:
    """Every named output file can be written, and a plot's extension names its format,
    checked before any work (``_files.writable_problem``)."""
    for flag in ("svg", "png", "json", "out"):
        path = getattr(args, flag, None)
        if path is None:
            continue
        if not path.strip():
            raise CliError(f"--{flag} {path!r}: empty path; name a file")
        problem = plot_problem(path) if flag == "png" else writable_problem(path)
        if problem is not None:
            raise CliError(f"--{flag} {path}: {problem}")
    if getattr(args, "png", None) and importlib.util.find_spec("matplotlib") is None:
        raise CliError(f"--png {args.png}: needs matplotlib (pip install matplotlib)")


def write_output(flag: str, path: str, write: Callable[[str], None]) -> None:
    """``write(temp)`` then replace ``path`` with it (``_files.atomic_output``): a failed
    write (a full disk) names ``--flag`` (exit status 2) and leaves ``path`` as it was."""
    try:
        with atomic_output(path) as temp:
            write(temp)
    except (OSError, FileProblem) as e:
        reason = getattr(e, "strerror", None) or str(e)
        raise CliError(f"--{flag} {path}: cannot be written ({reason})") from None
    print(f"wrote {path}")


class QuietTorch:
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


def available_memory() -> float | None:
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


# Measured: python -m fusioncut demo holds ~350 MB of torch and ~5 MB of graph bookkeeping
# (three partitioners' copies of ~200 joint-graph nodes) per layer at the default sizes.
_DEMO_BASE_BYTES = 400 * 2**20
_DEMO_GRAPH_BYTES_PER_LAYER = 6 * 2**20


DEMO_HEADS = 4


def demo_memory(layers: int, d: int, t: int, b: int, h: int = DEMO_HEADS) -> float:
    """Bytes the demo needs: torch, the graph copies, and the real tensors of one training
    step (activations, attention scores, parameters and gradients), three times over for the
    three partitioners' runs."""
    per_layer_tensors = 4.0 * (b * t * (24 * d + 3 * h * t) + 2 * 12 * d * d)
    return _DEMO_BASE_BYTES + float(layers) * (_DEMO_GRAPH_BYTES_PER_LAYER
                                               + 3 * per_layer_tensors)


_UNITS = {"": 1, "b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12,
          "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40}


def byte_count(text: str) -> int:
    """An argparse type: a number of bytes in ``[0, 2**62]``, bare or with a unit (``512MiB``,
    ``1.5GiB``, ``8GB``; units B, KB, MB, GB, TB of 1000 and KiB, MiB, GiB, TiB of 1024)."""
    raw = text.strip()
    head = raw.rstrip("aBbGgIiKkMmTt")
    unit = raw[len(head):].strip().lower()
    valid = "a number of bytes in [0, 2**62], bare or with a unit such as 512MiB or 8GB"
    if unit not in _UNITS or not head.strip() or len(head) > 40:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not {valid}")
    try:
        number = float(head) if any(c in head for c in ".eE") else int(head)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not {valid}") from None
    value = number * _UNITS[unit]
    if not (value == value and 0 <= value <= MAX_TARGET_BYTES):  # NaN fails the first test
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is out of range: {valid}")
    return int(value)


def budget_list(text: str) -> list[float]:
    try:
        values = [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a comma-separated list of numbers"
                                         ) from None
    bad = [v for v in values if not 0.0 <= v <= 1.0]
    if not values or bad:
        raise argparse.ArgumentTypeError(f"{text!r}: budgets must be numbers in [0, 1]")
    return values
