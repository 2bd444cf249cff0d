"""Smoke test of bench/option_sweep.py: one small transformers model (GPT-BigCode, multi-query
attention) through ``torch.compile`` under all eight option sets, and the JSON it writes."""

import json
import os

import pytest

if os.environ.get("CI"):
    import transformers  # noqa: F401  (the test extra installs it: CI must not skip this)
else:
    pytest.importorskip("transformers")

import option_sweep  # noqa: E402  (bench/ is on sys.path: tests/conftest.py)


def test_option_sweep_runs_every_option_set_with_gradients_equal_eager(tmp_path, capsys):
    path = tmp_path / "sweep.json"
    assert option_sweep.main(["--models", "hf-gptbigcode", "--json", str(path)]) == 0
    rows = json.loads(path.read_text())["results"]
    assert [r["options"] for r in rows] == [
        "runtime", "memory", "budget 0", "budget 0.4", "budget bytes", "peak target",
        "offload, budget 0.3", "offload, peak target"]
    assert all(r["status"] == "ok" and r["loss_matches"] for r in rows), rows
    assert all(r["worst_grad"] <= option_sweep.GRAD_TOL for r in rows)
    by = {r["options"]: r for r in rows}
    # budget 0 recomputes at least what the runtime plan does; the link offloads something
    assert by["budget 0"]["recomputed"] >= by["runtime"]["recomputed"]
    assert by["offload, budget 0.3"]["offloaded"] > 0
    assert "8 of 8 (model, options) pairs ok" in capsys.readouterr().out
