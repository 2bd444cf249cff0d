"""Smoke test of the training-step benchmark (bench/train/bench_train.py) on CPU.

One tiny workload (x.tanh().tanh(), 4 x 256 floats) through torch's default partitioner and,
when the partitioner has landed, fusioncut in runtime mode; every configuration's gradients
must match eager and the JSON must carry the fields the docs and the plot read.
"""

import importlib
import json
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

BENCH_DIR = Path(__file__).resolve().parents[1] / "bench" / "train"
ROW_FIELDS = {
    "model", "config", "status", "step_ms", "step_ms_all", "step_cpu_ms", "time_ms", "compile_s", "saved_bytes", "saved_count",
    "saved_act_bytes", "saved_act_count", "peak_bytes", "grad_err", "grad_ok", "step_vs_default",
    "saved_act_vs_default",
}
META_FIELDS = {"date_utc", "device", "device_name", "torch", "size", "steps", "caches", "fusioncut_unavailable"}


@pytest.fixture(scope="module")
def bench():
    sys.path.insert(0, str(BENCH_DIR))
    try:
        yield importlib.import_module("bench_train")
    finally:
        sys.path.remove(str(BENCH_DIR))


@pytest.fixture(scope="module")
def report(bench, tmp_path_factory):
    out = tmp_path_factory.mktemp("train_bench")
    json_path, png_path = out / "r.json", out / "r.png"
    configs = ["torch_default", "fusioncut_runtime"]
    rc = bench.main(
        ["--device", "cpu", "--quick", "--models", "tanh_tanh", "--configs", *configs,
         "--json", str(json_path), "--plot", str(png_path)]
    )
    with open(json_path) as f:
        data = json.load(f)
    return rc, data, png_path


def _row(data, config):
    return next(r for r in data["results"] if r["config"] == config)


def test_train_bench_torch_default_matches_eager_and_reports_fields(report):
    rc, data, png = report
    assert META_FIELDS <= data["meta"].keys()
    row = _row(data, "torch_default")
    assert row["status"] == "ok", row.get("traceback", row["status"])
    assert ROW_FIELDS <= row.keys()
    assert row["grad_ok"] and row["grad_err"] < 1e-4
    assert row["step_ms"] > 0 and row["compile_s"] > 0
    # tanh(tanh(x)) cannot be differentiated from nothing: something is saved
    assert row["saved_bytes"] > 0
    assert row["step_vs_default"] == 1.0
    assert png.stat().st_size > 0
    assert rc == 0


def test_train_bench_fusioncut_runtime_matches_eager(report, bench):
    rc, data, _ = report
    reason = bench.fusioncut_unavailable_reason()
    row = _row(data, "fusioncut_runtime")
    if reason is not None:
        assert row["status"].startswith("skipped")
        pytest.skip(reason)
    assert row["status"] == "ok", row.get("traceback", row["status"])
    assert ROW_FIELDS <= row.keys()
    assert row["grad_ok"] and row["grad_err"] < 1e-4
    # the wrapped partitioner reports what the forward graph saves
    assert row["graph_saved_count"] >= 1 and row["partition_s"] >= 0
    # tanh(tanh(x)): saving x alone is optimal; fusioncut must not save more than torch does
    assert row["saved_act_bytes"] <= _row(data, "torch_default")["saved_act_bytes"]


def test_calibrate_triton_exits_clearly_without_cuda():
    import subprocess

    if torch.cuda.is_available():
        pytest.skip("CUDA present: the calibration would run for real")
    proc = subprocess.run(
        [sys.executable, str(BENCH_DIR / "calibrate_triton.py"), "--quick"],
        capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 2
    assert "needs a CUDA GPU and Triton" in proc.stderr


def test_calibrate_k_free_is_last_k_within_tolerance():
    sys.path.insert(0, str(BENCH_DIR))
    try:
        cal = importlib.import_module("calibrate_triton")
    finally:
        sys.path.remove(str(BENCH_DIR))
    series = [(1, 1.0), (8, 1.02), (32, 1.08), (64, 1.3), (128, 1.05)]
    assert cal.k_free(series, 0.10) == 32
    t0, bw, worst = cal.fit_bandwidth([(b, 0.01 + b / 2e9) for b in (1e8, 2e8, 4e8, 8e8)])
    assert abs(bw - 2e9) / 2e9 < 1e-6 and worst < 1e-9
