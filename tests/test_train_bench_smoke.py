"""Smoke test of the training-step benchmark (bench/train/bench_train.py) on CPU.

One tiny workload (x.tanh().tanh(), 4 x 256 floats), eager and one compiled configuration:
fusioncut in runtime mode when its partitioner is importable, torch's default partitioner
otherwise. Gradients must match eager and the JSON must carry the fields the docs and the
plot read.
"""

import importlib
import importlib.util
import json
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

BENCH_DIR = Path(__file__).resolve().parents[1] / "bench" / "train"
ROW_FIELDS = {
    "model", "config", "status", "step_ms", "step_ms_all", "step_cpu_ms", "time_ms", "compile_s",
    "saved_bytes", "saved_count", "saved_act_bytes", "saved_act_count", "peak_bytes", "grad_err",
    "grad_ok", "fallback",
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
    """One run of the CLI: eager plus fusioncut's runtime mode, or plus torch's default
    partitioner when fusioncut's partitioner is not importable (one compile, to stay fast)."""
    out = tmp_path_factory.mktemp("train_bench")
    json_path, png_path = out / "r.json", out / "r.png"
    compiled = "fusioncut_runtime" if bench.fusioncut_unavailable_reason() is None else "torch_default"
    rc = bench.main(
        ["--device", "cpu", "--quick", "--models", "tanh_tanh", "--configs", "eager", compiled,
         "--json", str(json_path), "--plot", str(png_path), "--shared-cache"]
    )
    with open(json_path) as f:
        data = json.load(f)
    return rc, data, png_path, compiled


def _row(data, config):
    return next(r for r in data["results"] if r["config"] == config)


def test_train_bench_compiled_config_matches_eager_and_reports_fields(report):
    rc, data, png, compiled = report
    assert META_FIELDS <= data["meta"].keys()
    for config in ("eager", compiled):
        row = _row(data, config)
        assert row["status"] == "ok", row.get("traceback", row["status"])
        assert ROW_FIELDS <= row.keys()
        assert row["grad_ok"] and row["grad_err"] < 1e-4
        assert row["step_ms"] > 0 and row["step_cpu_ms"] > 0
        # tanh(tanh(x)) cannot be differentiated from nothing: something is saved
        assert row["saved_bytes"] > 0
    assert _row(data, compiled)["compile_s"] > 0
    assert _row(data, "eager")["compile_s"] is None
    if importlib.util.find_spec("matplotlib") is not None:
        assert png.stat().st_size > 0
    assert rc == 0


def test_train_bench_fusioncut_runtime_saves_less_than_eager(report, bench):
    rc, data, _, compiled = report
    reason = bench.fusioncut_unavailable_reason()
    if reason is not None:
        pytest.skip(reason)
    row = _row(data, "fusioncut_runtime")
    assert row["status"] == "ok", row.get("traceback", row["status"])
    assert not row["fallback"], row.get("fallback_reasons")
    # the wrapped partitioner reports what the forward graph saves
    assert row["graph_saved_count"] >= 1 and row["partition_s"] >= 0
    # tanh(tanh(x)): eager saves both tanh outputs; saving x alone is optimal
    assert row["saved_act_bytes"] < _row(data, "eager")["saved_act_bytes"]


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


def test_train_bench_max_batch_search_finds_largest_fitting_batch(bench, monkeypatch):
    monkeypatch.setattr(bench, "_fits", lambda workload, config, opts, batch: batch <= 37)
    opts = bench.RunOptions(
        device=torch.device("cpu"), size="tiny", warmup=0, steps=1, grad_tol=1e-3,
        max_batch=True, max_batch_limit=64, bisect_steps=10,
    )
    # tiny tanh_tanh has batch 4: 4, 8, 16, 32 fit, 64 does not, bisection ends at 37
    assert bench.max_batch(bench.WORKLOADS["tanh_tanh"], "eager", opts) == 37
    opts.max_batch_limit = 4  # stop doubling at 16 without an out-of-memory
    assert bench.max_batch(bench.WORKLOADS["tanh_tanh"], "eager", opts) == 16
