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

import _knapsack_reference
import fusioncut
from fusioncut import _core, budget_reach
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


def _random_dag(seed, k=None, p=0.3):
    """A DAG over k components whose arcs fall (tail > head), and byte values."""
    rng = random.Random(seed)
    k = rng.randint(1, 9) if k is None else k
    arcs = [(t, h) for t in range(k) for h in range(t) if rng.random() < p]
    values = [rng.randint(-5, 20) for _ in range(k)]
    tail = np.array([t for t, _ in arcs], dtype=np.int64)
    head = np.array([h for _, h in arcs], dtype=np.int64)
    return np.array(values, dtype=np.int64), tail, head


def _brute_totals(values, tail, head):
    """Every closure's byte total (a closure takes the head of each arc whose tail it takes)."""
    totals = set()
    for bits in itertools.product((0, 1), repeat=len(values)):
        if all(bits[h] for t, h in zip(tail.tolist(), head.tolist()) if bits[t]):
            totals.add(sum(v for v, b in zip(values.tolist(), bits) if b))
    return totals


@pytest.mark.parametrize("seed", range(20))
def test_the_programme_reaches_every_closure_total(seed):
    values, tail, head = _random_dag(seed)
    totals, options, parents, picks = _core.gap_knapsack(values, tail, head, 512, 4096)
    assert set(totals.tolist()) == _brute_totals(values, tail, head)
    arcs = list(zip(tail.tolist(), head.tolist()))
    for group in options:
        for closure in group:
            assert all(h in closure for t, h in arcs if t in closure)


@pytest.mark.parametrize("seed", range(40))
def test_the_cpp_programme_is_the_numpy_one(seed):
    """Totals, closures and steps to the index, through the closure cap's prefixes and the
    totals' thinning (small caps) and without them."""
    rng = random.Random(seed)
    values, tail, head = _random_dag(seed, k=rng.randint(1, 40), p=rng.choice([0.02, 0.1, 0.3]))
    caps = [(512, 4096), (rng.randint(1, 6), rng.randint(1, 12))]
    for max_closures, max_totals in caps:
        got = _core.gap_knapsack(values, tail, head, max_closures, max_totals)
        want = _knapsack_reference.gap_knapsack(values, tail, head, max_closures, max_totals)
        assert np.array_equal(got[0], want[0])
        assert got[1] == want[1]
        for a, b in zip(got[2] + got[3], want[2] + want[3]):
            assert np.array_equal(a, b)


def test_a_group_too_large_to_enumerate_offers_its_prefixes():
    k = 12
    tail = np.arange(1, k, dtype=np.int64)  # every component needs component 0: one group
    head = np.zeros(k - 1, dtype=np.int64)
    totals, options, _, _ = _core.gap_knapsack(np.ones(k, dtype=np.int64), tail, head, 8, 4096)
    assert options == [[list(range(j)) for j in range(k + 1)]]
    assert totals.tolist() == list(range(k + 1))


def test_thinning_keeps_the_ends_and_a_bounded_number():
    values = np.array([3 * 2 ** j for j in range(14)], dtype=np.int64)  # 16384 totals
    cap = 256
    totals, _, _, _ = _core.gap_knapsack(values, np.zeros(0, np.int64), np.zeros(0, np.int64),
                                         512, cap)
    assert totals[0] == 0 and totals[-1] == values.sum()
    assert len(totals) <= cap + 1


@pytest.mark.parametrize("args,match", [
    ((np.ones(3, np.int64), np.array([1], np.int64), np.array([3], np.int64), 8, 8),
     r"arc 0 \(1 -> 3\) has an end outside \[0, 3\)"),
    ((np.ones(3, np.int64), np.array([1, 2], np.int64), np.array([0], np.int64), 8, 8),
     r"tail has 2 arcs, head 1"),
    ((np.ones(3, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64), 0, 8),
     r"max_closures = 0 and max_totals = 8 must both be at least 1"),
])
def test_the_programme_rejects_what_it_cannot_read(args, match):
    with pytest.raises(ValueError, match=match):
        _core.gap_knapsack(*args)


def test_every_gap_of_the_zoo_is_programmed_as_before(monkeypatch):
    """The C++ programme on the gaps a frontier and a byte budget build (LSTM chain, GPT
    layer, offloading GPT): the numpy programme's answer, gap by gap."""
    calls = []
    native = _core.gap_knapsack

    def both(*args):
        got = native(*args)
        want = _knapsack_reference.gap_knapsack(*args)
        assert np.array_equal(got[0], want[0]) and got[1] == want[1]
        assert all(np.array_equal(a, b) for a, b in zip(got[2] + got[3], want[2] + want[3]))
        calls.append(len(got[1]))
        return got

    monkeypatch.setattr(budget_reach._core, "gap_knapsack", both)
    cap = _capture("gpt")
    offloading = fusioncut.pareto(
        cap.joint_module, num_fwd_outputs=cap.num_fwd_outputs,
        static_lifetime_input_indices=cap.static_lifetime_input_indices,
        options=Options(device="h100", offload="auto"))
    for front in (_front.__wrapped__("lstm"), _front.__wrapped__("gpt"), offloading):
        for f in (0.2, 0.5, 0.8):
            front.for_bytes(int(front.least.saved_bytes
                                + f * (front.runtime.saved_bytes - front.least.saved_bytes)))
    assert len(calls) > 10 and max(calls) > 1


def test_no_budget_decides_as_before():
    """Options() without a budget never builds a frontier: the runtime decision is the
    byte model's min cut."""
    cap = _capture("gpt")
    with warnings.catch_warnings():
        warnings.simplefilter("error", fusioncut.budget.BudgetWarning)
        d = fusioncut.decide(cap.joint_module, num_fwd_outputs=cap.num_fwd_outputs,
                             static_lifetime_input_indices=cap.static_lifetime_input_indices)
    assert d.budget is None
