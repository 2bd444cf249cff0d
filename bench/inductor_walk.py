"""A diagnostic: the allocation walk of the code Inductor generated for one graph.

Inductor's wrapper code (``call(self, args)`` of the module ``torch._inductor`` writes,
``TORCH_LOGS=output_code`` prints it; the C++ backend's and Triton's alike) allocates every
buffer explicitly (``empty_strided_cpu`` / ``empty_strided_cuda``), hands a dead buffer to a
later one of the same size (``bufB = bufA; del bufA  # reuse``), aliases (``# alias``) and frees (``del``). Walking it gives the bytes the
generated code holds at each line; where that walk and the CPU profiler's measured peak
disagree, the difference was allocated outside the generated code (inside an extern kernel:
SDPA's workspaces, a convolution's) or by autograd around it.

Arguments: a graph's inputs are counted from the start when ``owned(name)`` says the code
holds their only reference (saved activations and tangents in a backward; not parameters,
``primals_*``), and freed at their ``del``. A tuple an extern kernel returns is counted
through the elements the code takes from it (each element's size from its
``assert_size_stride`` line, float32 assumed).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

__all__ = ["Walk", "call_modules", "walk"]

_ITEMSIZE = {"float32": 4, "float16": 2, "bfloat16": 2, "float64": 8, "int64": 8, "int32": 4,
             "int16": 2, "int8": 1, "uint8": 1, "bool": 1}
_TUPLE = "tuple"


@dataclass
class Walk:
    start: int  # bytes held on entry (owned arguments)
    peak: int
    end: int  # bytes held on return (outputs)
    peak_line: str
    held_at_peak: list[tuple[str, int]]  # (one name of each storage held at the peak, bytes)
    timeline: list[tuple[int, str]]  # (bytes held after the line, line)


def _bytes(shape: str, stride: str, dtype: str = "float32") -> int:
    sizes, strides = ast.literal_eval(shape), ast.literal_eval(stride)
    if not isinstance(sizes, tuple):
        sizes, strides = (sizes,), (strides,)
    if any(s == 0 for s in sizes):
        return 0
    extent = 1 + sum((s - 1) * st for s, st in zip(sizes, strides))
    return extent * _ITEMSIZE.get(dtype.replace("torch.", ""), 4)


def call_modules(modules) -> list[str]:
    """Paths of the loaded modules (``PyCodeCache.modules``) that hold a ``call(self, args)``."""
    out = []
    for m in modules:
        path = getattr(m, "__file__", None)
        if path:
            with open(path) as f:
                if "def call(self, args)" in f.read():
                    out.append(path)
    return out


def walk(path: str, owned=lambda name: not name.startswith("primals")) -> Walk:
    """The allocation walk of ``call`` in the generated module at ``path``."""
    with open(path) as f:
        src = f.read()
    body = src[src.index("def call(self, args)"):]
    if "\nrunner = " in body:
        body = body[:body.index("\nrunner = ")]
    unpack = re.search(r"^\s*(.*) = args$", body, re.M)
    args = unpack.group(1).rstrip(",").split(", ") if unpack else []
    asserted = {m.group(1): _bytes(m.group(2), m.group(3)) for m in re.finditer(
        r"assert_size_stride\((\w+), (\([^)]*\)), (\([^)]*\))", body)}
    for m in re.finditer(r"^    (\w+) = rand_strided\((\([^)]*\)), (\([^)]*\)), "
                         r"device='\w+', dtype=([\w.]+)\)", src, re.M):
        asserted[m.group(1)] = _bytes(m.group(2), m.group(3), m.group(4))
    storage: dict[str, int] = {}
    names: dict[int, set[str]] = {}
    size: dict[int, int] = {}
    held = 0

    def new(name: str, nbytes: int) -> None:
        nonlocal held
        sid = len(size)
        storage[name], names[sid], size[sid] = sid, {name}, nbytes
        held += nbytes

    def drop(name: str) -> None:
        nonlocal held
        sid = storage.pop(name, None)
        if sid is None or sid == _TUPLE:
            return
        names[sid].discard(name)
        if not names[sid]:
            held -= size[sid]

    def share(new_name: str, old: str, move: bool) -> None:
        sid = storage.pop(old) if move else storage[old]
        if move:
            names[sid].discard(old)
        storage[new_name] = sid
        names[sid].add(new_name)

    for a in args:
        if owned(a):
            new(a, asserted.get(a, 0))
    start = peak = held
    peak_line, timeline = "(entry)", []
    at_peak: list[tuple[str, int]] = []
    for raw in body.splitlines():
        line = raw.strip()
        alloc = re.match(r"(\w+) = empty_strided_(?:cpu|cuda)\((\([^)]*\)), (\([^)]*\)), "
                         r"([\w.]+)\)", line)
        moved = re.match(r"(\w+) = (?:reinterpret_tensor\()?(\w+)[,;)]", line)
        if alloc:
            new(alloc.group(1), _bytes(alloc.group(2), alloc.group(3), alloc.group(4)))
        elif moved and moved.group(2) in storage and ("# reuse" in line or "# alias" in line):
            share(moved.group(1), moved.group(2), "# reuse" in line)
        elif line.startswith("del "):
            for name in line[4:].split(","):
                drop(name.strip())
        elif re.match(r"\w+ = \w+\[\d+\]$", line):
            new(line.split(" = ")[0], asserted.get(line.split(" = ")[0], 0))
        elif re.match(r"\w+ = (torch\.ops|extern_kernels)\.", line):
            name = line.split(" = ")[0]
            if name in asserted:
                new(name, asserted[name])
            else:
                storage[name] = _TUPLE
        if held > peak:
            peak, peak_line = held, line
            at_peak = sorted(((sorted(names[sid])[0], size[sid]) for sid in set(
                storage.values()) if sid != _TUPLE and names[sid]), key=lambda e: -e[1])
        timeline.append((held, line))
    return Walk(start=start, peak=peak, end=held, peak_line=peak_line, held_at_peak=at_peak,
                timeline=timeline)
