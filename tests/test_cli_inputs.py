"""The command line and the package as users expect: targets built from a config, named
inputs with ranges and defaults from the model, --version, presets in any case, help(Options),
and no torch warning from fusioncut's own calls."""

from __future__ import annotations

import dataclasses
import json
import pydoc
import subprocess
import sys
import warnings
from types import SimpleNamespace

import pytest
import torch

import fusioncut
from fusioncut.cli import main
from fusioncut.cli_args import CliError
from fusioncut.cli_inputs import embedding_size, load, parse_input
from fusioncut.device import PRESETS, resolve_device


def test_cli_input_spec_names_dtypes_and_ranges():
    spec = parse_input("input_ids=2x64:int[0,512)")
    assert (spec.name, spec.shape, spec.dtype, spec.low, spec.high) == \
        ("input_ids", (2, 64), "int64", 0, 512)
    assert parse_input("labels=4:int[0,4]").high == 5  # a closed range includes its end
    assert parse_input("8x128").dtype == "float32" and parse_input("8x128").name is None
    assert parse_input("x=3:float[-1,1)").dtype == "float32"
    for bad, needle in (("ids=2x:int", "shape"), ("m=2:int[3,3)", "empty"),
                        ("m=2:int[0.5,3)", "integer bounds"), ("=2x3", "a shape like 8x128")):
        with pytest.raises(CliError, match=needle):
            parse_input(bad)


def _args(target, *inputs, config=None, int_high=None):
    return SimpleNamespace(target=target, config=config, input=list(inputs), int_high=int_high,
                           seed=0, svg=None, png=None, json=None)


class _Embedded(torch.nn.Module):
    def __init__(self, rows=37, width=4):
        super().__init__()
        self.emb = torch.nn.Embedding(rows, width)
        self.pos = torch.nn.Embedding(8, width)

    def get_input_embeddings(self):
        return self.emb

    def forward(self, ids, scale=None):
        return self.emb(ids).sum() * (1.0 if scale is None else scale.sum())


def test_cli_integer_inputs_default_to_the_models_embedding(monkeypatch, tmp_path):
    (tmp_path / "emb_models.py").write_text(
        "from test_cli_inputs import _Embedded\n"
        "def make():\n    return _Embedded()\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.syspath_prepend(str(__import__("pathlib").Path(__file__).parent))
    model, args, kwargs = load(_args("emb_models:make", "4x64:int", "scale=3"))
    assert embedding_size(model) == 37
    assert int(args[0].max()) < 37 and int(args[0].max()) >= 2 and "scale" in kwargs
    _, args, _ = load(_args("emb_models:make", "4x64:int", int_high=3))
    assert int(args[0].max()) < 3
    _, args, _ = load(_args("emb_models:make", "4x64:int[1,1]"))
    assert bool((args[0] == 1).all())
    with pytest.raises(CliError, match="positional inputs"):
        load(_args("emb_models:make", "ids=4:int", "4:int"))
    with pytest.raises(CliError, match="given twice"):
        load(_args("emb_models:make", "ids=4:int", "ids=4:int"))


def test_cli_builds_a_class_from_a_json_config(tmp_path, monkeypatch):
    (tmp_path / "cfg_models.py").write_text(
        "import torch\n"
        "class Config:\n"
        "    def __init__(self, width=2): self.width = width\n"
        "class HFLike(torch.nn.Module):\n"
        "    config_class = Config\n"
        "    def __init__(self, config):\n"
        "        super().__init__(); self.lin = torch.nn.Linear(config.width, 1)\n"
        "    def forward(self, x): return self.lin(x).sum()\n"
        "def factory(width): return torch.nn.Linear(width, 1)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    model, _, _ = load(_args("cfg_models:HFLike", "2x6", config='{"width": 6}'))
    assert model.lin.in_features == 6 and model.training
    (tmp_path / "w.json").write_text(json.dumps({"width": 5}))
    model, _, _ = load(_args("cfg_models:factory", "2x5", config="w.json"))
    assert model.in_features == 5
    with pytest.raises(CliError, match="Hugging Face model class"):
        load(_args("cfg_models:HFLike", "2x6"))
    with pytest.raises(CliError, match="not valid JSON"):
        load(_args("cfg_models:factory", "2x5", config="{width: 5}"))
    with pytest.raises(CliError, match="no such file"):
        load(_args("cfg_models:factory", "2x5", config="missing.json"))


def test_cli_version_names_fusioncut_and_torch():
    proc = subprocess.run([sys.executable, "-m", "fusioncut", "--version"], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0
    assert proc.stdout.startswith(f"fusioncut {fusioncut.__version__} (torch ")


def test_cli_help_lists_only_commands_that_run(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    text = capsys.readouterr().out
    assert "--quick" not in text  # bench has no --quick
    for line in text.splitlines():
        if line.strip().startswith("python -m fusioncut "):
            assert "--builtin" not in line


def test_device_presets_in_any_case_with_a_near_miss_hint():
    assert resolve_device("H100") is PRESETS["h100"] and resolve_device(" CPU") is PRESETS["cpu"]
    with pytest.raises(ValueError, match="did you mean 'h100'"):
        resolve_device("h10")
    with pytest.raises(ValueError, match="not a preset") as info:
        resolve_device("tpu-v9-pod")
    assert "did you mean" not in str(info.value)


def test_options_help_lists_every_field_with_its_doc():
    text = pydoc.render_doc(fusioncut.Options, renderer=pydoc.plaintext)
    for f in dataclasses.fields(fusioncut.Options):
        assert f"{f.name}: " in text, f.name
    assert "Range: ``[1, 1024]``" in text and "the paper's setting" in text


def test_readme_lists_every_options_field():
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    for f in dataclasses.fields(fusioncut.Options):
        assert f"| `{f.name}` |" in readme, f.name


def test_explain_leaks_no_torch_warning():
    model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.GELU(), torch.nn.Linear(16, 1))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fusioncut.explain(model, torch.randn(4, 8), compare=True)
        fusioncut.explain(model, torch.randn(4, 8), via="aot", compare=False)
    assert not [w for w in caught if issubclass(w.category, (FutureWarning,
                                                             DeprecationWarning))], \
        [str(w.message)[:120] for w in caught]
