"""Size expressions compiled for evaluation without sympy: ``E = coef @ monomials(values)``.

The joint graph's element counts are sympy expressions in the shape symbols. ``SizeProgram``
writes each distinct expression as a polynomial with integer coefficients in *generators*: the
shape symbols, plus any non-polynomial sub-expression (``FloorDiv(s0, 2)``, ``Max(s0, s1)``,
...) which becomes a generator of its own, evaluated by a small compiled Python function::

    generators g_0 .. g_{G-1}           symbols first, then non-polynomial atoms
    exps    int64 (M, G)                monomial m = prod_g g ** exps[m, g]
    coef    int64 (E, M)                expression e = sum_m coef[e, m] * monomial m

so that at given sizes ``values(E,) = coef @ monomials``: a few numpy operations, all in
int64. ``bernstein_points`` evaluates the monomials at the control points of a box (see
``dynamic/certify.py``), which is how a decision is certified optimal over a whole range of sizes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import sympy


class SizeExpressionError(ValueError):
    """A size expression fusioncut cannot compile (non-integer coefficients, unknown atoms)."""


def _python_function(expr: sympy.Expr, symbols: list[sympy.Symbol]):
    """``expr`` as a Python function of integer symbol values, exact (no floats)."""
    names = {s: f"_v{k}" for k, s in enumerate(symbols)}

    def emit(e) -> str:
        if e.is_Symbol:
            if e not in names:
                raise SizeExpressionError(f"unknown symbol {e} in {expr}")
            return names[e]
        if e.is_Integer:
            return f"({int(e)})"
        if e.is_Rational:
            return f"_F({int(e.p)}, {int(e.q)})"
        if e.is_Add:
            return "(" + " + ".join(emit(a) for a in e.args) + ")"
        if e.is_Mul:
            return "(" + " * ".join(emit(a) for a in e.args) + ")"
        if e.is_Pow:
            base, ex = e.args
            if ex.is_Integer and int(ex) >= 0:
                return f"({emit(base)} ** {int(ex)})"
            raise SizeExpressionError(f"cannot evaluate power {e} in {expr}")
        name = type(e).__name__
        args = ", ".join(emit(a) for a in e.args)
        if name in _INT_FUNCTIONS:
            return f"_f_{name}({args})"
        raise SizeExpressionError(f"cannot evaluate {name} in size expression {expr}")

    code = emit(expr)
    params = ", ".join(names[s] for s in symbols)
    namespace = {"_F": Fraction}
    namespace.update({f"_f_{k}": v for k, v in _INT_FUNCTIONS.items()})
    exec(f"def _f({params}):\n    return int({code})\n", namespace)  # noqa: S102 (own code)
    return namespace["_f"]


# torch.utils._sympy.functions and sympy functions that appear in sizes, on Python ints.
_INT_FUNCTIONS = {
    "FloorDiv": lambda a, b: a // b,
    "CeilDiv": lambda a, b: -(-a // b),
    "IntTrueDiv": lambda a, b: a / b,
    "CleanDiv": lambda a, b: a // b,
    "ModularIndexing": lambda a, b, c: (a // b) % c,
    "PythonMod": lambda a, b: a % b,
    "Mod": lambda a, b: a % b,
    "Max": max,
    "Min": min,
    "floor": math.floor,
    "ceiling": math.ceil,
    "FloorToInt": math.floor,
    "CeilToInt": math.ceil,
    "Abs": abs,
    "Identity": lambda a: a,
}


@dataclass
class SizeProgram:
    symbols: list[sympy.Symbol]  # the shape symbols, in a fixed order
    atoms: list[sympy.Expr]  # non-polynomial generators (after the symbols)
    atom_fns: list  # atom k as a Python function of the symbol values
    atom_symbols: list[frozenset]  # which symbols atom k depends on
    exps: np.ndarray  # int64 (M, G)
    coef: np.ndarray  # int64 (E, M)

    @classmethod
    def compile(cls, exprs: list[sympy.Expr], symbols: list[sympy.Symbol]) -> SizeProgram:
        symset = set(symbols)
        atoms: list[sympy.Expr] = []
        polys = []
        for e in exprs:
            e = sympy.expand(sympy.sympify(e))
            free = e.free_symbols
            if not free <= symset:
                raise SizeExpressionError(f"size {e} uses symbols {sorted(map(str, free - symset))}"
                                          f" that are not shape symbols")
            poly = _as_poly(e, symbols)
            if poly is None:
                # Let sympy pick generators: symbols and the non-polynomial atoms.
                poly = sympy.Poly(e)
                for g in poly.gens:
                    if not g.is_Symbol and g not in atoms:
                        atoms.append(g)
            polys.append((e, poly))
        gens = list(symbols) + atoms
        gindex = {g: k for k, g in enumerate(gens)}
        monos: dict[tuple, int] = {}
        rows: list[dict[int, int]] = []
        for e, poly in polys:
            row: dict[int, int] = {}
            for mono, c in poly.terms():
                if not (c.is_Integer if hasattr(c, "is_Integer") else float(c).is_integer()):
                    raise SizeExpressionError(f"size {e} has a non-integer coefficient {c}")
                full = [0] * len(gens)
                for g, p in zip(poly.gens, mono):
                    if p:
                        if g not in gindex:
                            raise SizeExpressionError(f"cannot compile size {e}: generator {g}")
                        full[gindex[g]] = int(p)
                key = tuple(full)
                m = monos.setdefault(key, len(monos))
                row[m] = row.get(m, 0) + int(c)
            rows.append(row)
        exps = np.zeros((max(len(monos), 1), len(gens)), dtype=np.int64)
        for key, m in monos.items():
            exps[m] = key
        coef = np.zeros((len(exprs), exps.shape[0]), dtype=np.int64)
        for e_i, row in enumerate(rows):
            for m, c in row.items():
                if abs(c) >= 1 << 62:
                    raise SizeExpressionError(f"size {exprs[e_i]} has a coefficient {c} too large")
                coef[e_i, m] = c
        fns = [_python_function(a, list(symbols)) for a in atoms]
        atom_syms = [frozenset(a.free_symbols) for a in atoms]
        return cls(symbols=list(symbols), atoms=atoms, atom_fns=fns, atom_symbols=atom_syms,
                   exps=exps, coef=coef)

    @property
    def polynomial(self) -> bool:
        return not self.atoms

    def generator_values(self, values: tuple[int, ...]) -> list[int]:
        """Symbol values, then the atoms' values at those symbol values."""
        vals = list(values)
        for fn in self.atom_fns:
            vals.append(fn(*values))
        return vals

    def monomials(self, gen_values: list[int]) -> np.ndarray:
        """int64 (M,) monomial values. Python ints on the way, so overflow is detected."""
        out = np.empty(self.exps.shape[0], dtype=np.int64)
        for m, row in enumerate(self._exp_rows):
            v = 1
            for g, p in row:
                v *= gen_values[g] ** p
            if v >= 1 << 63:
                raise OverflowError(f"monomial {self.monomial_str(m)} = {v} overflows int64")
            out[m] = v
        return out

    def monomial_str(self, m: int) -> str:
        gens = list(self.symbols) + self.atoms
        parts = [f"{gens[g]}**{p}" if p > 1 else str(gens[g])
                 for g, p in enumerate(self.exps[m]) if p]
        return "*".join(parts) or "1"

    def __post_init__(self) -> None:
        self._exp_rows = [[(g, int(p)) for g, p in enumerate(row) if p] for row in self.exps]
        self._degrees = [int(self.exps[:, g].max()) if self.exps.size else 0
                         for g in range(self.exps.shape[1])]

    def evaluate(self, values: tuple[int, ...]) -> np.ndarray:
        """int64 (E,) expression values at the symbol values (in ``symbols`` order)."""
        return self.coef @ self.monomials(self.generator_values(values))

    def degree(self, k: int) -> int:
        """Highest power of symbol ``k`` in any monomial (0 if absent)."""
        return self._degrees[k]

    def depends_nonpolynomially(self, k: int) -> bool:
        return any(self.symbols[k] in s for s in self.atom_symbols)


def _as_poly(e: sympy.Expr, symbols: list[sympy.Symbol]):
    if e.is_Integer:
        return sympy.Poly(e, *symbols) if symbols else _ConstPoly(int(e))
    try:
        poly = sympy.Poly(e, *symbols)
    except sympy.PolynomialError:
        return None
    if not poly.domain.is_ZZ:
        return None
    return poly


class _ConstPoly:
    gens: tuple = ()

    def __init__(self, c: int) -> None:
        self.c = c

    def terms(self):
        return [((), sympy.Integer(self.c))]


def blossom_values(degree: int, lo: int, hi: int) -> tuple[list[list[int]], int]:
    """Scaled Bernstein control values of ``x**a`` on ``[lo, hi]`` for polynomials of
    ``degree``: ``table[j][a] / scale`` is the blossom of ``x**a`` at (lo x (degree - j),
    hi x j), so that a polynomial ``sum_a c_a x**a`` has Bernstein coefficients
    ``sum_a c_a table[j][a] / scale``. The curve ``(x, x**2, .., x**degree)`` on [lo, hi] lies
    in the convex hull of the ``degree + 1`` control points (de Casteljau)."""
    scale = 1
    for a in range(degree + 1):
        scale = math.lcm(scale, math.comb(degree, a))
    table = []
    for j in range(degree + 1):
        row = []
        for a in range(degree + 1):
            total = 0
            for i in range(max(0, a - (degree - j)), min(a, j) + 1):
                total += math.comb(j, i) * math.comb(degree - j, a - i) * hi ** i * lo ** (a - i)
            row.append(total * (scale // math.comb(degree, a)))
        table.append(row)
    return table, scale
