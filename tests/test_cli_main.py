"""python -m fusioncut: exit codes, one-line errors, output files, the demo's comparison."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from fusioncut.cli import main, parse_input_spec

pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning")

MODELS = textwrap.dedent("""
    import torch
    from torch import nn

    def make_model():
        return nn.Sequential(nn.Embedding(16, 8), nn.Linear(8, 32), nn.GELU(), nn.Linear(32, 8))

    def make_fn():
        def f(x, y):
            return (torch.tanh(x @ y) * torch.sigmoid(x)).sum()
        return f

    def broken():
        raise RuntimeError("model construction failed\\nsecond line")

    NOT_CALLABLE = 3
""")


@pytest.fixture
def user_pkg(tmp_path, monkeypatch):
    (tmp_path / "cli_user_models.py").write_text(MODELS)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    sys.modules.pop("cli_user_models", None)


def _one_line_error(capsys, rc, expected_rc, needle):
    out = capsys.readouterr()
    assert rc == expected_rc
    err = out.err.strip()
    assert len(err.splitlines()) == 1, err
    assert "Traceback" not in err and needle in err
    return err


def test_cli_help_reads_and_exits_zero():
    env = dict(os.environ)
    env.pop("FUSIONCUT_LOG", None)
    proc = subprocess.run([sys.executable, "-m", "fusioncut", "--help"], capture_output=True,
                          text=True, env=env, timeout=120)
    assert proc.returncode == 0
    for word in ("demo", "explain", "bench", "examples:", "FUSIONCUT_LOG"):
        assert word in proc.stdout


def test_cli_unimportable_module_is_one_line_exit_2(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rc = main(["explain", "no_such_module_xyz:make", "--input", "4x8"])
    _one_line_error(capsys, rc, 2, "cannot import 'no_such_module_xyz'")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("argv,needle", [
    (["explain", "cli_user_models:make_model", "--input", "4xq"], "--input '4xq'"),
    (["explain", "cli_user_models:make_model", "--input", "4x8:float99"], "unknown dtype"),
    (["explain", "cli_user_models:nope", "--input", "4"], "has no attribute 'nope'"),
    (["explain", "cli_user_models:NOT_CALLABLE"], "not a callable"),
    (["explain", "cli_user_models", "--input", "4"], "expected module:callable"),
    (["explain", "cli_user_models:make_model", "--input", "4", "--svg", "no/dir/x.svg"],
     "does not exist"),
])
def test_cli_bad_arguments_are_one_line_exit_2(user_pkg, capsys, argv, needle):
    _one_line_error(capsys, main(argv), 2, needle)


def test_cli_user_code_raising_is_one_line_exit_1(user_pkg, capsys):
    err = _one_line_error(capsys, main(["explain", "cli_user_models:broken", "--input", "4"]),
                          1, "RuntimeError: model construction failed")
    assert "second line" not in err


def test_cli_argparse_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as info:
        main(["demo", "--layers", "zero"])
    assert info.value.code == 2
    assert "--layers" in capsys.readouterr().err


def test_cli_explain_module_writes_requested_files(user_pkg, capsys):
    rc = main(["explain", "cli_user_models:make_model", "--input", "4x6:int64",
               "--svg", "cut.svg", "--png", "bytes.png", "--json", "report.json"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "Saved for backward" in out and "torch min-cut" in out
    files = {p.name: p.stat().st_size for p in user_pkg.iterdir() if p.suffix != ".py"}
    assert set(files) >= {"cut.svg", "bytes.png", "report.json"}
    assert files["cut.svg"] > 2_000 and files["bytes.png"] > 10_000
    data = json.loads((user_pkg / "report.json").read_text())
    assert any(v["fate"] == "saved" for v in data["values"]) and len(data["methods"]) == 3


def test_cli_explain_function_writes_nothing_unless_asked(user_pkg, capsys):
    before = sorted(p.name for p in user_pkg.iterdir())
    rc = main(["explain", "cli_user_models:make_fn", "--input", "4x8", "--input", "8x8",
               "--no-compare", "--rows", "0"])
    out = capsys.readouterr().out
    assert rc == 0 and "Saved for backward" in out and "torch min-cut" not in out
    assert sorted(p.name for p in user_pkg.iterdir() if p.name != "__pycache__") == \
        [b for b in before if b != "__pycache__"]


def test_cli_demo_prints_the_three_way_comparison(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rc = main(["demo", "--layers", "1", "--d-model", "32", "--seq", "16"])
    out = capsys.readouterr().out
    assert rc == 0
    rows = {line.split()[0]: line for line in out.splitlines()
            if line.strip().startswith(("fusioncut ", "torch ", "default_partition"))}
    assert {"fusioncut", "torch", "default_partition"} <= set(rows), out
    assert "partition time" in out and "activations" in out and "traffic" in out
    assert list(tmp_path.iterdir()) == []


def test_cli_parse_input_spec():
    import torch

    assert parse_input_spec("8x128") == ((8, 128), torch.float32)
    assert parse_input_spec("2x3x4:bfloat16") == ((2, 3, 4), torch.bfloat16)
    assert parse_input_spec("16:bool") == ((16,), torch.bool)


def test_cli_bench_says_what_it_runs(capsys):
    assert main(["bench"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("fusioncut bench: fusioncut.min_node_cut on built-in layered graphs")
    assert "100000" in out
    assert main(["bench", "--full"]) == 2
    assert "--full" in capsys.readouterr().err
