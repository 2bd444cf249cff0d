"""Hostile numbers, device profiles and output paths: a ValueError (or, on the command line, one
line and exit status 2) naming the field, the profile or the flag, never a crash, a hang, an
OverflowError from ``float()`` or a file written where none was asked for.

The surfaces: ``Options``' memory targets, ``Device``'s fields, ``Device.load`` /
``Options(device=path)`` / ``pareto --device``, and the command line's ``--png``, ``--json``,
``--svg`` and ``--out``. Command-line cases run ``fusioncut.cli.main`` in this process
(subprocesses only where a regression would hang or exhaust memory).
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import io
import json
import math
import os
import subprocess
import sys
import threading
import warnings

import numpy as np
import pytest
import torch

import fusioncut
from fusioncut import Options
from fusioncut.cli import main
from fusioncut.cli_args import CliError, write_output
from fusioncut.device import FIELD_BOUNDS, PRESETS, Device

from models import capture_joint

pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning")

HUGE = 10**5000  # repr() of it raises: Python's 4,300-digit limit


def values(*vals):
    """Parameters with ids pytest can print (it would repr 10**5000)."""
    def name(v):
        if isinstance(v, int) and not isinstance(v, bool) and abs(v) > 2**64:
            return f"int{'-' if v < 0 else ''}{abs(v).bit_length()}bits"
        return f"{type(v).__name__}-{v!r}"
    return [pytest.param(v, id=name(v)) for v in vals]


@pytest.fixture(scope="module")
def joint():
    x, w = torch.randn(4, 8, requires_grad=True), torch.randn(8, 8, requires_grad=True)
    return capture_joint(lambda x, w: (torch.relu(x @ w) * 2).sum(), x, w)


def works(joint, options: Options) -> None:
    """An accepted Options decides, hashes and partitions."""
    fusioncut.InductorPartitioner(options).uuid()
    fusioncut.partition(copy.deepcopy(joint.joint_module), None,
                        num_fwd_outputs=joint.num_fwd_outputs, options=options)
    fusioncut.plan(joint.joint_module, num_fwd_outputs=joint.num_fwd_outputs,
                   options=options).solve()


# --- Options: every numeric field bounded at construction ----------------------------------------

NUMERIC = {"memory_budget": "a number in [0, 1] or None",
           "memory_budget_bytes": "an integer in [0, 2**62] or None",
           "peak_memory_bytes": "an integer in [0, 2**62] or None",
           "unmaterialized_factor": "an integer in [1, 1024]",
           "symint_bytes": "an integer in [0, 4294967296]",
           "distance_cap": "an integer in [0, 1024]",
           "unbacked_size_hint": "an integer in [1, 1099511627776]"}


@pytest.mark.parametrize("field", sorted(NUMERIC))
@pytest.mark.parametrize("value", values(HUGE, -HUGE, 2**62 + 1, math.nan, math.inf, True, "1",
                                         np.int64(-1), np.bool_(True), 1 + 0j))
def test_options_numeric_fields_refuse_hostile_values_naming_the_range(field, value):
    if field == "memory_budget" and isinstance(value, int) and 0 <= value <= 1:
        return  # True is refused below; 1 is a budget
    with pytest.raises(ValueError) as info:
        Options(**{field: value})
    text = str(info.value)
    assert f"Options: {field} = " in text and NUMERIC[field] in text, text
    if isinstance(value, int) and abs(value) > 2**64:
        assert f"an int of {abs(value).bit_length()} bits" in text


@pytest.mark.parametrize("field,value", [("memory_budget_bytes", 2**62),
                                         ("peak_memory_bytes", 2**62), ("memory_budget", -0.0)])
def test_options_targets_at_their_bounds_work_everywhere(joint, field, value):
    works(joint, Options(**{field: value}))


# --- Device: every field bounded so that the cost model's arithmetic stays finite ---------------


@pytest.mark.parametrize("field", sorted(FIELD_BOUNDS))
@pytest.mark.parametrize("value", values(10**400, -10**400, HUGE, math.nan, math.inf, -math.inf,
                                         True, "1", None, 5e-324, 1e300, -1.0))
def test_device_fields_refuse_values_naming_field_and_range(field, value):
    lo, hi = FIELD_BOUNDS[field]
    if isinstance(value, float) and lo <= value <= hi:
        return  # 5e-324 is a valid time
    with pytest.raises(ValueError) as info:
        dataclasses.replace(PRESETS["h100"], **{field: value})
    assert f"Device: {field} = " in str(info.value)
    assert f"expected a number in [{lo:g}, {hi:g}]" in str(info.value)


@pytest.mark.parametrize("end", [0, 1])
def test_devices_at_the_bounds_decide_without_overflow(joint, end):
    device = dataclasses.replace(PRESETS["h100"], name="edge",
                                 **{f: b[end] for f, b in FIELD_BOUNDS.items()})
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # numpy's overflow in the cost model
        decision = fusioncut.decide(joint.joint_module, num_fwd_outputs=joint.num_fwd_outputs,
                                    options=Options(device=device))
        points = fusioncut.pareto(joint.joint_module, num_fwd_outputs=joint.num_fwd_outputs,
                                  options=Options(device=device)).points
    assert (decision.weights >= 0).all() and points


# --- profiles: one reader, every failure names the profile ----------------------------------------


def _profile(tmp_path, kind: str) -> str:
    good = PRESETS["cpu"].to_dict()
    path = tmp_path / f"{kind}.json"
    contents = {
        "binary": bytes(range(256)),
        "utf16": json.dumps(good).encode("utf-16"),
        "nested_array": b"[" * 100_000 + b"]" * 100_000,
        "nested_object": b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
        "empty": b"",
        "too_large": b" " * (2 << 20) + json.dumps(good).encode(),
        "digits": b'{"bandwidth": ' + b"9" * 5000 + b"}",
        "int400": json.dumps({**good, "bandwidth": 10**400}).encode(),
        "1e999": json.dumps({**good, "bandwidth": 1.0}).replace("1.0", "1e999").encode(),
        "array": b"[1, 2]",
    }
    if kind in contents:
        path.write_bytes(contents[kind])
    elif kind == "directory":
        path.mkdir()
    elif kind == "symlink_loop":
        path.symlink_to(path)
    elif kind == "long_name":
        path = tmp_path / ("x" * 300 + ".json")
    elif kind == "nul_byte":
        path = str(tmp_path / "a\0b.json")
    elif kind.startswith("/"):
        return kind
    return str(path)


PROFILES = {  # kind: what the message says
    "directory": "the profile is a directory, not a regular file",
    "binary": "the profile is not UTF-8 text (byte 0x80 at offset 128)",
    "utf16": "the profile is not UTF-8 text",
    "nested_array": "the profile is JSON nested too deeply",
    "nested_object": "the profile is JSON nested too deeply",
    "empty": "the profile is not JSON",
    "too_large": "the profile is larger than 1048576 bytes",
    "digits": "the profile is not JSON (Exceeds the limit (4300 digits)",
    "int400": "Device: bandwidth = an int of 1329 bits is invalid",
    "1e999": "Device: bandwidth = inf is invalid",
    "array": "expected a JSON object",
    "symlink_loop": "the profile cannot be opened (Too many levels of symbolic links)",
    "long_name": "the profile cannot be opened (File name too long)",
    "nul_byte": "the profile contains a NUL byte",
    "/proc/self/mem": "the profile cannot be read (Input/output error)",
    "/proc/self": "the profile is a directory",
    "/dev/null": "the profile is a character device, not a regular file",
}


@pytest.mark.parametrize("kind", sorted(PROFILES))
def test_unusable_profiles_name_the_profile_and_the_problem(tmp_path, kind):
    if kind.startswith("/proc") and not os.path.isdir("/proc/self"):
        pytest.skip("needs Linux /proc")
    path = _profile(tmp_path, kind)
    for call, origin in ((Device.load, f"Device.load({path!r})"),
                         (lambda p: Options(device=p), f"Options: device = {path!r}")):
        with pytest.raises(ValueError) as info:
            call(path)
        assert str(info.value).startswith(origin + ":"), str(info.value)
        assert PROFILES[kind] in str(info.value), str(info.value)


def test_profiles_that_would_hang_or_exhaust_memory_are_refused_at_once(tmp_path):
    """A named pipe blocks an open() until a writer comes; /dev/zero and /dev/full never end.
    In a child with 2 GiB of address space and a 60 s limit, so a regression fails here."""
    fifo = tmp_path / "profile.json"
    os.mkfifo(fifo)
    code = ("import resource, sys\n"
            "resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))\n"
            "from fusioncut.device import Device\n"
            "for p in sys.argv[1:]:\n"
            "    try:\n"
            "        Device.load(p)\n"
            "    except ValueError as e:\n"
            "        print(e)\n")
    out = subprocess.run([sys.executable, "-c", code, str(fifo), "/dev/zero", "/dev/full"],
                         capture_output=True, text=True, timeout=60, check=True).stdout
    assert out.splitlines() == [
        f"Device.load({str(fifo)!r}): the profile is a named pipe, not a regular file",
        "Device.load('/dev/zero'): the profile is a character device, not a regular file",
        "Device.load('/dev/full'): the profile is a character device, not a regular file"]


def test_profiles_load_alike_from_many_threads(tmp_path):
    path = tmp_path / "p.json"
    PRESETS["cpu"].save(path)
    results: list = []
    threads = [threading.Thread(target=lambda: results.append(Device.load(path)))
               for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [PRESETS["cpu"]] * 8


def test_device_save_replaces_a_profile_whole_and_keeps_its_mode(tmp_path):
    path = tmp_path / "p.json"
    path.write_text("old")
    path.chmod(0o640)
    PRESETS["h100"].save(path)
    assert Device.load(path) == PRESETS["h100"] and (path.stat().st_mode & 0o777) == 0o640
    assert sorted(os.listdir(tmp_path)) == ["p.json"]  # no temporary file left


# --- the command line -------------------------------------------------------------------------


@pytest.fixture
def cli(tmp_path, monkeypatch):
    """``main(argv)`` in this process on a tiny model; returns (rc, stdout, stderr, ran) where
    ran says whether the model's factory was called."""
    (tmp_path / "hostile_profile_models.py").write_text(
        "import os, torch\n"
        "def mlp():\n"
        "    open(os.path.join(os.path.dirname(__file__), 'ran.marker'), 'w').close()\n"
        "    torch.manual_seed(0)\n"
        "    return torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.Tanh())\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)

    def run(*argv):
        marker = tmp_path / "ran.marker"
        marker.unlink(missing_ok=True)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = main(list(argv))
        return rc, out.getvalue(), err.getvalue(), marker.exists()

    return run


MODEL = ("hostile_profile_models:mlp", "--input", "2x8", "--no-compare")


@pytest.mark.parametrize("kind", ["directory", "binary", "nested_array", "symlink_loop",
                                  "/proc/self/mem"])
def test_cli_device_profile_errors_exit_2_before_the_model_runs(tmp_path, cli, kind):
    if kind.startswith("/proc") and not os.path.isdir("/proc/self"):
        pytest.skip("needs Linux /proc")
    path = _profile(tmp_path, kind)
    rc, _, err, ran = cli("pareto", *MODEL, "--device", path)
    assert rc == 2 and not ran, err
    assert err.startswith(f"python -m fusioncut pareto: error: --device: device = {path!r}: "
                          f"{PROFILES[kind]}"), err


@pytest.mark.parametrize("command", ["explain", "pareto"])
@pytest.mark.parametrize("name", ["picture", "picture.txt", "picture.json", "/dev/full"])
def test_cli_png_must_name_its_format_and_is_checked_before_the_work(tmp_path, cli, command,
                                                                     name):
    rc, out, err, ran = cli(command, *MODEL, "--png", name)
    assert rc == 2 and not ran and "wrote" not in out, err
    assert f"--png {name}: name a .png, .svg or .pdf file" in err
    assert not os.path.exists(name + ".png") and (name == "/dev/full" or
                                                  not os.path.exists(name))


@pytest.mark.parametrize("flag", ["--json", "--png", "--svg"])
@pytest.mark.parametrize("kind,needle", [
    ("fifo", "is a named pipe; name a file"),
    ("symlink_loop", "not writable (Too many levels of symbolic links)"),
    ("long_name", "not writable (File name too long)"),
])
def test_cli_unusable_outputs_are_refused_before_the_work(tmp_path, cli, flag, kind, needle):
    ext = {"--json": ".json", "--png": ".png", "--svg": ".svg"}[flag]
    path = tmp_path / f"out{ext}"
    if kind == "fifo":
        os.mkfifo(path)  # opening it to write would wait for a reader
    elif kind == "symlink_loop":
        path.symlink_to(path)
    else:
        path = tmp_path / ("x" * 300 + ext)
    rc, out, err, ran = cli("explain", *MODEL, flag, str(path))
    assert rc == 2 and not ran and "wrote" not in out, err
    assert f"{flag} {path}: {needle}" in err


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("command", ["explain", "pareto"])
def test_cli_a_full_device_names_the_flag(cli, command):
    rc, out, err, _ = cli(command, *MODEL, "--json", "/dev/full")
    assert rc == 2 and "wrote" not in out, err
    assert err.strip() == (f"python -m fusioncut {command}: error: --json /dev/full: cannot "
                           f"be written (No space left on device)")


def test_cli_a_failed_write_leaves_the_existing_file_and_no_temporary(tmp_path, capsys):
    target = tmp_path / "report.json"
    target.write_text("precious")

    def half_then_full(temp):
        with open(temp, "w") as f:
            f.write("half")
        raise OSError(28, "No space left on device")

    with pytest.raises(CliError, match=r"--json .*report.json: cannot be written \(No space "
                                       r"left on device\)"):
        write_output("json", str(target), half_then_full)
    assert target.read_text() == "precious" and os.listdir(tmp_path) == ["report.json"]
    write_output("json", str(target), lambda p: open(p, "w").write("new"))
    assert target.read_text() == "new" and capsys.readouterr().out == f"wrote {target}\n"


@pytest.mark.parametrize("argv", [["explain", "m:f", "--seed", "9" * 5000],
                                  ["demo", "--layers", "9" * 5000],
                                  ["pareto", "m:f", "--int-high", "-" + "9" * 5000]])
def test_cli_integers_of_thousands_of_digits_are_out_of_range(argv, capsys):
    with pytest.raises(SystemExit) as info:
        main(argv)
    err = capsys.readouterr().err
    assert info.value.code == 2 and "digits is out of range [" in err and len(err) < 300, err
