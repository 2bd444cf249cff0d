"""Hostile command lines: ``python -m fusioncut`` in a subprocess, as a user runs it.

Every refusal is one line on stderr naming the argument, with exit status 2 for a bad argument
and 1 for a model that fails; no Python or PyTorch traceback unless ``--traceback`` or
``FUSIONCUT_LOG=debug``. Arguments are checked before the work: an unusable output path or a
demo larger than memory is refused before torch is imported (``-X importtime`` shows what was
imported) and before the user's module is imported (it leaves a marker file when it is).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning")

MODELS = textwrap.dedent("""
    import pathlib
    import torch
    from torch import nn

    pathlib.Path(__file__).with_name("imported.marker").write_text("imported")

    def make_model():
        return nn.Sequential(nn.Linear(8, 32), nn.GELU(), nn.Linear(32, 8))

    def make_fn():
        def f(x, y):
            return (torch.tanh(x @ y) * torch.sigmoid(x)).sum()
        return f

    def broken():
        raise RuntimeError("model construction failed\\nsecond line")

    def returns_a_number():
        return 3

    NOT_CALLABLE = 3
""")


@dataclass
class Run:
    rc: int
    out: str
    err: str  # stderr without -X importtime's lines
    imported: set  # modules imported, from -X importtime
    seconds: float
    max_rss: int  # bytes, the CLI process's peak resident set


@pytest.fixture
def user_dir(tmp_path):
    (tmp_path / "hostile_cli_models.py").write_text(MODELS)
    return tmp_path


def run(cwd, *argv, env=None, timeout=300) -> Run:
    """``python -X importtime -m fusioncut *argv`` in ``cwd``, inside a wrapper that reports
    the child's peak RSS (RUSAGE_CHILDREN of a process with one child)."""
    wrapper = ("import json, resource, subprocess, sys, time\n"
               "t = time.perf_counter()\n"
               "p = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
               "print(json.dumps({'rc': p.returncode, 'out': p.stdout, 'err': p.stderr, "
               "'s': time.perf_counter() - t, "
               "'rss': resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024}))\n")
    full_env = dict(os.environ)
    full_env.pop("FUSIONCUT_LOG", None)
    full_env.update(env or {})
    proc = subprocess.run([sys.executable, "-c", wrapper, sys.executable, "-X", "importtime",
                           "-m", "fusioncut", *argv], cwd=cwd, env=full_env,
                          capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, proc.stderr
    r = json.loads(proc.stdout)
    lines = r["err"].splitlines()
    imported = {ln.rsplit("|", 1)[1].strip() for ln in lines if ln.startswith("import time:")}
    err = "\n".join(ln for ln in lines if not ln.startswith("import time:"))
    return Run(r["rc"], r["out"], err, imported, r["s"], r["rss"])


def assert_one_line(r: Run, rc: int, *needles: str) -> str:
    assert r.rc == rc, (r.rc, r.err)
    err = r.err.strip()
    assert len(err.splitlines()) == 1, err
    assert "Traceback" not in err
    for needle in needles:
        assert needle in err, (needle, err)
    return err


def assert_refused_before_the_work(r: Run, user_dir) -> None:
    """Neither torch nor the user's module was imported."""
    assert "torch" not in r.imported, "torch was imported before the refusal"
    assert not (user_dir / "imported.marker").exists(), "the user's module was imported"


# --- targets -------------------------------------------------------------------------------------


@pytest.mark.parametrize("target,rc,needle", [
    ("no_such_module_xyz:make", 2, "cannot import 'no_such_module_xyz'"),
    ("hostile_cli_models", 2, "target 'hostile_cli_models': expected module:callable"),
    (":make_model", 2, "expected module:callable"),
    ("hostile_cli_models:", 2, "expected module:callable"),
    ("hostile_cli_models:nope", 2, "has no attribute 'nope'"),
    ("hostile_cli_models:NOT_CALLABLE", 2, "is a int, not a callable"),
    ("hostile_cli_models:returns_a_number", 2, "returned a int; expected an nn.Module or a "
                                               "function"),
    ("hostile_cli_models:broken", 1, "hostile_cli_models:broken() raised RuntimeError: model "
                                     "construction failed"),
])
def test_bad_targets_are_one_line(user_dir, target, rc, needle):
    r = run(user_dir, "explain", target, "--input", "4x8")
    assert_one_line(r, rc, "python -m fusioncut explain: error:", needle)


@pytest.mark.parametrize("argv,needle", [
    (["--peak", "12XB"], "argument --peak: '12XB' is not a number of bytes in [0, 2**62]"),
    (["--peak=-4KiB"], "argument --peak: '-4KiB' is out of range"),
    (["--peak", "nan"], "argument --peak: 'nan' is not a number of bytes"),
    (["--peak", "1e30"], "argument --peak: '1e30' is out of range"),
    (["--peak", "1MiB", "--budget", "0.5"], "argument --budget: not allowed with argument --peak"),
])
def test_bad_peak_targets_are_refused_before_the_work(user_dir, argv, needle):
    r = run(user_dir, "explain", "hostile_cli_models:make_model", "--input", "4x8", *argv)
    assert_one_line(r, 2, "python -m fusioncut explain: error:", needle)
    assert_refused_before_the_work(r, user_dir)


# --- inputs --------------------------------------------------------------------------------------


@pytest.mark.parametrize("spec,needle", [
    ("4xq", "--input '4xq': expected a shape like 8x128"),
    ("x8", "--input 'x8': expected a shape like 8x128"),
    ("", "--input '': expected a shape"),
    ("-1x8", "--input '-1x8': expected a shape"),
    ("4x8:float99", "--input '4x8:float99': unknown dtype 'float99'"),
    ("4x8:Tensor", "--input '4x8:Tensor': unknown dtype 'Tensor'"),
    ("4x8:float32:x", "unknown dtype 'float32:x'"),
])
def test_bad_input_specs_fail_before_the_model_is_imported(user_dir, spec, needle):
    r = run(user_dir, "explain", "hostile_cli_models:make_model", f"--input={spec}")
    assert_one_line(r, 2, needle)
    assert not (user_dir / "imported.marker").exists()
    if ":" not in spec:  # a malformed shape needs no torch to be refused
        assert "torch" not in r.imported


def test_inputs_larger_than_memory_are_refused(user_dir):
    r = run(user_dir, "explain", "hostile_cli_models:make_fn", "--input", "999999999x999999999",
            "--input", "4x8")
    assert_one_line(r, 2, "--input 999999999x999999999 4x8: the inputs alone need",
                    "GiB available")
    assert not (user_dir / "imported.marker").exists()
    assert r.max_rss < 1 << 30


def test_shape_mismatch_is_one_line_without_pytorch_traceback(user_dir):
    r = run(user_dir, "explain", "hostile_cli_models:make_model", "--input", "4x7",
            "--no-compare")
    err = assert_one_line(r, 1, "tracing/partitioning hostile_cli_models:make_model raised "
                                "RuntimeError", "(4x7 and 8x32)")
    assert "fake_tensor.py" not in err


def test_pytorch_traceback_only_under_fusioncut_log_debug(user_dir):
    r = run(user_dir, "explain", "hostile_cli_models:make_model", "--input", "4x7",
            "--no-compare", env={"FUSIONCUT_LOG": "debug"})
    assert r.rc == 1
    assert "Traceback" in r.err  # PyTorch's logged traceback, kept for debugging
    assert r.err.strip().splitlines()[-1].startswith("python -m fusioncut explain: error: "
                                                     "tracing/partitioning")


# --- outputs -------------------------------------------------------------------------------------


@pytest.mark.parametrize("flag", ["--svg", "--png", "--json"])
def test_output_directory_is_refused_before_torch_and_the_model(user_dir, flag):
    r = run(user_dir, "explain", "hostile_cli_models:make_model", "--input", "4x8", flag,
            str(user_dir))
    assert_one_line(r, 2, f"{flag} {user_dir}: is a directory; name a file")
    assert_refused_before_the_work(r, user_dir)


def test_calibrate_output_errors_name_out_before_timing(user_dir):
    r = run(user_dir, "calibrate", "--out", str(user_dir))
    assert_one_line(r, 2, f"--out {user_dir}: is a directory; name a file")
    assert "torch" not in r.imported
    r = run(user_dir, "calibrate", "--out", "no/such/dir/device.json")
    assert_one_line(r, 2, "--out no/such/dir/device.json: directory 'no/such/dir' does not exist")


@pytest.mark.parametrize("path,needle", [
    ("", "--json '': empty path; name a file"),
    ("no/such/dir/out.json", "directory 'no/such/dir' does not exist"),
    ("hostile_cli_models.py/out.json", "directory 'hostile_cli_models.py' does not exist"),
])
def test_unusable_output_paths_are_refused_before_the_work(user_dir, path, needle):
    r = run(user_dir, "explain", "hostile_cli_models:make_model", "--input", "4x8", "--json",
            path)
    assert_one_line(r, 2, needle)
    assert_refused_before_the_work(r, user_dir)


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux /proc")
def test_non_writable_output_path_is_refused_even_for_root(user_dir):
    """os.access says yes to root on /proc; the CLI probes by opening the file."""
    for path in ("/proc/fusioncut-test.json", "/proc/version"):
        r = run(user_dir, "explain", "hostile_cli_models:make_model", "--input", "4x8",
                "--json", path)
        assert_one_line(r, 2, f"--json {path}: not writable")
        assert_refused_before_the_work(r, user_dir)


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0,
                    reason="root writes into read-only directories")
def test_read_only_directory_is_refused(user_dir):
    ro = user_dir / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        r = run(user_dir, "demo", "--layers", "1", "--svg", str(ro / "cut.svg"))
        assert_one_line(r, 2, "not writable")
        assert "torch" not in r.imported
    finally:
        ro.chmod(0o755)


def test_an_existing_output_file_is_not_truncated_by_the_check(user_dir):
    target = user_dir / "keep.json"
    target.write_text("keep me")
    r = run(user_dir, "explain", "hostile_cli_models:make_model", "--input", "4x8", "--json",
            str(target), "--png", str(user_dir))
    assert_one_line(r, 2, "is a directory")
    assert target.read_text() == "keep me"


# --- demo sizes ----------------------------------------------------------------------------------


@pytest.mark.parametrize("argv,needle", [
    (["--layers", "100000000"], "--layers 100000000 --d-model 64 --seq 64 --batch 4: tracing "
                                "and partitioning would need about"),
    (["--layers", "1000000", "--d-model", "1000000", "--seq", "1000000"], "would need about"),
    (["--d-model", "6"], "--d-model 6: must be a multiple of 4 (the heads)"),
])
def test_demo_larger_than_memory_is_refused_quickly_in_bounded_memory(tmp_path, argv, needle):
    r = run(tmp_path, "demo", *argv)
    assert_one_line(r, 2, "python -m fusioncut demo: error:", needle)
    assert "torch" not in r.imported
    assert r.max_rss < 200 << 20, r.max_rss


@pytest.mark.parametrize("argv,needle", [
    (["demo", "--layers", "99999999999999999999"],
     "argument --layers: 99999999999999999999 is out of range [1, 1099511627776]"),
    (["demo", "--batch", "0"], "argument --batch: 0 is out of range [1, 1099511627776]"),
    (["demo", "--seq", "x"], "argument --seq: 'x' is not an integer"),
    (["explain", "m:f", "--seed", "-1"], "argument --seed: -1 is out of range [0, "
                                         "9223372036854775807]"),
    (["explain", "m:f", "--int-high", str(2**63)], "argument --int-high: "
                                                   "9223372036854775808 is out of range"),
    (["explain", "m:f", "--rows", "-3"], "argument --rows: -3 is out of range >= 0"),
    (["demo", "--mode", "fast"], "argument --mode: invalid choice: 'fast'"),
    (["frobnicate"], "argument COMMAND: invalid choice: 'frobnicate'"),
])
def test_argument_errors_name_the_argument_and_range(tmp_path, argv, needle):
    t0 = time.perf_counter()
    r = run(tmp_path, *argv)
    assert_one_line(r, 2, needle)
    assert "torch" not in r.imported
    assert time.perf_counter() - t0 < 60
