"""fusioncut.dynamic.symexpr: size expressions compiled to int64 monomials, Bernstein control values."""

from __future__ import annotations

import math

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from fusioncut.dynamic.symexpr import SizeExpressionError, SizeProgram, blossom_values

s0, s1 = sympy.symbols("s0 s1", integer=True, positive=True)


def test_polynomials_evaluate_exactly():
    exprs = [16 * s0 * s1, 2 * s0 * s1**2 + s0, sympy.Integer(7), s1]
    prog = SizeProgram.compile(exprs, [s0, s1])
    assert prog.polynomial
    for a, b in [(2, 3), (17, 65536), (1, 1)]:
        want = [int(e.subs({s0: a, s1: b})) for e in exprs]
        assert prog.evaluate((a, b)).tolist() == want
    assert prog.degree(0) == 1 and prog.degree(1) == 2


def test_non_polynomial_atoms_become_generators():
    from torch.utils._sympy.functions import FloorDiv

    exprs = [4 * FloorDiv(s0, 2) * s1, s0 + FloorDiv(s0, 2)]
    prog = SizeProgram.compile(exprs, [s0, s1])
    assert not prog.polynomial and prog.depends_nonpolynomially(0)
    assert not prog.depends_nonpolynomially(1)
    assert prog.evaluate((7, 5)).tolist() == [4 * 3 * 5, 7 + 3]


def test_overflow_is_detected():
    prog = SizeProgram.compile([s0**3], [s0])
    with pytest.raises(OverflowError, match="s0"):
        prog.evaluate((10**7,))


def test_foreign_symbols_are_rejected():
    with pytest.raises(SizeExpressionError, match="u0"):
        SizeProgram.compile([s0 * sympy.Symbol("u0")], [s0])


@settings(max_examples=50, deadline=None)
@given(d=st.integers(0, 4), lo=st.integers(0, 1000), width=st.integers(0, 1000),
       frac=st.fractions(0, 1))
def test_blossom_values_reproduce_powers(d, lo, width, frac):
    """sum_j Bernstein_j(u) * table[j][a] / scale == t**a: the control points of the curve
    (t, t**2, .., t**d) on [lo, hi], so the curve lies in their convex hull."""
    hi = lo + width
    table, scale = blossom_values(d, lo, hi)
    t = lo + frac * width
    u = frac
    for a in range(d + 1):
        total = sum(math.comb(d, j) * u**j * (1 - u) ** (d - j) * table[j][a]
                    for j in range(d + 1))
        assert total / scale == t**a
