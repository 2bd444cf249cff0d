"""Smoke test of the end-to-end partition benchmark (bench/bench_partition.py) on the seed
patterns: the CLI runs, writes its JSON, and fusioncut saves no more than default_partition."""

import json

import pytest

pytest.importorskip("torch")
fusioncut = pytest.importorskip("fusioncut")

import bench_partition  # noqa: E402  (bench/ is on sys.path: tests/conftest.py)
import partition_models  # noqa: E402


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    path = tmp_path_factory.mktemp("bench") / "partition.json"
    rc = bench_partition.main(["--quick", "--models", *partition_models.SEEDS, "--repeats", "2",
                               "--json", str(path)])
    with open(path) as f:
        return rc, json.load(f)


def test_bench_partition_runs_and_passes_its_checks(report):
    rc, data = report
    assert rc == 0, data["failures"]
    assert data["failures"] == []
    assert data["versions"]["torch"] and data["machine"]["cpu_count"]
    assert len(data["machine"]["loadavg_start"]) == 3


def test_bench_partition_json_has_every_model_and_method(report):
    _, data = report
    assert [m["name"] for m in data["models"]] == partition_models.SEEDS
    for model in data["models"]:
        assert model["num_nodes"] > 0
        assert list(model["methods"]) == list(bench_partition.METHODS)
        for name, cell in model["methods"].items():
            assert cell["status"] == "ok", (model["name"], name, cell["reason"])
            assert len(cell["times_s"]) == 2
            assert cell["min_s"] <= cell["median_s"] <= cell["max_s"]
            for key in ("num_saved", "num_saved_symints", "saved_bytes", "traffic_bytes",
                        "input_bytes"):
                assert isinstance(cell[key], int) and cell[key] >= 0, (name, key)
            assert cell["speedup_vs_torch"] > 0
        assert model["methods"][bench_partition.PEER]["speedup_vs_torch"] == 1.0


def test_bench_partition_fusioncut_saves_no_more_than_default_partition(report):
    _, data = report
    for model in data["models"]:
        methods = model["methods"]
        default = methods[bench_partition.DEFAULT]["saved_bytes"]
        for name in (bench_partition.FC_RUNTIME, bench_partition.FC_MEMORY):
            assert methods[name]["saved_bytes"] <= default, (model["name"], name)
            assert methods[name]["numerics"].startswith("same as default_partition")


def test_bench_partition_reports_a_byte_mismatch():
    def cell(saved_bytes):
        return bench_partition.Cell(times_s=[1.0], saved_bytes=saved_bytes)

    result = bench_partition.ModelResult(
        "fake", "", 1, 1, 0, 0.0,
        {bench_partition.FC_RUNTIME: cell(200), bench_partition.TORCH_MINCUT: cell(100),
         bench_partition.DEFAULT: cell(300)})
    failures, _, _ = bench_partition.check([result])
    assert len(failures) == 1 and failures[0].startswith("MISMATCH fake: fusioncut runtime")
