"""Sweeping one size symbol: the distinct decisions over a range, and where they change.

For a fixed cut the weight is linear in the monomial values ``mu = (1, t, t**2, ...)`` of the
swept symbol ``t``; the curve ``mu(t)`` for ``t`` in ``[p, q]`` lies in the convex hull of
its Bernstein control points (``symexpr.blossom_values``). A cut that is minimal at every
control point is minimal on the whole hull, hence at every size in ``[p, q]``: for linear
sizes the control points are the two ends (Eisner-Severance probing), for ``s**2`` (attention
scores) one more point, solved with the scaled virtual monomial values. Between cuts that
disagree, the crossing of their cost polynomials is found by integer bisection and the two
halves are covered recursively. The size-dependent bans split the range first
(``ban_segments``): within a segment they are constant.

This module works on a ``Plan`` it is handed (``plan.py`` imports it, never the reverse).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from fusioncut._solver import INF
from fusioncut.dynamic.sizes import SizeError, SizeOverflowError, show_int
from fusioncut.dynamic.symexpr import blossom_values

__all__ = ["Sweep", "breakpoints", "solve_scaled"]


def breakpoints(plan: Any, symbol: Any, lo: int, hi: int, *,
                fixed: Mapping[Any, int] | None = None) -> list[tuple[int, int, Any]]:
    """``Plan.breakpoints`` (see there)."""
    function = "Plan.breakpoints"
    k, name = plan.sizes.symbol_arg(symbol, function)
    if fixed is not None and not isinstance(fixed, Mapping):
        raise SizeError(f"{function}: fixed must be a mapping {{symbol: int}} or None, got "
                        f"{type(fixed).__name__} {fixed!r}")
    base = dict(plan.hints())
    if fixed:
        for key, v in fixed.items():
            base[key if isinstance(key, str) else str(key)] = v
        try:
            plan.sizes.values(base, function)
        except SizeError as e:
            raise type(e)(f"{e} (in fixed)") from None
    info = plan.symbols[name]
    for bound_name, bound in (("lo", lo), ("hi", hi)):
        base[name] = bound
        try:
            plan.sizes.values(base, function)
        except SizeError as e:
            raise type(e)(f"{e} ({bound_name} of the sweep)") from None
    if lo > hi:
        raise SizeError(f"{function}: lo = {lo} > hi = {hi} for {name} "
                        f"(valid range {info.range_str()})")
    values = list(plan.sizes.values(base, function))
    sweep = Sweep(plan, k, values)
    sweep.check_exact(lo, hi, name)
    out: list[tuple[int, int, bytes]] = []
    for p, q in sweep.ban_segments(lo, hi):
        for a, b, key in sweep.cover(p, q):
            if out and out[-1][2] == key:
                out[-1] = (out[-1][0], b, key)
            else:
                out.append((a, b, key))
    return [(a, b, sweep.decision(key, a)) for a, b, key in out]


def solve_scaled(plan: Any, E: np.ndarray, scale: int, bans: np.ndarray, *,
                 tie_break: bool = True, function: str = "Plan.breakpoints"
                 ) -> tuple[int, np.ndarray, np.ndarray]:
    """Min cut with element counts ``E`` that are ``scale`` x a virtual point (every constant
    weight term scaled by ``scale`` too). ``tie_break=False``: byte costs only. Returns
    ``(value, kept-node cut indices, weights)``; ``OverflowError`` (before any int64 product
    can wrap) when a weight would reach 2**61."""
    if tie_break:
        w_const, h, per_byte = plan._w_const, plan._dyn_h, plan.costs.scale
    else:
        w_const, h, per_byte = plan._cost_const, plan._dyn_c, 1
    top = max(float(w_const[w_const < INF].max(initial=0)) * scale,
              float(np.abs(h).max(initial=0)) * scale + float(plan._dyn_mi.max(initial=0))
              * float(np.abs(E[plan._dyn_eid]).max(initial=0)) * per_byte)
    if top >= INF // 2:
        raise OverflowError(f"{function}: sizes too large for an exact range certificate "
                            f"(a weight would reach 2**61)")
    bytes_dyn = plan._dyn_mi * E[plan._dyn_eid]
    w = np.where(w_const < INF, w_const * scale, INF)
    w[plan._dyn_pos] = h * scale + bytes_dyn * per_byte
    if len(plan._dyn_ban_nodes):
        w[plan._aux_slice] = np.where(bans, INF, 0)
    finite = w[w < INF]
    if finite.size and (finite >= INF // 2).any():
        raise OverflowError("Plan: sizes too large for an exact range certificate")
    value, cut_nodes = plan.cut(w, function)
    return value, cut_nodes, w


class Sweep:
    """One symbol ``t`` over a range, the others fixed. For polynomial sizes each reduced
    node's weight is a polynomial ``W[:, a] @ t**a``; cut keys are the bytes of the cut's
    kept-node indices."""

    def __init__(self, plan: Any, k: int, values: list[int]) -> None:
        self.plan = plan
        self.k = k
        self.values = values
        prog = plan.program
        # Recompute prices (a device) are not in the polynomial weights: probe only.
        self.exact = not prog.depends_nonpolynomially(k) and plan._prices is None
        self.degree = prog.degree(k) if self.exact else 1
        self._real: dict[int, tuple[bytes, int, np.ndarray]] = {}
        self._cuts: dict[bytes, np.ndarray] = {}
        if self.exact:
            self._build_polynomials()

    def _build_polynomials(self) -> None:
        """Coefficients P (E, d+1) of each expression as a polynomial in t (exact Python
        ints, in an object array)."""
        prog = self.plan.program
        d = self.degree
        gen_vals = prog.generator_values(tuple(self.values))
        M = prog.exps.shape[0]
        part = np.zeros((M, d + 1), dtype=object)
        for m in range(M):
            v = 1
            for g, e in prog._exp_rows[m]:
                if g != self.k:
                    v *= gen_vals[g] ** e
            part[m, int(prog.exps[m, self.k])] = v
        self.P = prog.coef.astype(object).dot(part)

    def E_at(self, t: int) -> np.ndarray:
        vals = list(self.values)
        vals[self.k] = t
        return self.plan._evaluate(tuple(vals), "Plan.breakpoints")

    def _exact_at(self, t: int) -> bool:
        try:
            return self.plan._network_weights(self.E_at(t)) is not None
        except OverflowError:
            return False

    def check_exact(self, lo: int, hi: int, name: str) -> None:
        """``SizeOverflowError`` naming the largest valid ``hi`` when the weights at ``hi``
        lose their exact tie-break (bytes x scale >= 2**62); sizes grow with the symbol, so
        the limit is found by bisection."""
        if self._exact_at(hi):
            return
        if not self._exact_at(lo):
            raise SizeOverflowError(f"Plan.breakpoints: lo = {show_int(lo)} for {name} is too "
                                    f"large: the weights there lose their exact tie-break")
        a, b = lo, hi
        while b - a > 1:
            mid = (a + b) // 2
            if self._exact_at(mid):
                a = mid
            else:
                b = mid
        raise SizeOverflowError(f"Plan.breakpoints: hi = {show_int(hi)} for {name} is too large: "
                                f"from {name} = {b} on the weights lose their exact tie-break "
                                f"(bytes x tie-break scale >= 2**62); valid range [{lo}, {a}]")

    def bans_at(self, t: int) -> np.ndarray:
        return self.plan._bans(self.E_at(t))

    def ban_segments(self, lo: int, hi: int) -> list[tuple[int, int]]:
        """Maximal sub-ranges on which the size-dependent bans do not change."""
        p = self.plan
        if not len(p._dyn_ban_nodes) or lo == hi:
            return [(lo, hi)]
        candidates = {lo, hi}
        if self.exact:
            for o, i in zip(p._dyn_ban_out, p._dyn_ban_in):
                g = [float(x) * p.ratio for x in self.P[o]]
                for a, x in enumerate(self.P[i]):
                    g[a] -= float(x)
                while len(g) > 1 and g[-1] == 0:
                    g.pop()
                if len(g) <= 1:
                    continue
                for root in np.roots(g[::-1]):
                    if abs(root.imag) > 1e-9 * max(1.0, abs(root.real)):
                        continue
                    r = math.floor(root.real)
                    for t in (r - 1, r, r + 1, r + 2):
                        if lo <= t <= hi:
                            candidates.add(int(t))
        else:
            step = max(1, (hi - lo) // 4096)
            candidates.update(range(lo, hi + 1, step))
        points = sorted(candidates)
        cuts = []
        prev_t, prev = points[0], self.bans_at(points[0])
        for t in points[1:]:
            cur = self.bans_at(t)
            if not np.array_equal(cur, prev):
                a, b = prev_t, t  # first change in (a, b]
                while b - a > 1:
                    mid = (a + b) // 2
                    if np.array_equal(self.bans_at(mid), prev):
                        a = mid
                    else:
                        b = mid
                cuts.append(b)
            prev_t, prev = t, cur
        bounds = [lo] + cuts + [hi + 1]
        return [(bounds[j], bounds[j + 1] - 1) for j in range(len(bounds) - 1)]

    def real(self, t: int) -> tuple[bytes, int, np.ndarray]:
        """(cut key, min value, weights) at t."""
        hit = self._real.get(t)
        if hit is not None:
            return hit
        p = self.plan
        w = p._network_weights(self.E_at(t))
        if w is None:
            raise OverflowError(f"Plan.breakpoints: at {p.sizes.sym_list[self.k]} = {t} the "
                                f"sizes are too large for the exact tie-break (the cost model "
                                f"coarsens it)")
        value, cut_nodes = p.cut(w, "Plan.breakpoints")
        hit = (self._key(cut_nodes), value, w)
        self._real[t] = hit
        return hit

    def _key(self, cut_nodes: np.ndarray) -> bytes:
        arr = np.ascontiguousarray(cut_nodes, dtype=np.int64)
        key = arr.tobytes()
        self._cuts.setdefault(key, arr)
        return key

    def value(self, key: bytes, t: int) -> int:
        return int(self.real_weights(t)[self._cuts[key]].sum())

    def real_weights(self, t: int) -> np.ndarray:
        hit = self._real.get(t)
        if hit is not None:
            return hit[2]
        w = self.plan._network_weights(self.E_at(t))
        if w is None:
            raise OverflowError("Plan.breakpoints: sizes too large for the exact tie-break")
        return w

    def optimal_between(self, key: bytes, p: int, q: int, bans: np.ndarray) -> bool:
        """Whether the cut ``key`` (optimal at p and q) is optimal at the inner control points
        of [p, q]: then at every size in between."""
        d = self.degree
        if d <= 1:
            return True
        if not self.exact:
            mid = (p + q) // 2
            return self.real(mid)[1] == self.value(key, mid)
        table, scale = blossom_values(d, p, q)
        for j in range(1, d):
            E = self.P.dot(np.array(table[j], dtype=object))
            if max((abs(int(x)) for x in E), default=0) >= 1 << 62:
                raise OverflowError("Plan.breakpoints: sizes too large for a range certificate")
            mono_E = np.array([int(x) for x in E], dtype=np.int64)
            value, _, w = solve_scaled(self.plan, mono_E, scale, bans)
            if int(w[self._cuts[key]].sum()) != value:
                return False
        return True

    def cover(self, p: int, q: int) -> list[tuple[int, int, bytes]]:
        bans = self.bans_at(p)
        out: list[tuple[int, int, bytes]] = []
        stack = [(p, q)]
        while stack:
            a, b = stack.pop()
            A, va, _ = self.real(a)
            if a == b:
                out.append((a, a, A))
                continue
            B, vb, _ = self.real(b)
            if A == B or self.value(A, b) == vb:
                if self.optimal_between(A, a, b, bans):
                    out.append((a, b, A))
                    continue
                mid = (a + b) // 2
                stack.append((mid + 1, b))
                stack.append((a, mid))
                continue
            # A is better at a, B at b: the last t with value(A) <= value(B) splits them.
            lo_t, hi_t = a, b
            while hi_t - lo_t > 1:
                mid = (lo_t + hi_t) // 2
                if self.value(A, mid) <= self.value(B, mid):
                    lo_t = mid
                else:
                    hi_t = mid
            stack.append((lo_t + 1, b))
            stack.append((a, lo_t))
        out.sort()
        return out

    def decision(self, key: bytes, t: int) -> Any:
        p = self.plan
        vals = list(self.values)
        vals[self.k] = t
        saved = p._contracted.keep[self._cuts[key]]
        return p.decision(tuple(vals), saved, self.value(key, t))
