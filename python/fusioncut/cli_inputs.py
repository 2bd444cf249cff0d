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

Like ``cli_args``, nothing here imports a fusioncut module but the torch-free file helpers
(``_files``), and torch only once the arguments are known to be well formed.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
from dataclasses import dataclass
from typing import Any

from fusioncut._files import FileProblem, read_text
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
INTEGER_RANGES = {"uint8": (0, 2**8), "int8": (-2**7, 2**7), "int16": (-2**15, 2**15),
                  "int32": (-2**31, 2**31), "int64": (-2**63, 2**63 - 1)}
"""The integer dtypes an --input may have, with the half-open range of values torch draws in
each (int64's top value is left out: ``torch.randint`` takes its end as an int64)."""
FLOAT_LIMITS = {"float16": 65504.0, "bfloat16": 3.3895313892515355e38,
                "float32": 3.4028234663852886e38, "float64": 1.7976931348623157e308,
                "complex64": 3.4028234663852886e38, "complex128": 1.7976931348623157e308}
"""The floating-point dtypes an --input may have, with the largest finite value of each (of
each part, for complex): a range must fit, and so must its width, or values come out inf."""
INPUT_DTYPES = ("bool", *INTEGER_RANGES, *FLOAT_LIMITS)
MAX_DIM = 2**63 - 1
"""The largest size torch takes for a dimension, and for the product of the nonzero sizes."""
_SPEC = re.compile(r"^(?:(?P<name>[A-Za-z_][A-Za-z0-9_]*)=)?(?P<shape>[^:\[]*)"
                   r"(?::(?P<dtype>[^\[]*))?"
                   r"(?:(?P<open>\[)(?P<lo>[^,\]\)]+),(?P<hi>[^\]\)]+)(?P<close>[\]\)]))?$")
_DIM = re.compile(r"[0-9]+", re.ASCII)
_INTEGER = re.compile(r"[+-]?[0-9]+", re.ASCII)
_EXAMPLES = "e.g. 8x128, 8x128:int64, input_ids=2x64:int[0,512), mask=2x64:bool"
INPUT_HELP = """\
inputs ([NAME=]SHAPE[:DTYPE][RANGE]):
  8x128                      float32, standard normal (positional)
  8x128:int64                integers in [0, E): E = the model's input embedding size
  input_ids=2x64:int         a keyword input; int = int64, float = float32
  labels=2:int[0,5)          integers in [0, 5); [0,4] is the same range
  pixel_values=2x3x224x224   attention_mask=2x64:int[1,1] (all ones)   mask=2x64:bool
  dtypes: bool, uint8, int8, int16, int32, int64, float16, bfloat16, float32, float64,
          complex64, complex128; a range lies within its dtype's values
quote specs with brackets in the shell: --input 'labels=2:int[0,5)'"""
"""The inputs' grammar, as ``--help`` shows it."""


@dataclass(frozen=True)
class InputSpec:
    """One ``--input``: keyword name (None: positional), shape, dtype name and value range
    (half-open ``[low, high)``, ints for an integer dtype; None: the default for the dtype)."""

    text: str
    name: str | None
    shape: tuple[int, ...]
    dtype: str
    low: float | None = None
    high: float | None = None

    @property
    def is_integer(self) -> bool:
        return self.dtype in INTEGER_RANGES


def parse_input(text: str) -> InputSpec:
    """``[NAME=]SHAPE[:DTYPE][RANGE]`` (see the module docstring), checked without torch.

    Rejects (``CliError`` naming the spec): a malformed spec or shape, a dimension or a
    number of elements above 2**63 - 1, a dtype outside ``INPUT_DTYPES``, and a range that is
    empty, not finite, not integral for an integer dtype, or outside the dtype's values."""
    m = _SPEC.match(text.strip())
    if m is None:
        raise CliError(f"--input {text!r}: expected [NAME=]SHAPE[:DTYPE][RANGE] ({_EXAMPLES})")
    shape = _shape(text, m["shape"])
    dtype = (m["dtype"] or "").strip()
    dtype = DTYPE_ALIASES.get(dtype.lower(), dtype)
    if not m["open"]:
        return InputSpec(text, m["name"], shape, _dtype(text, dtype or "float32"))
    if not dtype:
        dtype = "int64" if all(_INTEGER.fullmatch(b.strip()) for b in (m["lo"], m["hi"])) \
            else "float32"
    dtype = _dtype(text, dtype)
    low, high = _range(text, dtype, m["lo"].strip(), m["hi"].strip(), m["close"] == "]")
    return InputSpec(text, m["name"], shape, dtype, low, high)


def _shape(text: str, shape_text: str) -> tuple[int, ...]:
    dims = [d.strip() for d in shape_text.strip().lower().split("x")]
    if not all(_DIM.fullmatch(d) for d in dims):
        raise CliError(f"--input {text!r}: expected a shape like 8x128 (dimensions are "
                       f"non-negative integers joined by 'x'; {_EXAMPLES})")
    if any(len(d) > 19 or int(d) > MAX_DIM for d in dims):
        big = next(d for d in dims if len(d) > 19 or int(d) > MAX_DIM)
        shown_dim = big if len(big) <= 30 else f"of {len(big)} digits"
        raise CliError(f"--input {text[:80]!r}: dimension {shown_dim} is out of range "
                       f"[0, 2**63 - 1]")
    shape = tuple(int(d) for d in dims)
    if math.prod(max(d, 1) for d in shape) > MAX_DIM:
        raise CliError(f"--input {text!r}: the shape's nonzero sizes multiply to more than "
                       "2**63 - 1, which torch cannot index")
    return shape


def _dtype(text: str, dtype: str) -> str:
    if dtype not in INPUT_DTYPES:
        raise CliError(f"--input {text!r}: unknown dtype {dtype!r}; an input is one of "
                       f"{', '.join(INPUT_DTYPES)} (int = int64, float = float32, half = "
                       "float16, double = float64)")
    return dtype


def _range(text: str, dtype: str, lo: str, hi: str, closed: bool) -> tuple[float, float]:
    """The half-open range ``[low, high)`` a RANGE names, checked against ``dtype``."""
    if dtype == "bool":
        raise CliError(f"--input {text!r}: a bool input takes no range (it is drawn from "
                       "False and True)")
    if dtype in INTEGER_RANGES:
        low, high = _integer_bound(text, lo), _integer_bound(text, hi)
        high += closed
        first, end = INTEGER_RANGES[dtype]
        if not low < high:
            raise CliError(f"--input {text!r}: the range is empty; write [low,high) with low "
                           "< high, or [low,high]")
        if low < first or high > end:
            raise CliError(f"--input {text!r}: the range [{low}, {high}) does not fit {dtype}, "
                           f"whose values lie in [{first}, {end})")
        return low, high
    try:
        low, high = float(lo), float(hi)
    except ValueError:
        raise CliError(f"--input {text!r}: range bounds must be numbers, e.g. "
                       "float[-1,1)") from None
    limit, drawn = FLOAT_LIMITS[dtype], FLOAT_LIMITS[_drawn_in(dtype)]
    if not (math.isfinite(low) and math.isfinite(high) and low < high):
        raise CliError(f"--input {text!r}: the range is empty or not finite; write [low,high) "
                       "with low < high, or [low,high]")
    if low < -limit or high > limit or high - low > drawn:
        raise CliError(f"--input {text!r}: the range [{low:g}, {high:g}) does not fit {dtype} "
                       f"(bounds within +-{limit:g}, a width of at most {drawn:g})")
    return low, high


def _drawn_in(dtype: str) -> str:
    """The dtype a floating-point input's uniform values are drawn in before the cast."""
    return "float64" if dtype in ("float64", "complex128") else "float32"


def _integer_bound(text: str, bound: str) -> int:
    """An integer range bound, exactly: 3, -7, or a float literal with an integral value
    (1e3); a bound of more than 30 digits is out of every dtype's range."""
    digits = bound.lstrip("+-")
    if _INTEGER.fullmatch(bound) and len(digits) > 30:
        raise CliError(f"--input {text[:80]!r}: a range bound of {len(digits)} digits is out "
                       "of range for every integer dtype")
    if _INTEGER.fullmatch(bound):
        return int(bound)
    try:
        value = float(bound)
    except ValueError:
        raise CliError(f"--input {text!r}: range bounds must be numbers, e.g. "
                       "int[0,512)") from None
    if not (math.isfinite(value) and value.is_integer()):
        raise CliError(f"--input {text!r}: an integer range needs integer bounds")
    return int(value)


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

    return getattr(torch, spec.dtype)  # one of INPUT_DTYPES: parse_input checked it


MAX_CONFIG_BYTES = 16 << 20
"""A --config file larger than this is refused (a model configuration is a few KiB)."""


def _read_config(text: str) -> dict:
    """The JSON object ``--config`` names: the text itself when it is no file's name, else the
    file's (``_files.read_text``: a directory, a pipe, a device, an unreadable, binary or
    oversized file is refused by name). Every failure is a ``CliError`` naming ``--config``."""
    source = "--config"
    if not text.lstrip().startswith("{") and os.path.lexists(text):
        source = f"--config {text}"
        try:
            text = read_text(text, MAX_CONFIG_BYTES)
        except FileProblem as e:
            raise CliError(f"{source}: the file {e}") from None
    try:
        config = json.loads(text)
    except RecursionError:
        raise CliError(f"{source}: JSON nested too deeply to be a configuration") from None
    except ValueError as e:  # JSONDecodeError; an integer of more than 4,300 digits
        if source == "--config" and not text.lstrip().startswith("{"):
            raise CliError(f"--config {text[:80]}: no such file, nor a JSON object (give a "
                           "JSON file or the JSON object itself, e.g. '{\"n_layer\": 2}')"
                           ) from None
        raise CliError(f"{source}: not valid JSON ({first_line(e)[:200]})") from None
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
    Rejects a keyword input given twice, a positional input after a keyword one and a keyword
    input under ``--via aot``."""
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
    if names and getattr(args, "via", "dynamo") == "aot":
        raise CliError(f"--input {names[0]}=...: --via aot takes positional inputs only "
                       "(aot_module calls the model with tensors in order); use --via dynamo")
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
    _check_default_range(specs, high, "--int-high" if args.int_high else
                         "the model's input embedding size" if embedding_size(made) else
                         "the default")
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


def _check_default_range(specs: list[InputSpec], high: int, source: str) -> None:
    """Integer inputs without a RANGE are drawn from ``[0, high)``: refuse a dtype that
    cannot hold it, rather than let the values wrap around."""
    for spec in specs:
        if spec.is_integer and spec.low is None and high > INTEGER_RANGES[spec.dtype][1]:
            end = INTEGER_RANGES[spec.dtype][1]
            raise CliError(f"--input {spec.text!r}: integers are drawn from [0, {high}) "
                           f"({source}), which {spec.dtype} cannot hold (its values end below "
                           f"{end}); give a range such as {spec.dtype}[0,{min(end, high)}) or "
                           "a wider dtype")


def _tensor(spec: InputSpec, dtype, default_high: int, g):
    import torch

    if dtype == torch.bool:
        return torch.rand(spec.shape, generator=g) < 0.5
    if dtype.is_floating_point or dtype.is_complex:
        if spec.low is None:
            return torch.randn(spec.shape, generator=g).to(dtype)
        drawn = getattr(torch, _drawn_in(spec.dtype))
        return (torch.rand(spec.shape, generator=g, dtype=drawn) * (spec.high - spec.low)
                + spec.low).to(dtype)
    low, high = (0, default_high) if spec.low is None else (int(spec.low), int(spec.high))
    return torch.randint(low, high, spec.shape, generator=g).to(dtype)
