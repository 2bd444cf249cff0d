"""What ``explain`` and ``pareto`` call on the command line: a target built from a config, and
example inputs, positional or named.

    TARGET             module:callable, called with no arguments; or a class or factory
                       built from --config: a Hugging Face model class (it has
                       ``config_class``) as ``cls(cls.config_class(**config))`` with random
                       weights (nothing is downloaded), anything else as ``callable(**config)``
    --config           a JSON object: a file, or the JSON text itself ('{"n_layer": 2}')
    --input            [NAME=]SHAPE[:DTYPE][RANGE], repeated; named inputs are keywords
                         8x128                   float32, standard normal
                         input_ids=2x64:int64    integers in [0, E): E the model's input
                                                 embedding size (else --int-high, else 2)
                         labels=2:int[0,5)       integers in [0, 5); [lo,hi] includes hi
                         mask=2x64:bool          random booleans

Like ``cli_args``, nothing here imports a fusioncut module, and torch only once the
arguments are known to be well formed.
"""

from __future__ import annotations

import argparse
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fusioncut.cli_args import (
    CliError,
    ModelError,
    available_memory,
    check_outputs,
    first_line,
    load_target,
)

__all__ = ["DTYPE_ALIASES", "INPUT_HELP", "InputSpec", "embedding_size", "load", "parse_input",
           "unit_interval"]

DTYPE_ALIASES = {"int": "int64", "long": "int64", "float": "float32", "half": "float16",
                 "double": "float64"}
_SPEC = re.compile(r"^(?:(?P<name>[A-Za-z_][A-Za-z0-9_]*)=)?(?P<shape>[^:\[]*)"
                   r"(?::(?P<dtype>[^\[]*))?"
                   r"(?:(?P<open>\[)(?P<lo>[^,\]\)]+),(?P<hi>[^\]\)]+)(?P<close>[\]\)]))?$")
_EXAMPLES = "e.g. 8x128, 8x128:int64, input_ids=2x64:int[0,512), mask=2x64:bool"
INPUT_HELP = """\
inputs ([NAME=]SHAPE[:DTYPE][RANGE]):
  8x128                      float32, standard normal (positional)
  8x128:int64                integers in [0, E): E = the model's input embedding size
  input_ids=2x64:int         a keyword input; int = int64, float = float32
  labels=2:int[0,5)          integers in [0, 5); [0,4] is the same range
  pixel_values=2x3x224x224   attention_mask=2x64:int[1,1] (all ones)   mask=2x64:bool
quote specs with brackets in the shell: --input 'labels=2:int[0,5)'"""
"""The inputs' grammar, as ``--help`` shows it."""


@dataclass(frozen=True)
class InputSpec:
    """One ``--input``: keyword name (None: positional), shape, dtype name and value range
    (half-open ``[low, high)``; None: the default for the dtype)."""

    text: str
    name: str | None
    shape: tuple[int, ...]
    dtype: str
    low: float | None = None
    high: float | None = None

    @property
    def is_integer(self) -> bool:
        return self.dtype not in ("bool",) and not self.dtype.startswith(
            ("float", "bfloat", "complex"))


def parse_input(text: str) -> InputSpec:
    """``[NAME=]SHAPE[:DTYPE][RANGE]`` (see the module docstring), checked without torch."""
    m = _SPEC.match(text.strip())
    if m is None:
        raise CliError(f"--input {text!r}: expected [NAME=]SHAPE[:DTYPE][RANGE] ({_EXAMPLES})")
    dims = m["shape"].strip().lower().split("x")
    try:
        shape = tuple(int(d) for d in dims)
    except ValueError:
        shape = ()
    if not shape or any(d < 0 for d in shape):
        raise CliError(f"--input {text!r}: expected a shape like 8x128 (dimensions are "
                       f"non-negative integers joined by 'x'; {_EXAMPLES})")
    dtype = (m["dtype"] or "").strip()
    dtype = DTYPE_ALIASES.get(dtype.lower(), dtype)
    low = high = None
    if m["open"]:
        try:
            low, high = float(m["lo"]), float(m["hi"])
        except ValueError:
            raise CliError(f"--input {text!r}: range bounds must be numbers, e.g. "
                           "int[0,512)") from None
        if not dtype:
            dtype = "int64" if low.is_integer() and high.is_integer() else "float32"
    dtype = dtype or "float32"
    spec = InputSpec(text, m["name"], shape, dtype)
    if m["open"]:
        if spec.is_integer:
            if not (low.is_integer() and high.is_integer()):
                raise CliError(f"--input {text!r}: an integer range needs integer bounds")
            if m["close"] == "]":
                high += 1
        if dtype == "bool" or not high > low or not (math.isfinite(low)
                                                     and math.isfinite(high)):
            raise CliError(f"--input {text!r}: the range is empty or not finite (or the dtype "
                           "is bool); write [low,high) with low < high, or [low,high]")
        spec = InputSpec(text, m["name"], shape, dtype, low, high)
    return spec


def unit_interval(text: str) -> float:
    """An argparse type: a number in [0, 1]."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"{value:g} is out of range [0, 1]")
    return value


def _torch_dtype(spec: InputSpec):
    import torch

    dtype = getattr(torch, spec.dtype, None)
    if not isinstance(dtype, torch.dtype):
        raise CliError(f"--input {spec.text!r}: unknown dtype {spec.dtype!r} (e.g. float32, "
                       "float16, bfloat16, int64 (int), int32, bool)")
    return dtype


def _read_config(text: str) -> dict:
    source = "--config"
    if not text.lstrip().startswith("{"):
        path = Path(text)
        if not path.is_file():
            raise CliError(f"--config {text}: no such file (give a JSON file or the JSON "
                           "object itself, e.g. '{\"n_layer\": 2}')")
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise CliError(f"--config {path}: cannot be read ({e})") from None
        source = f"--config {path}"
    try:
        config = json.loads(text)
    except json.JSONDecodeError as e:
        raise CliError(f"{source}: not valid JSON ({e})") from None
    if not isinstance(config, dict):
        raise CliError(f"{source}: expected a JSON object of keyword arguments, got "
                       f"{type(config).__name__}")
    return config


def _build(args) -> Any:
    """The object the target names, built as the module docstring says."""
    factory = load_target(args.target)
    config = _read_config(args.config) if args.config is not None else None
    hf_config = getattr(factory, "config_class", None)
    try:
        if config is None:
            if hf_config is not None and isinstance(factory, type):
                raise CliError(f"{args.target} is a Hugging Face model class: give its "
                               "configuration with --config FILE or --config '{...}' (random "
                               "weights; nothing is downloaded)")
            return factory()
        if hf_config is not None:
            return factory(hf_config(**config))
        return factory(**config)
    except CliError:
        raise
    except Exception as e:
        call = "(**config)" if config is not None else "()"
        raise ModelError(f"{args.target}{call} raised {type(e).__name__}: "
                         f"{first_line(e)}") from e


def embedding_size(model: Any) -> int | None:
    """The number of rows of ``model``'s input embedding (``get_input_embeddings()``, as
    Hugging Face models have), else of its smallest ``nn.Embedding``; None without one."""
    import torch

    if not isinstance(model, torch.nn.Module):
        return None
    getter = getattr(model, "get_input_embeddings", None)
    if callable(getter):
        try:
            emb = getter()
        except Exception:  # a model without one raises NotImplementedError
            emb = None
        if isinstance(emb, torch.nn.Embedding):
            return int(emb.num_embeddings)
    sizes = [int(m.num_embeddings) for m in model.modules() if isinstance(m, torch.nn.Embedding)]
    return min(sizes) if sizes else None


def load(args) -> tuple[Any, list, dict]:
    """The model or function ``args.target`` names, and its inputs as ``(args, kwargs)``:
    output paths, input specs and memory checked before torch is imported or user code runs.
    Rejects a keyword input given twice or a positional input after a keyword one."""
    check_outputs(args)
    specs = [parse_input(text) for text in args.input]
    names = [s.name for s in specs if s.name is not None]
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise CliError(f"--input {dup}=...: given twice")
    first_named = next((k for k, s in enumerate(specs) if s.name is not None), len(specs))
    if any(s.name is None for s in specs[first_named:]):
        raise CliError("--input: positional inputs (SHAPE) must come before named ones "
                       "(NAME=SHAPE), as in a Python call")
    import torch

    dtypes = [_torch_dtype(s) for s in specs]
    total = sum(math.prod(s.shape) * d.itemsize for s, d in zip(specs, dtypes))
    have = available_memory()
    if have is not None and total > 0.5 * have:
        raise CliError(f"--input {' '.join(args.input)}: the inputs alone need "
                       f"{total / 2**30:.3g} GiB, more than half of the {have / 2**30:.1f} GiB "
                       "available")
    made = _build(args)
    is_module = isinstance(made, torch.nn.Module)
    if not is_module and not callable(made):
        raise CliError(f"{args.target}() returned a {type(made).__name__}; expected an "
                       "nn.Module or a function")
    if is_module:
        made.train()
    high = args.int_high or embedding_size(made) or 2
    g = torch.Generator().manual_seed(args.seed)
    positional, keywords = [], {}
    for spec, dtype in zip(specs, dtypes):
        t = _tensor(spec, dtype, high, g)
        if dtype.is_floating_point and not is_module:
            t.requires_grad_(True)
        if spec.name is None:
            positional.append(t)
        else:
            keywords[spec.name] = t
    if not is_module and not any(t.requires_grad for t in [*positional, *keywords.values()]):
        raise CliError(f"{args.target}() returned a function but no --input is floating "
                       "point: nothing requires grad, so there is no backward to partition")
    return made, positional, keywords


def _tensor(spec: InputSpec, dtype, default_high: int, g):
    import torch

    if dtype == torch.bool:
        return torch.rand(spec.shape, generator=g) < 0.5
    if dtype.is_floating_point or dtype.is_complex:
        if spec.low is None:
            return torch.randn(spec.shape, generator=g).to(dtype)
        return (torch.rand(spec.shape, generator=g) * (spec.high - spec.low)
                + spec.low).to(dtype)
    low, high = (0, default_high) if spec.low is None else (int(spec.low), int(spec.high))
    return torch.randint(low, high, spec.shape, generator=g).to(dtype)
