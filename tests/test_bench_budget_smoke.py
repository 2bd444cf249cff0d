"""Smoke test of bench/bench_budget.py on one small model: the budget, byte-budget and offload
columns run end to end, and the JSON holds every figure and target line the docs quote (the
figures are timings: only their presence and sign are checked here)."""

import json

import bench_budget  # noqa: E402  (bench/ is on sys.path: tests/conftest.py)


def test_quick_run_times_every_kind_of_budget_and_names_every_target(tmp_path):
    path = tmp_path / "budget.json"
    bench_budget.main(["--quick", "--models", "resnet", "--step-models", "--offload-models",
                       "resnet", "--json", str(path)])
    out = json.loads(path.read_text())
    model = out["models"][0]
    assert set(model["byte_budget_partition_s"]) == {f"{f:g}" for f in bench_budget.BYTE_FRACTIONS}
    assert min(model["byte_budget_partition_s"].values()) > 0
    assert model["byte_budget_over_runtime_max"] >= model["byte_budget_over_runtime_median"] > 0
    offload = out["offload"][0]
    for kind in ("peak_target", "byte_budget"):
        assert len(offload[f"{kind}_partition_s"]) == 4
        assert min(offload[f"{kind}_partition_s"].values()) > 0
    assert set(out["targets"]) >= {
        "peak_monotone_everywhere", "budgeted_partition_at_most_3x_runtime",
        "byte_budget_partition_at_most_3x_runtime", "offload_partition_at_most_3x_runtime",
        "offload_peak_target_partition_at_most_3x_runtime",
        "offload_byte_budget_partition_at_most_3x_runtime"}
    assert out["targets"]["peak_monotone_everywhere"]


def test_brackets_run_both_ways_and_restore_the_solver(tmp_path):
    import bench_brackets

    from fusioncut import _solver, budget_plans

    before = (_solver.NodeCutGraph.solve_int64, _solver.NodeCutGraph._solve_between,
              budget_plans.BudgetNetwork.nested)
    path = tmp_path / "brackets.json"
    assert bench_brackets.main(["--quick", "--models", "resnet", "--repeats", "1", "--json",
                                str(path)]) == 0
    rows = json.loads(path.read_text())["results"][0]["rows"]
    assert len(rows) == 1 + 2 * len(bench_brackets.FRACTIONS)
    assert all(r["same_plan"] for r in rows)
    assert sum(r["with"]["solves"] for r in rows) > 0
    assert (_solver.NodeCutGraph.solve_int64, _solver.NodeCutGraph._solve_between,
            budget_plans.BudgetNetwork.nested) == before
