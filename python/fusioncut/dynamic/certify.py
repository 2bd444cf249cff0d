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
    (``{symbol: (lo, hi)}``; an unknown symbol raises ``SizeError``)."""
    decision = plan.solve(sizes)
    ranges: dict[str, tuple[int, int]] = {}
    for name, info in plan.symbols.items():
        hi = info.hi if info.hi is not None else max(upper, info.hint)
        ranges[name] = (info.lo, hi)
    if box:
        for key, (a, b) in box.items():
            _, name = plan.sizes.symbol_arg(key, "check_optimal_over_ranges")
            ranges[name] = (int(a), int(b))
    reduced_saved = plan._contracted.pos[decision.saved_index]
    if plan.program.polynomial:
        certified, detail = _certify(plan, ranges, reduced_saved)
    else:
        certified, detail = False, "sizes are not polynomial in the symbols"
    if certified:
        return RangeReport(decision, ranges, True, detail="certified at the control points")
    return _counterexample(plan, decision, ranges, reduced_saved, detail)


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
        value, _, w = solve_scaled(plan, Ei, total_scale, bans, tie_break=False)
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
    for corner in corners[:256]:
        better = plan._solve_values(tuple(corner))
        if fails(tuple(corner), better):
            return RangeReport(decision, ranges, False, dict(zip(names, corner)), better, detail)
    for name in names:
        a, b = ranges[name]
        fixed = dict(zip(names, decision.values))
        fixed.pop(name)
        for _, _, dec in plan.breakpoints(name, a, b, fixed=fixed):
            if dec.key() != decision.key() and fails(dec.values, dec):
                return RangeReport(decision, ranges, False, dec.sizes, dec, detail)
    return RangeReport(decision, ranges, None, detail=detail)
