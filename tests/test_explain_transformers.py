"""explain and pareto on the models people train: GPT-2, Llama, T5, ViT and Whisper from
transformers (tiny configs, random weights, nothing downloaded), from Python and from the
command line, traced the way torch.compile sees them (Dynamo: keyword inputs, ModelOutput
and cache outputs, graph breaks).

Asserted per model: the explanation's reasons agree with the decision under a memory budget
priced on the CPU preset (every recomputed value names its cost or its rule, no value is both
banned and recomputed, a saved value's ban is one the budget keeps, the saved set is the
emitted forward's), PyTorch's min-cut runs at the same budget and its fate is given per
value, and the budget frontier's plans shrink with the budget; the CLI builds each model from
its class and a JSON config and writes both reports.
"""

from __future__ import annotations

import json
import os
import re

import pytest
import torch

import fusioncut
from fusioncut.cli import main
from fusioncut.policy import BUDGET_LIFTS, ReasonKind
from fusioncut.report.build import saved_outputs

if os.environ.get("CI"):
    import transformers  # the test extra installs it: CI must not skip these
else:
    transformers = pytest.importorskip("transformers")

pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning")

V = 96  # vocabulary of the text models
NO_DROPOUT = {"gpt2": ("resid_pdrop", "embd_pdrop", "attn_pdrop"), "llama": ("attention_dropout",),
              "t5": ("dropout_rate",), "vit": ("hidden_dropout_prob",
                                               "attention_probs_dropout_prob"),
              "whisper": ("dropout", "attention_dropout", "activation_dropout")}
# class, config (JSON: what --config takes), inputs (what --input takes)
MODELS = {
    "gpt2": ("GPT2LMHeadModel", dict(vocab_size=V, n_positions=16, n_embd=32, n_layer=2,
                                     n_head=2, bos_token_id=0, eos_token_id=0),
             ["input_ids=2x8:int", "labels=2x8:int"]),
    "llama": ("LlamaForCausalLM", dict(vocab_size=V, hidden_size=32, intermediate_size=64,
                                       num_hidden_layers=2, num_attention_heads=4,
                                       num_key_value_heads=2, max_position_embeddings=16,
                                       bos_token_id=0, eos_token_id=0),
              ["input_ids=2x8:int", "labels=2x8:int"]),
    "t5": ("T5ForConditionalGeneration", dict(vocab_size=V, d_model=32, d_kv=8, d_ff=64,
                                              num_layers=2, num_decoder_layers=2, num_heads=4,
                                              decoder_start_token_id=0, pad_token_id=0,
                                              eos_token_id=1),
           ["input_ids=2x8:int", "labels=2x8:int"]),
    "vit": ("ViTForImageClassification", dict(image_size=16, patch_size=4, num_channels=3,
                                              hidden_size=32, num_hidden_layers=2,
                                              num_attention_heads=4, intermediate_size=64,
                                              num_labels=5),
            ["pixel_values=2x3x16x16", "labels=2:int[0,5)"]),
    "whisper": ("WhisperForConditionalGeneration", dict(
        vocab_size=V, num_mel_bins=8, encoder_layers=2, decoder_layers=2,
        encoder_attention_heads=4, decoder_attention_heads=4, d_model=32, encoder_ffn_dim=64,
        decoder_ffn_dim=64, max_source_positions=8, max_target_positions=16,
        decoder_start_token_id=1, pad_token_id=0, bos_token_id=1, eos_token_id=2),
        ["input_features=2x8x16", "labels=2x8:int"]),
}
for _name, (_, _config, _) in MODELS.items():
    _config.update({key: 0.0 for key in NO_DROPOUT[_name]})


def build(name: str):
    """The model (train mode, seeded) and its keyword inputs."""
    cls_name, config, specs = MODELS[name]
    cls = getattr(transformers, cls_name)
    torch.manual_seed(0)
    model = cls(cls.config_class(**config)).train()
    g = torch.Generator().manual_seed(0)
    inputs = {}
    for spec in specs:
        key, shape_dtype = spec.split("=")
        shape = tuple(int(d) for d in shape_dtype.split(":")[0].split("x"))
        high = 5 if "[0,5)" in spec else V
        inputs[key] = (torch.randint(0, high, shape, generator=g) if ":int" in spec
                       else torch.randn(shape, generator=g))
    return model, inputs


@pytest.fixture(scope="module", params=list(MODELS))
def captured(request):
    model, inputs = build(request.param)
    return request.param, fusioncut.capture(model, **inputs)


_COST = re.compile(r"costs \d[\d.]* (ns|us|ms|s) on \w+")


def assert_reasons_agree(report, budgeted: bool) -> None:
    """Every recomputed value names its cost or its rule; nothing is both banned and
    recomputed; a saved value's ban holds under the options; saved = the forward's outputs."""
    assert report.graphs and not report.fallbacks
    for k, g in enumerate(report.graphs):
        mine = [v for v in report.values if v.graph == k]
        recomputed = {v.name for v in mine if v.fate == "recomputed"}
        banned = {b.name for b in report.banned if b.graph == k}
        assert not recomputed & banned, sorted(recomputed & banned)
        saved = sorted(v.name for v in mine if v.fate == "saved")
        assert saved == sorted(nd.name for nd in
                               saved_outputs(g.fw_module, g.decision.graph.num_fwd_outputs))
        lifted = {b.name for b in report.lifted if b.graph == k}
        assert not lifted & banned
        if not budgeted:
            assert not lifted
    for v in report.recomputed:
        assert v.why, v.name
        if v.is_view:
            assert v.kind == "view" and v.why.startswith("free: a view of")
        elif v.kind == "priced":
            assert _COST.search(v.why) and v.recompute_s is not None, v.why
        elif v.kind == "fused":
            assert not budgeted and v.why.startswith("free in the byte model"), v.why
        else:
            assert v.kind == "annotation" and "must be recomputed" in v.why, (v.kind, v.why)
    for v in report.saved:
        if v.kind == "ban" and budgeted:
            ban = report.graphs[v.graph].decision.policy.ban[
                [nd.name for nd in report.graphs[v.graph].decision.graph.nodes].index(v.name)]
            assert ban.kind not in BUDGET_LIFTS and "under any memory target" in v.why
        if v.kind == "cut" and budgeted:
            assert v.why.startswith("kept by the plan for memory_budget = 0.5")


def test_explain_transformers_reasons_agree_under_a_budget(captured):
    name, cap = captured
    options = fusioncut.Options(memory_budget=0.5, device="cpu")
    report = fusioncut.explain(cap, options=options)
    assert_reasons_agree(report, budgeted=True)
    assert report.setting == "mode=runtime, device=cpu, memory_budget=0.5"
    # Priced recomputation, unless no plan lowers the estimated peak below the runtime plan's
    # (then every budget takes the runtime plan: a plan that does not lower the peak buys
    # nothing).
    assert any(v.kind == "priced" for v in report.recomputed) or not report.recomputed or all(
        g.budget.chosen.saved_bytes == g.budget.runtime.saved_bytes for g in report.graphs)
    # PyTorch's min-cut at the same budget, per value; totals summed over the graphs.
    peer = report.method("torch min-cut")
    assert peer.error is None and peer.setting.startswith("activation_memory_budget=0.5")
    assert all(v.torch in ("saved", "recomputed", "not used") for v in report.values)
    for d in report.differences:
        assert "saved" in (d.fusioncut, d.torch) and d.fusioncut != d.torch and d.name in d.text
        value = next((v for v in report.values if v.name == d.name and v.graph == d.graph),
                     None)
        assert value is None or value.torch == d.torch
    fc = report.fusioncut
    assert fc.saved_bytes == sum(g.methods[0].saved_bytes for g in report.graphs)
    assert fc.static_bytes > 0  # the parameters saved, counted apart and free
    for g in report.graphs:
        assert g.budget is not None and g.budget.target == "memory_budget = 0.5"
    text = str(report)
    assert "Priced, not banned" in text or not report.lifted
    assert "Banned from recomputation" in text and "params+inputs" in text


def test_explain_transformers_reasons_agree_in_the_byte_model(captured):
    name, cap = captured
    report = fusioncut.explain(cap, compare=False)
    assert_reasons_agree(report, budgeted=False)
    assert report.setting == "mode=runtime, byte model"
    # A lookup into a large table is named for the rule that bans it, not as a reduction.
    lookups = [b for b in report.banned if b.op == "aten.embedding"]
    assert all(b.kind != ReasonKind.REDUCTION.value for b in lookups)
    assert all(b.kind == ReasonKind.SMALL_OUTPUT.value for b in lookups
               if b.reason.startswith("small output"))


def test_pareto_transformers_plans_shrink_with_the_budget(captured):
    name, cap = captured
    front = fusioncut.pareto(cap, budgets=(1.0, 0.5, 0.0))
    assert [r.budget for r in front.rows] == [1.0, 0.5, 0.0]
    mine = [r.fusioncut.saved_bytes for r in front.rows]
    assert mine == sorted(mine, reverse=True), mine
    assert front.frontier and front.frontier[0].saved_bytes == max(
        p.saved_bytes for p in front.frontier)
    assert all(r.torch.error is None for r in front.rows)
    assert len(front.parts) == (len(cap.graphs) if len(cap.graphs) > 1 else 0)


@pytest.mark.parametrize("name", list(MODELS))
def test_cli_explain_and_pareto_on_transformers(name, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    cls_name, config, specs = MODELS[name]
    target = ["transformers:" + cls_name, "--config", json.dumps(config)]
    for spec in specs:
        target += ["--input", spec]
    assert main(["explain", *target, "--no-compare", "--json", "explain.json",
                 "--device", "CPU", "--budget", "0.5", "--svg", "cut.svg",
                 "--png", "bytes.png"]) == 0
    out = capsys.readouterr().out
    assert "Saved for backward" in out and "device=cpu, memory_budget=0.5" in out
    data = json.loads((tmp_path / "explain.json").read_text())
    assert data["via"] == "dynamo" and data["graphs"]
    assert {v["fate"] for v in data["values"]} >= {"saved"}
    svg = (tmp_path / "cut.svg").read_text()
    assert int(re.search(r'width="(\d+)"', svg).group(1)) <= 1400
    assert (tmp_path / "bytes.png").read_bytes()[:4] == b"\x89PNG"
    assert main(["pareto", *target, "--no-compare", "--budgets", "0,1",
                 "--json", "pareto.json", "--png", "pareto.png"]) == 0
    assert (tmp_path / "pareto.png").stat().st_size > 10_000
    out = capsys.readouterr().out
    assert "fusioncut pareto" in out and "priced on h100" in out
    rows = json.loads((tmp_path / "pareto.json").read_text())["rows"]
    assert [r["budget"] for r in rows] == [0.0, 1.0]
    assert rows[0]["fusioncut"]["saved_bytes"] <= rows[1]["fusioncut"]["saved_bytes"]
