"""fusioncut.report: the report says what the partitioners actually produced, and why.

Every check compares the report against modules produced independently: fusioncut.partition,
torch's min_cut_rematerialization_partition and default_partition, each run here on its own
deep copy of the same joint graph.
"""

from __future__ import annotations

import copy
import json
import logging

import pytest
import torch
import torch.fx as fx
from torch import nn
from torch.utils.checkpoint import CheckpointPolicy

import fusioncut
from fusioncut import _log
from fusioncut.demo import DemoConfig, DemoGPT, demo_inputs
from fusioncut.report import (
    Report, capture, explain, explain_joint, format_partition_error, report_from_decision,
)
from fusioncut.options import Options
from fusioncut.decision import PartitionError

pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning")

CFG = DemoConfig(n_layer=2, d_model=32, n_head=4, block_size=16, vocab=64, batch=2)


@pytest.fixture(scope="module")
def captured():
    torch.manual_seed(0)
    return capture(DemoGPT(CFG), *demo_inputs(CFG))


@pytest.fixture(scope="module")
def report(captured):
    return explain_joint(captured.joint_module, num_fwd_outputs=captured.num_fwd_outputs,
                         joint_inputs=captured.joint_inputs,
                         static_lifetime_input_indices=captured.static_lifetime_input_indices)


def _saved_output_names(fw: fx.GraphModule, num_fwd_outputs: int) -> list[str]:
    out = fw.graph.find_nodes(op="output")[0]
    return [a.name for a in torch.utils._pytree.tree_leaves(list(out.args))
            if isinstance(a, fx.Node)][num_fwd_outputs:]


def _partition_copy(fn, cap):
    return fn(copy.deepcopy(cap.joint_module), cap.joint_inputs,
              num_fwd_outputs=cap.num_fwd_outputs,
              static_lifetime_input_indices=cap.static_lifetime_input_indices)


def test_explain_saved_set_is_the_forward_modules_saved_outputs(report, captured):
    fw, _ = _partition_copy(fusioncut.partition, captured)
    produced = _saved_output_names(fw, captured.num_fwd_outputs)
    assert sorted(s.name for s in report.saved) == sorted(produced)
    assert sorted(report.fusioncut.saved) == sorted(produced)
    # The report's own forward module agrees too.
    assert sorted(_saved_output_names(report.fw_module, captured.num_fwd_outputs)) == \
        sorted(produced)


@pytest.mark.parametrize("method,fn", [
    ("torch min-cut", "min_cut_rematerialization_partition"),
    ("default_partition", "default_partition"),
])
def test_explain_peer_saved_sets_are_their_forward_modules_outputs(report, captured, method,
                                                                   fn):
    from torch._functorch import partitioners

    fw, _ = _partition_copy(getattr(partitioners, fn), captured)
    summary = report.method(method)
    assert summary.error is None
    assert sorted(summary.saved) == sorted(_saved_output_names(fw, captured.num_fwd_outputs))
    assert summary.time_s is not None and summary.time_s > 0


def test_explain_does_not_modify_the_joint_graph(captured):
    before = [(n.name, n.op, str(n.target)) for n in captured.joint_module.graph.nodes]
    explain_joint(captured.joint_module, num_fwd_outputs=captured.num_fwd_outputs,
                  joint_inputs=captured.joint_inputs,
                  static_lifetime_input_indices=captured.static_lifetime_input_indices,
                  compare=False)
    assert [(n.name, n.op, str(n.target)) for n in captured.joint_module.graph.nodes] == before


def test_explain_bytes_and_traffic_follow_the_saved_values(report):
    fc = report.fusioncut
    acts = [s for s in report.saved if s.kind not in ("input", "static input", "symint")]
    assert fc.num_saved == len(acts)
    assert 0 < fc.saved_bytes <= sum(s.nbytes for s in acts)
    # Traffic: every byte read once, some written too; never more than twice.
    assert fc.saved_bytes <= fc.traffic_bytes <= 2 * fc.saved_bytes
    for s in acts:
        val = report.decision.graph.nodes[report.decision.graph.index[
            next(n for n in report.decision.graph.nodes if n.name == s.name)]].meta["val"]
        assert s.nbytes == val.numel() * val.dtype.itemsize
        assert s.shape == list(val.shape) and s.dtype == str(val.dtype).removeprefix("torch.")
    # No recomputation saves at least as much as fusioncut on this model.
    assert report.method("default_partition").saved_bytes >= fc.saved_bytes
    assert report.method("default_partition").traffic_bytes >= fc.traffic_bytes


def test_explain_every_saved_value_has_a_reason_from_the_policy(report):
    policy, graph = report.decision.policy, report.decision.graph
    by_name = {n.name: i for i, n in enumerate(graph.nodes)}
    kinds = set()
    for s in report.saved:
        assert s.why
        kinds.add(s.kind)
        ban = policy.ban[by_name[s.name]]
        if s.kind in ("ban", "annotation"):
            assert str(ban) in s.why
        if s.kind == "cut":
            assert ban is None and s.why.startswith("min cut")
        # Every saved value is read by the backward module.
        assert s.read_by, s.name
    assert any("compute-intensive: aten.mm" in s.why for s in report.saved)
    assert "static input" in kinds  # the parameters


def test_explain_recomputed_nodes_run_in_the_backward_module(report):
    bw_calls = {n.name for n in report.bw_module.graph.nodes if n.op == "call_function"}
    bw_inputs = {n.name for n in report.bw_module.graph.nodes if n.op == "placeholder"}
    assert report.recomputed, "the demo model recomputes its pointwise chains"
    for r in report.recomputed:
        assert r.name in bw_calls and r.name not in bw_inputs
        if not r.is_view:
            assert r.needed_by, r.name
            for item in r.needed_by:
                assert item.split(" ")[0] in bw_calls


def test_explain_banned_nodes_carry_the_policy_reason(report):
    policy, graph = report.decision.policy, report.decision.graph
    by_name = {n.name: i for i, n in enumerate(graph.nodes)}
    saved = {s.name for s in report.saved}
    assert report.banned
    for b in report.banned:
        assert b.reason == str(policy.ban[by_name[b.name]])
        assert b.saved == (b.name in saved)
    assert any(b.reason.startswith("compute-intensive") for b in report.banned)


def test_explain_table_and_plain_data(report):
    text = str(report)
    for needle in ("Saved for backward", "Recomputed in the backward",
                   "Banned from recomputation", "torch min-cut", "default_partition",
                   "traffic"):
        assert needle in text
    data = json.loads(report.to_json())
    assert [m["method"] for m in data["methods"]] == ["fusioncut", "torch min-cut",
                                                      "default_partition"]
    assert {v["name"] for v in data["values"] if v["fate"] == "saved"} == \
        {s.name for s in report.saved}
    assert "decision" not in data and "fw_module" not in data
    assert report.to_dict() == data


def test_explain_function_and_report_from_decision():
    def f(x, w):
        return (torch.tanh(x @ w) * torch.sigmoid(x @ w)).sum()

    x = torch.randn(8, 16, requires_grad=True)
    w = torch.randn(16, 16, requires_grad=True)
    r = explain(f, x, w, compare=False)
    assert isinstance(r, Report) and len(r.methods) == 1
    assert r.saved and all(s.why for s in r.saved)
    again = report_from_decision(r.decision, r.fw_module, r.bw_module, decide_s=r.decide_s)
    assert [s.name for s in again.saved] == [s.name for s in r.saved]


def _layer_norm_contradiction():
    """A getitem of native_layer_norm annotated MUST_RECOMPUTE while the layer norm is banned
    and its tuple output cannot be saved: no valid cut."""
    model = nn.Sequential(nn.Linear(8, 8), nn.LayerNorm(8), nn.Linear(8, 4))
    torch.manual_seed(0)
    cap = capture(model, torch.randn(3, 8))
    getitem = next(n for n in cap.joint_module.graph.nodes
                   if n.op == "call_function" and n.name == "getitem")
    getitem.meta["recompute"] = CheckpointPolicy.MUST_RECOMPUTE
    return cap


def test_explain_partition_error_groups_nodes_by_constraint(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cap = _layer_norm_contradiction()
    with pytest.raises(PartitionError) as info:
        explain_joint(cap.joint_module, num_fwd_outputs=cap.num_fwd_outputs,
                      options=Options(annotations_override_bans=False))
    text = format_partition_error(info.value)
    names = [n.name for n in info.value.nodes]
    assert names[-1] == "getitem" and len(names) >= 2
    assert "user annotation:" in text and "MUST_RECOMPUTE" in text
    assert "ban (" in text
    assert "Path, source first: " + " -> ".join(names) in text
    assert list(tmp_path.iterdir()) == []  # nothing written unless asked


def test_log_quiet_by_default_and_debug_lists_saved_values(report, caplog, capsys):
    assert any(isinstance(h, logging.NullHandler) for h in _log.logger.handlers)
    _log.log_decision(report.decision)
    assert capsys.readouterr().err == ""
    with caplog.at_level(logging.DEBUG, logger="fusioncut"):
        _log.log_decision(report.decision, decide_s=0.5)
    messages = [r.getMessage() for r in caplog.records if r.name == "fusioncut"]
    assert any(m.startswith("decision:") and "decide_s=0.5" in m for m in messages)
    # Activations apart from the parameters, which are free to save.
    line = next(m for m in messages if m.startswith("decision:"))
    fc = report.fusioncut
    assert f"{_log.format_bytes(fc.saved_bytes)} of activations" in line
    assert f"{_log.format_bytes(fc.static_bytes)} of parameters and static inputs (free)" in line
    assert any(m.startswith(f"saved {report.saved[0].name} ") for m in messages)


def test_log_env_var_attaches_one_stderr_handler(monkeypatch):
    before = list(_log.logger.handlers)
    level = _log.logger.level
    try:
        assert _log.configure_from_env("debug") == logging.DEBUG
        assert _log.configure_from_env("info") == logging.INFO
        added = [h for h in _log.logger.handlers if h not in before]
        assert len(added) == 1
        assert _log.configure_from_env("loud") is None
    finally:
        for h in list(_log.logger.handlers):
            if h not in before:
                _log.logger.removeHandler(h)
        _log._env_handler = None
        _log.logger.setLevel(level)


def test_log_decision_is_a_torch_structured_trace_artifact(report):
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append(record)

    trace_log = logging.getLogger("torch.__trace")
    handler = Keep()
    trace_log.addHandler(handler)
    try:
        _log.log_decision(report.decision, decide_s=0.25)
    finally:
        trace_log.removeHandler(handler)
    ours = [r for r in records
            if r.metadata.get("artifact", {}).get("name") == "fusioncut_decision"]
    assert len(ours) == 1, [r.metadata for r in records]
    assert ours[0].metadata["artifact"]["encoding"] == "json"
    payload = json.loads(ours[0].payload)
    assert payload["decide_s"] == 0.25
    assert {s["name"] for s in payload["saved"]} == {s.name for s in report.saved}


def test_explain_refuses_a_graph_that_falls_back_to_torch(captured):
    jm = copy.deepcopy(captured.joint_module)
    first = next(iter(jm.graph.find_nodes(op="placeholder")))
    with jm.graph.inserting_after(first):
        hop = jm.graph.call_function(torch.ops.higher_order.hints_wrapper, (first,))
    hop.meta["val"] = (first.meta["val"],)  # a HOP whose effects fusioncut does not model
    with pytest.raises(ValueError, match="explain_joint: the joint graph contains higher-order "
                                         "op .*falls back to PyTorch's partitioner"):
        explain_joint(jm, num_fwd_outputs=captured.num_fwd_outputs, compare=False)


class _ScaledByConstant(nn.Module):
    """A tensor literal in ``forward`` becomes a real ``_tensor_constant`` in the joint graph."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        return (self.lin(x).tanh() * torch.tensor([1.0, 2.0, 3.0, 4.0])).sum()


def test_capture_keeps_real_tensor_constants_real():
    cap = capture(_ScaledByConstant(), torch.randn(2, 4))
    constants = [getattr(cap.joint_module, n.target)
                 for n in cap.joint_module.graph.find_nodes(op="get_attr")]
    assert constants and all(type(c) is torch.Tensor and c.device.type == "cpu"
                             for c in constants)
    assert isinstance(explain(_ScaledByConstant(), torch.randn(2, 4)), Report)


def test_explain_reasons_on_a_device_name_prices_and_pytorch_runs_alike(captured):
    """On a device without a budget the bans stand and every recomputation has a price, no
    dearer than saving; in memory mode PyTorch runs with aggressive_recomputation."""
    r = explain_joint(captured.joint_module, num_fwd_outputs=captured.num_fwd_outputs,
                      joint_inputs=captured.joint_inputs,
                      static_lifetime_input_indices=captured.static_lifetime_input_indices,
                      options=Options(device="cpu", mode="memory"))
    assert r.setting == "mode=memory, device=cpu" and not r.lifted
    real = [v for v in r.recomputed if not v.is_view]
    assert real and all(v.kind in ("priced", "annotation") for v in real)
    for v in real:
        if v.kind == "priced":
            assert " on cpu, " in v.why and ("cheaper than saving it" in v.why
                                             or "no dearer than saving it" in v.why), v.why
    assert not {v.name for v in r.recomputed} & {b.name for b in r.banned}
    assert r.method("torch min-cut").setting == \
        "activation_memory_budget=1, aggressive_recomputation=True"
