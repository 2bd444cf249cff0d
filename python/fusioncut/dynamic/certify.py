"""Is one decision optimal over a whole box of sizes? ``check_optimal_over_ranges``.

Certificate: the cut is minimal at every tensor-product Bernstein control point of the box
(the monomial values of every size in the box lie in their convex hull, ``sweep.py``), with
each size-dependent ban imposed only where it holds on the whole box (its Bernstein
coefficients of ``out * ratio - in`` all <= 0), and the cut recomputes no node whose ban may
switch on in the box. Otherwise the corners and per-symbol breakpoints are probed for a
counterexample.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from fusioncut.dynamic.plan import Plan, SizedDecision
from fusioncut.dynamic.sizes import MAX_SIZE, SizeError
from fusioncut.dynamic.sweep import solve_scaled
from fusioncut.dynamic.symexpr import blossom_values
from fusioncut.network import recomputed
from fusioncut.policy import reduction_ban

__all__ = ["RangeReport", "check_optimal_over_ranges"]

_MAX_CONTROL_POINTS = 4096


@dataclass
class RangeReport:
    """Whether one decision is optimal over a box of sizes.

    ``optimal``: True (certified at every size in ``box``), False (``counterexample`` holds
    sizes where another decision is strictly cheaper), or None (neither certified nor refuted:
    a size-dependent ban may flip inside the box, or sizes are not polynomial).
    """

    decision: SizedDecision
    box: dict[str, tuple[int, int]]
    optimal: bool | None
    counterexample: dict[str, int] | None = None
    better: SizedDecision | None = None
    detail: str = ""


def check_optimal_over_ranges(plan: Plan, sizes=None, *, upper: int = 1 << 16,
                              box: Mapping[str, tuple[int, int]] | None = None) -> RangeReport:
    """Is the decision at ``sizes`` (default: the hints) optimal over the symbols' declared
    ranges? Unbounded ranges are capped at ``max(upper, hint)``; ``box`` overrides ranges
    (``{symbol: (lo, hi)}``). Sizes too large for exact weights leave the answer open
    (``optimal=None``, the detail says so).

    Rejects: ``plan`` that is not a ``Plan`` (``TypeError``); what ``Plan.solve`` rejects in
    ``sizes``; ``upper`` that is not an int in ``[1, 2**62 - 1]``, ``box`` that is not a
    mapping of known symbols to ``(lo, hi)`` int pairs with ``lo <= hi`` inside the symbol's
    declared range (``SizeError`` naming the symbol and the valid range)."""
    function = "check_optimal_over_ranges"
    if not isinstance(plan, Plan):
        raise TypeError(f"{function}: plan must be a fusioncut.Plan, got {type(plan).__name__}")
    if isinstance(upper, bool) or not isinstance(upper, int) or not 1 <= upper <= MAX_SIZE:
        raise SizeError(f"{function}: upper = {upper!r} is invalid; expected an int in "
                        f"[1, 2**62 - 1]")
    if box is not None and not isinstance(box, Mapping):
        raise SizeError(f"{function}: box must be a mapping {{symbol: (lo, hi)}} or None, got "
                        f"{type(box).__name__}")
    decision = plan.solve(sizes)
    ranges: dict[str, tuple[int, int]] = {}
    for name, info in plan.symbols.items():
        hi = info.hi if info.hi is not None else max(upper, info.hint)
        ranges[name] = (info.lo, hi)
    for key, pair in (box or {}).items():
        _, name = plan.sizes.symbol_arg(key, function)
        ranges[name] = _box_range(function, name, pair, plan.symbols[name])
    reduced_saved = plan._contracted.pos[decision.saved_index]
    if plan.program.polynomial and plan._prices is None:
        certified, detail = _certify(plan, ranges, reduced_saved)
    else:
        certified, detail = False, ("recompute prices are not certified over ranges"
                                    if plan._prices is not None
                                    else "sizes are not polynomial in the symbols")
    if certified:
        return RangeReport(decision, ranges, True, detail="certified at the control points")
    return _counterexample(plan, decision, ranges, reduced_saved, detail)


def _box_range(function: str, name: str, pair, info) -> tuple[int, int]:
    hi = MAX_SIZE if info.hi is None else min(info.hi, MAX_SIZE)
    ok = isinstance(pair, (tuple, list)) and len(pair) == 2 and all(
        isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)) for x in pair)
    if not ok or not info.lo <= pair[0] <= pair[1] <= hi:
        raise SizeError(f"{function}: box[{name!r}] = {pair!r} is invalid; expected (lo, hi), "
                        f"ints with {info.lo} <= lo <= hi <= {hi} (the symbol's range)")
    return int(pair[0]), int(pair[1])


def _control_monomials(plan: Plan, ranges: dict[str, tuple[int, int]]):
    """Monomial values at every tensor-product control point of the box, each scaled by the
    product of the symbols' blossom scales; None when there are too many points."""
    prog = plan.program
    degrees = [prog.degree(k) for k in range(len(plan.sizes.sym_list))]
    tables = []
    total_scale = 1
    for k, name in enumerate(plan.symbols):
        a, b = ranges[name]
        table, sc = blossom_values(degrees[k], a, b)
        tables.append(table)
        total_scale *= sc
    grid = list(np.ndindex(*[d + 1 for d in degrees])) if degrees else [()]
    if len(grid) > _MAX_CONTROL_POINTS:
        return None, total_scale, len(grid)
    monos = []
    for idx in grid:
        mu = []
        for m in range(prog.exps.shape[0]):
            v = 1
            for g, e in prog._exp_rows[m]:
                v *= tables[g][idx[g]][e]
            # each symbol's missing powers carry its scale too
            for g in range(len(degrees)):
                if prog.exps[m, g] == 0:
                    v *= tables[g][idx[g]][0]
            mu.append(v)
        monos.append(mu)
    return monos, total_scale, len(grid)


def _certify(plan: Plan, ranges, reduced_saved) -> tuple[bool, str]:
    monos, total_scale, count = _control_monomials(plan, ranges)
    if monos is None:
        return False, f"{count} control points: too many to certify"
    coef = plan.program.coef.astype(object)
    # A size-dependent ban holds on the whole box where out * ratio - in has Bernstein
    # coefficients (its values at the control points) <= 0, and nowhere where they are all
    # > 0. Certify against the relaxation that bans only the former (its min cut is a lower
    # bound at every size of the box), and check that the decision recomputes none of the
    # nodes whose ban may switch on.
    npairs = len(plan._dyn_ban_out)
    surely = np.ones(npairs, dtype=bool)
    never = np.ones(npairs, dtype=bool)
    for mu in monos:
        E = coef.dot(np.array(mu, dtype=object))
        banned = np.array([bool(reduction_ban(int(E[o]), int(E[i]), plan.ratio))
                           for o, i in zip(plan._dyn_ban_out, plan._dyn_ban_in)], dtype=bool)
        surely &= banned
        never &= ~banned
    bans = surely[plan._dyn_ban_pair]
    maybe = ~(surely | never)[plan._dyn_ban_pair]
    if maybe.any():
        recomp = recomputed(plan._contracted, reduced_saved)
        switching = plan._contracted.pos[plan._dyn_ban_nodes[maybe]]
        if recomp[switching].any():
            v = int(plan._dyn_ban_nodes[maybe][recomp[switching]][0])
            return False, (f"the decision recomputes {plan.graph.nodes[v].name}, whose "
                           f"reduction ban switches on inside the box")
    for mu in monos:
        E = coef.dot(np.array(mu, dtype=object))
        if max((abs(int(x)) for x in E), default=0) >= 1 << 62:
            return False, "sizes too large for an exact certificate"
        Ei = np.array([int(x) for x in E], dtype=np.int64)
        try:
            value, _, w = solve_scaled(plan, Ei, total_scale, bans, tie_break=False,
                                       function="check_optimal_over_ranges")
        except OverflowError:
            return False, "sizes too large for an exact certificate"
        if int(w[reduced_saved].sum()) != value:
            return False, "another cut is cheaper at a control point"
    return True, ""


def _counterexample(plan: Plan, decision: SizedDecision, ranges, reduced_saved,
                    detail: str) -> RangeReport:
    """Probe real sizes for one where another decision is cheaper or a ban forbids this one:
    the box's corners, then one sweep per symbol."""
    names = list(plan.symbols)
    recomp = recomputed(plan._contracted, reduced_saved)
    dyn_recomputed = recomp[plan._contracted.pos[plan._dyn_ban_nodes]]

    def fails(vals: tuple[int, ...], better: SizedDecision) -> bool:
        if len(plan._dyn_ban_nodes) and (plan._bans(plan._evaluate(vals)) & dyn_recomputed).any():
            return True
        return better.cost < SizedDecision(plan, vals, decision.saved_index, 0).cost

    corners = [()]
    for name in names:
        corners = [c + (x,) for c in corners for x in sorted(set(ranges[name]))]
    skipped: list[str] = []  # probes whose sizes are too large for exact weights
    for corner in corners[:256]:
        try:
            better = plan._solve_values(tuple(corner), "check_optimal_over_ranges")
        except OverflowError as e:
            skipped.append(str(e))
            continue
        if fails(tuple(corner), better):
            return RangeReport(decision, ranges, False, dict(zip(names, corner)), better, detail)
    for name in names:
        a, b = ranges[name]
        fixed = dict(zip(names, decision.values))
        fixed.pop(name)
        try:
            swept = plan.breakpoints(name, a, b, fixed=fixed)
        except OverflowError as e:
            skipped.append(str(e))
            continue
        for _, _, dec in swept:
            if dec.key() != decision.key() and fails(dec.values, dec):
                return RangeReport(decision, ranges, False, dec.sizes, dec, detail)
    if skipped:
        detail = f"{detail}; not probed: {skipped[0]}" if detail else f"not probed: {skipped[0]}"
    return RangeReport(decision, ranges, None, detail=detail)
