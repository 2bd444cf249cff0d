"""Device costs: the presets decide as the measurements say, profiles load or are refused
naming the field, calibration produces a usable profile, and the pareto command runs."""

from __future__ import annotations

import json
import math

import pytest
import torch

import fusioncut
from fusioncut.calibrate import _fit_chain, calibrate
from fusioncut.cli import main
from fusioncut.device import PRESETS, Device
from fusioncut.options import Options
from fusioncut.report import capture

pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning")


def _saved(fn, *args, **options):
    cap = capture(fn, *args, via="aot")
    d = fusioncut.decide(cap.joint_module, num_fwd_outputs=cap.num_fwd_outputs,
                         options=Options(**options))
    return sorted(n.name for n in d.saved_nodes), d


def _sin16(x, w):
    y = x
    for _ in range(16):
        y = torch.sin(y)
    return (y * w).sum()


def test_h100_preset_saves_a_long_transcendental_chain_the_byte_model_recomputes():
    x, w = torch.randn(64, 256), torch.randn(64, 256, requires_grad=True)
    byte_model, _ = _saved(_sin16, x, w)
    h100, d = _saved(_sin16, x, w, device="h100")
    assert byte_model == ["primals_1"]  # x: the byte model recomputes 16 sins for free
    assert "primals_1" not in h100 and len(h100) == 1  # the chain's output is saved
    assert d.graph.nodes[d.graph.index[d.saved_nodes[0]]].target == torch.ops.aten.sin.default


def test_h100_preset_still_saves_only_x_for_tanh_tanh():
    x = torch.randn(64, 256, requires_grad=True)
    assert _saved(lambda x: x.tanh().tanh(), x, device="h100")[0] == ["primals_1"]
    assert _saved(lambda x: x.tanh().tanh(), x)[0] == ["primals_1"]


def test_no_device_decides_with_the_byte_model():
    x = torch.randn(16, 32, requires_grad=True)
    fn = lambda x: (x.sin() * x.cos()).exp().sum()  # noqa: E731
    assert _saved(fn, x)[1].saved.tolist() == _saved(fn, x, device=None)[1].saved.tolist()


def test_profile_round_trips_and_is_accepted_by_options(tmp_path):
    path = tmp_path / "dev.json"
    PRESETS["cpu"].save(path)
    assert Device.load(path) == PRESETS["cpu"]
    assert Options(device=str(path)).device == PRESETS["cpu"]
    report = tmp_path / "report.json"  # a calibration report holding the profile
    report.write_text(json.dumps({"device": PRESETS["h100"].to_dict(), "chains": {}}))
    assert Device.load(report) == PRESETS["h100"]


@pytest.mark.parametrize("edit, message", [
    (lambda d: d.pop("bandwidth"), r"missing field 'bandwidth'"),
    (lambda d: d.update(speed=3), r"unknown field 'speed'; valid fields are"),
    (lambda d: d.update(bandwidth=-1.0), r"bandwidth = -1.0 is invalid; expected a number in "
                                         r"\[1, 1e\+18\]"),
    (lambda d: d.update(kernel_overhead=math.nan), r"kernel_overhead = nan is invalid"),
    (lambda d: d.update(matmul_flops="fast"), r"matmul_flops = 'fast' is invalid"),
    (lambda d: d.update(name=""), r"name = '' is invalid"),
])
def test_bad_profiles_are_refused_naming_the_field(tmp_path, edit, message):
    data = PRESETS["h100"].to_dict()
    edit(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=message):
        Options(device=str(path))


def test_unreadable_profiles_are_refused(tmp_path):
    with pytest.raises(ValueError, match=r"missing.json'\): the profile does not exist"):
        Device.load(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ValueError, match=r"is not JSON"):
        Options(device=str(bad))
    bad.write_text("[1, 2]")
    with pytest.raises(ValueError, match=r"expected a JSON object"):
        Options(device=str(bad))


def test_chain_fit_finds_the_shadow_and_the_slope():
    # 4 ops per element hidden, then 1 ns per op and element over 1e6 elements.
    times = {1: 1e-3, 2: 1e-3, 4: 1.05e-3, 8: 5e-3, 16: 13e-3, 32: 29e-3}
    hidden, slope = _fit_chain(times, 10**6)
    assert hidden == 4 and slope == pytest.approx(1e-9)
    # A noisy shorter-is-slower reading never gives a negative slope.
    assert _fit_chain({1: 2e-3, 2: 1e-3, 4: 1e-3}, 10**6)[1] >= 0


def test_calibration_on_the_cpu_gives_a_usable_profile():
    result = calibrate("cpu", quick=True, numel=1 << 16, log=lambda *_: None)
    profile = result.device
    assert profile.bandwidth > 0 and profile.matmul_flops > 0
    assert profile.transcendental_op_time >= 0 and profile.kernel_overhead > 0
    assert profile.host_bandwidth is None and result.host_seconds == {}  # no host link on a CPU
    assert Options(device=profile).device is profile
    with pytest.raises(ValueError, match=r"numel = 3 is invalid"):
        calibrate("cpu", numel=3)
    with pytest.raises(ValueError, match=r"device = 'tpu' is invalid"):
        calibrate("tpu")


@pytest.fixture
def tiny_model(tmp_path, monkeypatch):
    """``tiny_model:make`` importable from ``tmp_path``, the working directory."""
    (tmp_path / "tiny_model.py").write_text(
        "import torch\n"
        "def make():\n"
        "    torch.manual_seed(0)\n"
        "    return torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(),\n"
        "                               torch.nn.Linear(32, 16), torch.nn.Tanh())\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_explain_command_takes_a_peak_target_in_bytes_or_units(tiny_model, capsys):
    tmp_path = tiny_model
    for peak, nbytes in (("1MiB", 2**20), ("4096", 4096)):
        out = tmp_path / "e.json"
        assert main(["explain", "tiny_model:make", "--input", "8x16", "--peak", peak,
                     "--device", "h100", "--no-compare", "--json", str(out)]) == 0
        assert json.loads(out.read_text())["setting"].endswith(f"peak_memory_bytes={nbytes}")
        assert f"Memory target peak_memory_bytes = {nbytes}" in capsys.readouterr().out


def test_pareto_command_scores_both_partitioners(tiny_model, capsys):
    tmp_path = tiny_model
    out = tmp_path / "p.json"
    assert main(["pareto", "tiny_model:make", "--input", "8x16", "--budgets", "0,0.5,1",
                 "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert [r["budget"] for r in data["rows"]] == [0.0, 0.5, 1.0]
    assert all(r["torch"]["error"] is None for r in data["rows"])
    assert "fusioncut saved" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit_info:  # argparse: usage error
        main(["pareto", "tiny_model:make", "--input", "8x16", "--budgets", "2"])
    assert exit_info.value.code == 2
    assert main(["pareto", "tiny_model:make", "--device", "tpu"]) == 2
