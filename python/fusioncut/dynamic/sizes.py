"""The shape symbols of a joint graph and each node's element count as an expression in them.

``SizeTable`` is built once from the graph's ``meta["val"]``::

    symbols      {name: SymbolInfo}: hint, declared range [lo, hi], unbacked?, sources
    exprs        distinct sympy element counts (after the ShapeEnv's replacements)
    node_expr    int64 (n,): index into exprs, -1 when the count is a constant
    const_numel  int64 (n,): the constant counts

``values(sizes, function)`` turns what a user passes (a mapping by name or SymInt, a sequence
in ``symbols`` order, None for the hints) into validated ints, or raises ``SizeError`` naming
the symbol and its valid range.
"""

from __future__ import annotations

import operator
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy
import torch

from fusioncut.graph import JointGraph, Value, value_size
from fusioncut.options import Options

__all__ = ["MAX_SIZE", "SizeError", "SizeOverflowError", "SizeTable", "SymbolInfo",
           "UnbackedSizeWarning"]

MAX_SIZE = 2**62 - 1
"""The largest value a size symbol may take: element counts and bytes stay below the solver's
2**62 (a larger size could only describe tensors no machine holds)."""


class SizeError(ValueError):
    """Bad sizes for a ``Plan``: an unknown or missing symbol, a negative value, or a value
    outside the symbol's declared range. The message names the symbol and the valid range."""


class SizeOverflowError(SizeError, OverflowError):
    """Sizes too large for exact weights: a symbol above ``MAX_SIZE``, or sizes that make an
    element count or a tensor's bytes reach 2**62. Both a ``SizeError`` and an
    ``OverflowError``; the message names the function, the sizes and the valid range."""


def show_int(value: int) -> str:
    """``value`` for a message; a huge int by its size (``str(10**5000)`` raises)."""
    return str(value) if value.bit_length() <= 64 else f"an int of {value.bit_length()} bits"


class UnbackedSizeWarning(UserWarning):
    """A size symbol has no hint (an unbacked SymInt, e.g. from ``.item()`` or
    ``nonzero``): ``Options.unbacked_size_hint`` is assumed for it unless sizes are given."""


@dataclass(frozen=True)
class SymbolInfo:
    """A shape symbol the weights depend on."""

    name: str
    symbol: sympy.Symbol
    hint: int
    """The size seen at trace time, or ``Options.unbacked_size_hint`` (clamped into the
    range) for an unbacked symbol."""
    lo: int
    hi: int | None
    """Declared range ``[lo, hi]`` from the ShapeEnv (``var_to_range``); ``hi=None``: unbounded."""
    unbacked: bool
    sources: tuple[str, ...] = ()
    """Where the size comes from (``L['x'].size()[0]``), when the ShapeEnv recorded it."""

    def range_str(self) -> str:
        return f"[{self.lo}, {'inf' if self.hi is None else self.hi}]"


class SizeTable:
    """Element counts of a joint graph's nodes as expressions in its shape symbols."""

    def __init__(self, graph: JointGraph, options: Options) -> None:
        n = graph.num_nodes
        exprs: dict[sympy.Expr, int] = {}
        expr_list: list[sympy.Expr] = []
        node_expr = np.full(n, -1, dtype=np.int64)
        const_numel = np.zeros(n, dtype=np.int64)
        shape_env = None
        canonical: dict[sympy.Expr, sympy.Expr] = {}
        for i, node in enumerate(graph.nodes):
            v = graph.value[i]
            if v != Value.TENSOR and v != Value.MULTI:
                continue
            ne, _ = value_size(node.meta.get("val"))
            if not isinstance(ne, torch.SymInt):
                const_numel[i] = int(ne)
                continue
            sym_node = ne.node
            if shape_env is None:
                shape_env = sym_node.shape_env
            raw = sym_node.expr
            expr = canonical.get(raw)
            if expr is None:
                expr = canonical[raw] = sympy.expand(sympy.sympify(_replace(shape_env, raw)))
            if expr.is_Integer:
                const_numel[i] = int(expr)
                continue
            e = exprs.get(expr)
            if e is None:
                e = exprs[expr] = len(expr_list)
                expr_list.append(expr)
            node_expr[i] = e
        free: set = set()
        for expr in expr_list:
            free |= expr.free_symbols
        self.shape_env = shape_env
        self.sym_list: list[sympy.Symbol] = sorted(
            free, key=lambda s: (str(s)[0], len(str(s)), str(s)))
        self.symbols: dict[str, SymbolInfo] = {
            str(s): _symbol_info(s, shape_env, options) for s in self.sym_list}
        self.sym_index = {name: k for k, name in enumerate(self.symbols)}
        self.exprs = expr_list
        self.node_expr = node_expr
        self.const_numel = const_numel

    def hints(self) -> dict[str, int]:
        """``{name: hint}``: the sizes seen at trace time (fallbacks for unbacked symbols)."""
        return {name: info.hint for name, info in self.symbols.items()}

    def expr_key(self, i: int) -> tuple[int, int]:
        """A hashable element count of node ``i``: ``(0, expr index)`` or ``(1, constant)``."""
        e = int(self.node_expr[i])
        return (0, e) if e >= 0 else (1, int(self.const_numel[i]))

    def key_sympy(self, key: tuple[int, int]) -> sympy.Expr:
        return self.exprs[key[1]] if key[0] == 0 else sympy.Integer(key[1])

    def symbol_arg(self, symbol: Any, function: str) -> tuple[int, str]:
        """``(index, name)`` of a symbol given by name or SymInt, or ``SizeError``."""
        name = symbol if isinstance(symbol, str) else str(getattr(getattr(symbol, "node", None),
                                                                  "expr", symbol))
        if name not in self.sym_index:
            raise SizeError(f"{function}: unknown size symbol {name!r}; the plan's symbols are "
                            f"{self._known()}")
        return self.sym_index[name], name

    def _known(self) -> str:
        return ", ".join(f"{k} {i.range_str()}" for k, i in self.symbols.items()) or "none"

    def values(self, sizes: Mapping[Any, int] | Sequence[int] | None, function: str
               ) -> tuple[int, ...]:
        """Validated symbol values in ``symbols`` order (see the module docstring)."""
        infos = self.symbols
        if sizes is None:
            return tuple(info.hint for info in infos.values())
        if isinstance(sizes, (str, bytes)) or not isinstance(sizes, (Mapping, Sequence)):
            raise SizeError(f"{function}: sizes must be a mapping {{symbol: int}}, a sequence "
                            f"of {len(infos)} ints in the order {list(infos)}, or None (the "
                            f"hints); got {type(sizes).__name__} {sizes!r}")
        if not isinstance(sizes, Mapping):
            seq = list(sizes)
            if len(seq) != len(infos):
                raise SizeError(f"{function}: got {len(seq)} sizes for {len(infos)} symbols "
                                f"({', '.join(infos)})")
            sizes = dict(zip(infos, seq))
        given: dict[str, int] = {}
        for key, value in sizes.items():
            name = key if isinstance(key, str) else str(getattr(getattr(key, "node", None),
                                                                "expr", key))
            if name not in infos:
                if self._known_elsewhere(name):
                    continue  # a ShapeEnv symbol no weight depends on
                raise SizeError(f"{function}: unknown size symbol {name!r}; the plan's "
                                f"symbols are {self._known()}")
            info = infos[name]
            if isinstance(value, (bool, np.bool_)):
                raise SizeError(f"{function}: size {name} = {value!r} is not an integer; valid "
                                f"range is {info.range_str()}")
            try:
                value = operator.index(value)
            except TypeError:
                raise SizeError(f"{function}: size {name} = {value!r} is not an integer; valid "
                                f"range is {info.range_str()}") from None
            if value < 0:
                raise SizeError(f"{function}: size {name} = {show_int(value)} is negative; "
                                f"valid range is {info.range_str()}")
            if value < info.lo or (info.hi is not None and value > info.hi):
                raise SizeError(f"{function}: size {name} = {show_int(value)} is outside its "
                                f"declared range {info.range_str()}")
            if value > MAX_SIZE:
                raise SizeOverflowError(f"{function}: size {name} = {show_int(value)} is too "
                                        f"large; valid range is [{info.lo}, 2**62 - 1]")
            given[name] = value
        missing = [k for k in infos if k not in given]
        if missing:
            name = missing[0]
            raise SizeError(f"{function}: no size for symbol {name!r} (valid range "
                            f"{infos[name].range_str()}, hint {infos[name].hint}); pass every "
                            f"one of {', '.join(infos)}")
        return tuple(given[k] for k in infos)

    def _known_elsewhere(self, name: str) -> bool:
        env = self.shape_env
        if env is None:
            return False
        return any(str(s) == name for s in getattr(env, "var_to_range", {}))


def _replace(shape_env: Any, raw: sympy.Expr) -> sympy.Expr:
    """The ShapeEnv's replacements (s1 -> s0 after an equality guard, s0 -> 5 after a
    specialization), so that symbols are independent; the expression as traced otherwise."""
    replace = getattr(shape_env, "replace", None)
    if replace is None:
        return raw
    try:
        return replace(raw)
    except Exception:  # noqa: BLE001 (keep the expression as traced)
        return raw


def _symbol_info(sym: sympy.Symbol, shape_env: Any, options: Options) -> SymbolInfo:
    lo, hi = 0, None
    hint = None
    sources: tuple[str, ...] = ()
    if shape_env is not None:
        vr = getattr(shape_env, "var_to_range", {}).get(sym)
        if vr is not None:
            lo = max(_bound(vr.lower, 0), 0)
            hi = _bound(vr.upper, None)
        for attr in ("backed_var_to_val", "var_to_val"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", FutureWarning)
                table = getattr(shape_env, attr, None)
            if table is not None and sym in table:
                hint = int(table[sym])
                break
        srcs = getattr(shape_env, "var_to_sources", {}).get(sym, [])
        sources = tuple(_source_name(s) for s in srcs)
    unbacked = hint is None
    if unbacked:
        hint = options.unbacked_size_hint
        hint = max(hint, lo)
        if hi is not None:
            hint = min(hint, hi)
        warnings.warn(UnbackedSizeWarning(
            f"fusioncut: size symbol {sym} has no hint (unbacked); assuming {sym} = {hint} "
            f"(Options.unbacked_size_hint, clamped to its range "
            f"[{lo}, {'inf' if hi is None else hi}]) unless sizes are given"), stacklevel=5)
    return SymbolInfo(name=str(sym), symbol=sym, hint=int(hint), lo=int(lo),
                      hi=None if hi is None else int(hi), unbacked=unbacked, sources=sources)


def _source_name(source: Any) -> str:
    name = getattr(source, "name", None)
    try:
        name = name() if callable(name) else name
    except Exception:  # noqa: BLE001 (best effort: a description only)
        name = None
    return name if isinstance(name, str) else str(source)


def _bound(v: Any, default):
    """An int bound from a ValueRanges end; ``default`` for (int_)oo and anything not finite."""
    if isinstance(v, int):
        return v
    if getattr(v, "is_integer", False) is True and getattr(v, "is_finite", None) is True \
            and getattr(v, "is_Integer", False):
        return int(v)
    return default
