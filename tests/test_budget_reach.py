"""The plans a memory budget can reach (budget_plans.py, budget_reach.py): every minimum
cut at a breakpoint, the knapsack between neighbouring cuts, against the exact optimum of the
same problem (bench/exact_budget.py, HiGHS) on small graphs."""

from __future__ import annotations

import functools
import itertools
import random
import warnings

import numpy as np
import pytest
import torch

import fusioncut
from fusioncut import budget_reach
from fusioncut.models import GPT, CosCos, LSTMUnrolled, gpt_config, gpt_inputs
from fusioncut.options import Options
from fusioncut.report import capture

pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning")

exact_budget = pytest.importorskip("exact_budget")  # bench/ (scipy: the bench extra)
bench_exact = pytest.importorskip("bench_exact")


@functools.lru_cache(maxsize=None)
def _capture(name):
    torch.manual_seed(0)
    if name == "lstm":
        return capture(LSTMUnrolled(steps=8), torch.randn(8, 3, 6))
    if name == "coscos":
        return capture(CosCos(), *(torch.randn(64, 64, requires_grad=True) for _ in range(4)))
    cfg = gpt_config("tests", n_layer=1)
    return capture(GPT(cfg), *gpt_inputs(cfg))


@functools.lru_cache(maxsize=None)
def _front(name, device="h100"):
    cap = _capture(name)
    return fusioncut.pareto(cap.joint_module, num_fwd_outputs=cap.num_fwd_outputs,
                            static_lifetime_input_indices=cap.static_lifetime_input_indices,
                            options=Options(device=device))


def _gaps(front):
    """Relative gap of ``best_within`` to the exact optimum at every level and midpoint."""
    gen = front.generator
    exact = exact_budget.ExactBudget(front.graph, gen.bnet, gen.evaluate.static)
    out = []
    for limit in bench_exact.budgets_of([p.saved_bytes for p in front.plans]):
        plan = exact.solve(limit)
        best = gen.evaluate.point(plan.saved, None)
        assert best.saved_bytes <= limit
        mine = front.best_within(limit)
        assert mine is not None and mine.saved_bytes <= limit
        out.append(bench_exact.gap(mine.recompute_seconds, best.recompute_seconds))
    return out


@pytest.mark.parametrize("device", ["h100", "cpu"])
def test_best_within_is_the_exact_optimum_on_an_unrolled_lstm(device):
    """The LSTM's cuts tie along its chain: every link is a plan, so the budgets between
    the least plan and the runtime plan get the exact optimum, or come within 5% of it (they
    used to get the lower cut: 705-1039% more recomputation)."""
    gaps = _gaps(_front("lstm", device))
    assert np.median(gaps) < 1e-6 and max(gaps) < 0.05


def test_best_within_is_near_the_exact_optimum_on_a_gpt_layer():
    gaps = _gaps(_front("gpt"))
    assert np.median(gaps) < 1e-3 and max(gaps) < 0.15


def test_least_storage_plan_counts_inputs_as_free():
    """cos(cos(a+b+c+d)): recomputing a+b+c+d from the inputs keeps nothing alive that is
    not alive anyway, so the least-storage cut saves no activation bytes, and a byte budget of
    0 reaches it (the least point may save more: a plan that does not lower the estimated peak
    is no point)."""
    front = _front("coscos")
    assert front.generator.points[0].saved_bytes == 0
    assert front.for_bytes(0)[0].saved_bytes == 0
    assert front.runtime.saved_bytes > 0


def test_lstm_plans_fill_the_chain_between_the_sweep_cuts():
    front = _front("lstm")
    levels = sorted({p.saved_bytes for p in front.plans})
    assert len(levels) > len(front.generator.cuts)
    # No hole: neighbouring plans differ by at most one step's state (8 steps in all).
    assert np.diff(levels).max() <= front.runtime.saved_bytes / 8


def test_plans_are_pareto_from_the_runtime_plan_down():
    for name in ("lstm", "gpt"):
        plans = _front(name).plans
        assert np.array_equal(plans[0].saved, _front(name).runtime.saved)
        for a, b in zip(plans[1:], plans[2:]):
            assert b.saved_bytes < a.saved_bytes
            assert b.recompute_seconds > a.recompute_seconds


def test_points_are_a_peak_monotone_subset_of_the_plans():
    front = _front("gpt")
    keys = {p.saved.tobytes() for p in front.plans}
    points = front.points
    assert all(p.saved.tobytes() in keys or p is front.least for p in points[1:])
    for a, b in zip(points, points[1:]):
        assert b.saved_bytes < a.saved_bytes and b.peak.peak <= a.peak.peak


def test_exact_plans_train_like_eager():
    """The exact solver's plans are valid partitions: emitted and run, gradients equal
    eager (what the bench compares against is a plan one can run)."""
    assert bench_exact.run_check("lstm8", "h100") == 2


# --- the knapsack's parts -------------------------------------------------------------------


def _brute_closures(members, succ, values):
    totals = set()
    for bits in itertools.product((0, 1), repeat=len(members)):
        chosen = {c for c, b in zip(members, bits) if b}
        if all(h in chosen for c in chosen for h in succ.get(c, ())):
            totals.add(sum(values[c] for c in chosen))
    return totals


@pytest.mark.parametrize("seed", range(20))
def test_closures_of_a_group_are_every_closure(seed):
    rng = random.Random(seed)
    k = rng.randint(1, 9)
    members = list(range(k))
    succ: dict[int, list[int]] = {}
    for t in range(k):
        for h in range(t):
            if rng.random() < 0.3:
                succ.setdefault(t, []).append(h)
    values = [rng.randint(-5, 20) for _ in range(k)]
    closures = budget_reach._closures(members, succ, values)
    assert {sum(values[c] for c in cl) for cl in closures} == \
        _brute_closures(members, succ, values)
    for cl in closures:
        assert all(h in cl for c in cl for h in succ.get(c, ()))


def test_a_group_too_large_to_enumerate_offers_its_prefixes():
    members = list(range(budget_reach._MAX_CLOSURES + 5))
    values = [1] * len(members)
    closures = budget_reach._closures(members, {}, values)
    totals = {sum(values[c] for c in cl) for cl in closures}
    assert totals == set(range(len(members) + 1))


def test_thinning_keeps_the_ends_and_a_bounded_number():
    totals = np.arange(0, 10 * budget_reach._MAX_TOTALS, 3, dtype=np.int64)
    keep = budget_reach._thin(totals)
    assert keep[0] == 0 and keep[-1] == len(totals) - 1
    assert len(keep) <= budget_reach._MAX_TOTALS + 1
    width = (totals[-1] - totals[0]) / budget_reach._MAX_TOTALS
    assert np.diff(totals[keep]).max() <= width + 3


def test_no_budget_decides_as_before():
    """Options() without a budget never builds a frontier: the runtime decision is the
    byte model's min cut."""
    cap = _capture("gpt")
    with warnings.catch_warnings():
        warnings.simplefilter("error", fusioncut.budget.BudgetWarning)
        d = fusioncut.decide(cap.joint_module, num_fwd_outputs=cap.num_fwd_outputs,
                             static_lifetime_input_indices=cap.static_lifetime_input_indices)
    assert d.budget is None
