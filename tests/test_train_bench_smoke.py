"""Smoke test of the training-step benchmark (bench/train/bench_train.py) on CPU.

One tiny workload (x.tanh().tanh(), 4 x 256 floats) under eager, torch's default_partition
and one more compiled configuration (fusioncut in runtime mode when its partitioner is
importable, torch's default otherwise), timed interleaved. Gradients must pass the float64
check, every configuration must keep its own compiled graph (default_partition saves what
eager saves, fusioncut less), and the JSON must carry the fields the docs and the plot read.
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
    "model", "config", "status", "step_ms", "step_ms_q1", "step_ms_q3", "step_ms_all",
    "step_cpu_ms", "time_ms", "time_kind", "time_iqr_ms", "time_ci_ms", "steps", "compile_s",
    "saved_bytes", "saved_count", "saved_act_bytes", "saved_act_count", "peak_bytes",
    "grad_err", "grad_eager_err", "grad_tol", "grad_tol_from", "grad_verdict", "grad_ok",
    "grad_check", "fallback",
    "step_vs_default", "step_vs_default_ci", "within_noise", "dynamo_graphs",
}
META_FIELDS = {"date_utc", "device", "device_name", "torch", "triton", "cuda", "driver",
               "cpu_model", "torch_threads", "size", "min_steps", "max_steps", "grad_k",
               "grad_k_compiled", "grad_floor", "caches", "fusioncut_unavailable", "configs"}


@pytest.fixture(scope="module")
def bench():
    return importlib.import_module("bench_train")  # bench/train is on sys.path (conftest.py)


@pytest.fixture(scope="module")
def report(bench, tmp_path_factory):
    out = tmp_path_factory.mktemp("train_bench")
    json_path, png_path = out / "r.json", out / "r.png"
    configs = importlib.import_module("configs")
    compiled = ("fusioncut_runtime" if configs.fusioncut_unavailable_reason() is None
                else "torch_default")
    rc = bench.main(
        ["--device", "cpu", "--quick", "--models", "tanh_tanh", "--configs", "eager",
         "default_partition", compiled, "--json", str(json_path), "--plot", str(png_path),
         "--shared-cache"]
    )
    with open(json_path) as f:
        data = json.load(f)
    return rc, data, out, compiled


def _row(data, config):
    return next(r for r in data["results"] if r["config"] == config)


def test_train_bench_configs_pass_the_float64_check_and_report_fields(report):
    rc, data, out, compiled = report
    assert META_FIELDS <= data["meta"].keys()
    for config in ("eager", "default_partition", compiled):
        row = _row(data, config)
        assert row["status"] == "ok", row.get("traceback", row["status"])
        assert ROW_FIELDS - {"step_vs_default", "step_vs_default_ci", "within_noise"} <= row.keys()
        assert row["grad_verdict"] == "ok" and row["grad_check"] == "float64 eager"
        assert row["grad_err"] <= row["grad_tol"] == max(10 * row["grad_eager_err"], 1e-5)
        assert row["grad_tol_from"] in ("eager", "floor")  # torch_default did not run
        assert row["steps"] == 3 and len(row["step_ms_all"]) == 3 and row["step_cpu_ms"] > 0
        assert row["saved_bytes"] > 0  # tanh(tanh(x)) cannot be differentiated from nothing
    for config in ("default_partition", compiled):
        assert _row(data, config)["compile_s"] > 0 and _row(data, config)["dynamo_graphs"] == 1
    assert _row(data, "eager")["compile_s"] is None
    if importlib.util.find_spec("matplotlib") is not None:
        assert (out / "r.png").stat().st_size > 0
    assert rc == 0


def test_train_bench_configurations_keep_their_own_graphs(report):
    """default_partition saves what eager saves (both tanh outputs); fusioncut saves x alone.
    Timed interleaved in one process, neither may run the other's compiled graph."""
    _, data, _, compiled = report
    eager, default = _row(data, "eager"), _row(data, "default_partition")
    assert default["saved_act_bytes"] == eager["saved_act_bytes"] > 0
    assert default["graph_saved_count"] == 2
    if compiled == "fusioncut_runtime":
        row = _row(data, compiled)
        assert not row["fallback"], row.get("fallback_reasons")
        assert row["graph_saved_count"] >= 1 and row["partition_s"] >= 0
        assert row["saved_act_bytes"] < eager["saved_act_bytes"]


def test_train_bench_rerenders_from_json(report, bench, capsys):
    _, _, out, compiled = report
    table = out / "again.md"
    assert bench.main(["--from-json", str(out / "r.json"), "--table", str(table)]) == 0
    text = table.read_text()
    assert "| tanh_tanh | default_partition |" in text and compiled in text


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
    cal = importlib.import_module("calibrate_triton")
    series = [(1, 1.0), (8, 1.02), (32, 1.08), (64, 1.3), (128, 1.05)]
    assert cal.k_free(series, 0.10) == 32
    t0, bw, worst = cal.fit_bandwidth([(b, 0.01 + b / 2e9) for b in (1e8, 2e8, 4e8, 8e8)])
    assert abs(bw - 2e9) / 2e9 < 1e-6 and worst < 1e-9
