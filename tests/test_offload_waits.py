"""Paced waits on a side stream: with ``activation_offload_separate_stream`` and no
``sink_wait``, torch's pass waits for each copy to the host right after issuing it; fusioncut
moves each wait to where the link has finished that copy. The walk, the plan's waits, the peak
that frees each device copy at its wait, and the emitted forward whose waits sit there (built
on the CPU: the side stream's ops run only on an accelerator, so these graphs are checked, not
run). And the backward's side: torch's reload prefetch queue as ``_core.prefetch_times``
walks it."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import torch
from hypothesis import example, given, settings
from hypothesis import strategies as st

import fusioncut
from fusioncut import _torch_compat, _torch_offload
from fusioncut.device import PRESETS
from fusioncut.emit import build_modules
from fusioncut.emit.offload import pace_waits
from fusioncut.emit.template import Template
from fusioncut.emit.modules import build_modules_and_schedule
from fusioncut.graph import Role
from fusioncut.peak import estimate_peak
from fusioncut.peak_offload import OffloadedValues, paced_waits
from fusioncut.report import capture
from models import OffloadMlp, decide_captured, offload_mlp

pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning")

H100 = PRESETS["h100"]
FAST_LINK = dataclasses.replace(H100, name="fast-link", host_bandwidth=H100.bandwidth,
                                offload_hidden=0.5)
STREAM = dict(activation_offload_separate_stream=True, activation_reload_prefetch=False,
              activation_offload_sink_wait=False)


@pytest.fixture(scope="module")
def mlp():
    return capture(offload_mlp, torch.randn(512, 32), torch.randn(32, 32, requires_grad=True),
                   torch.randn(32, 32, requires_grad=True), via="aot")


def _paced_decision(cap, **settings):
    with _torch_compat.functorch_config().patch(**{**STREAM, **settings}):
        return decide_captured(cap, device=FAST_LINK, offload="auto", memory_budget=0.0)


def test_the_link_moves_one_copy_at_a_time_and_each_wait_follows_its_copy():
    clock = np.cumsum([1.0, 1.0, 1.0, 1.0, 1.0, 1.0])  # node i ends at i + 1 seconds
    # Copy 0 issued after node 0 (t = 1) takes 1.5 s: done at 2.5, inside node 2: wait before 3.
    # Copy 1 issued after node 1 waits for the link: 2.5 + 1 = 3.5, inside node 3: before 4.
    assert paced_waits(np.array([0, 1]), np.array([1.5, 1.0]), clock).tolist() == [3, 4]
    # The order of issue, not of the arguments, is the link's.
    assert paced_waits(np.array([1, 0]), np.array([1.0, 1.5]), clock).tolist() == [4, 3]
    # A copy done as its node ends is waited for right after it; one the forward cannot
    # cover is waited for at the forward's end (len(clock)).
    assert paced_waits(np.array([2]), np.array([0.0]), clock).tolist() == [3]
    assert paced_waits(np.array([2, 3]), np.array([1.0, 100.0]), clock).tolist() == [4, 6]
    assert paced_waits(np.zeros(0, np.int64), np.zeros(0), clock).tolist() == []


def _one_at_a_time(issue, copy_seconds, clock):
    out, free = [0] * len(issue), 0.0
    for k in sorted(range(len(issue)), key=lambda k: (issue[k], k)):
        free = max(clock[issue[k]], free) + copy_seconds[k]
        done = next((i for i, c in enumerate(clock) if c >= free), len(clock))
        out[k] = min(max(done + 1, issue[k] + 1), len(clock))
    return out


@settings(max_examples=200, deadline=None)
# Two copies of half an ulp of 3 s: an unrolled sum of their seconds rounds past the node
# boundary where the copy-by-copy walk does not (found by the search below).
@example(case=(np.array([0.0, 3.0, 3.0]), [(0, 2.220446049250313e-16),
                                           (1, 2.220446049250313e-16)]))
@given(st.lists(st.floats(0, 3), min_size=1, max_size=12).flatmap(lambda seconds: st.tuples(
    st.just(np.cumsum(seconds)),
    st.lists(st.tuples(st.integers(0, len(seconds) - 1), st.floats(0, 5)), max_size=8))))
def test_paced_waits_follow_the_link_copy_by_copy(case):
    clock, copies = case
    issue = np.array([c[0] for c in copies], dtype=np.int64)
    seconds = np.array([c[1] for c in copies], dtype=np.float64)
    assert paced_waits(issue, seconds, clock).tolist() == _one_at_a_time(
        issue.tolist(), seconds.tolist(), clock.tolist())


def test_a_plan_paces_its_waits_only_on_a_side_stream_without_sink_wait(mlp):
    d = _paced_decision(mlp)
    assert len(d.offloaded)
    waits = d.offload_waits
    names = {node.name: i for i, node in enumerate(d.graph.nodes)}
    assert set(waits) == {node.name for node in d.offloaded_nodes}
    for value, at in waits.items():
        assert at is None or (names[at] > names[value]
                              and d.graph.role[names[at]] == Role.FORWARD)
    assert _paced_decision(mlp, activation_offload_sink_wait=True).offload_waits == {}
    assert _paced_decision(mlp, activation_offload_separate_stream=False).offload_waits == {}
    assert decide_captured(mlp, device=FAST_LINK, offload="auto").offload_waits == {}


def test_a_paced_copy_is_held_longer_than_at_once_and_shorter_than_to_the_end(mlp):
    d = _paced_decision(mlp)
    graph, saved, away = d.graph, d.saved, d.offloaded
    link = d.budget.frontier.generator.bnet.offload.link
    values = link.values(away, graph.nbytes)
    assert values.wait_before is not None and len(values.wait_before) == len(away)
    at_once = estimate_peak(graph, saved, offloaded=OffloadedValues(away))
    paced = estimate_peak(graph, saved, offloaded=values)
    held = estimate_peak(graph, saved, offloaded=OffloadedValues(away, hold_forward=True))
    assert at_once.forward_peak <= paced.forward_peak <= held.forward_peak
    # A link too slow for the forward's compute holds every copy to the forward's end.
    slow = dataclasses.replace(link, device=dataclasses.replace(H100, host_bandwidth=1.0))
    waits = slow.wait_before(away, graph.nbytes)
    assert (waits == graph.num_nodes).all()
    stalled = estimate_peak(graph, saved, offloaded=slow.values(away, graph.nbytes))
    assert stalled.forward_peak == held.forward_peak


def _stream_modules(cap, d, waits):
    """The forward and backward of ``d`` with torch's side-stream pass run on them (CPU graphs:
    built, never run)."""
    fw, bw = build_modules(cap.joint_module, d.saved_values, d.saved_sym_nodes,
                           num_fwd_outputs=cap.num_fwd_outputs)
    output = fw.graph.find_nodes(op="output")[0]
    names = {node.name for node in d.offloaded_nodes}
    for node in output.args[0][cap.num_fwd_outputs:]:
        if isinstance(node, torch.fx.Node) and node.name in names:
            node.meta["should_offload"] = True
    with _torch_compat.functorch_config().patch(**STREAM):
        _torch_offload.activation_offloading_pass()(fw, bw, cap.num_fwd_outputs,
                                                   _torch_compat.ordered_set([]))
    return fw, pace_waits(fw, waits)


def _wait_positions(fw):
    copy_op, wait_op = _torch_offload.side_stream_offload_ops()
    nodes = list(fw.graph.nodes)
    out = {}
    for i, node in enumerate(nodes):
        if node.target is wait_op and node.args[0].target is copy_op:
            out[node.args[0].args[0].name] = (nodes[i + 1].name, i,
                                              nodes.index(node.args[0]))
    return out


def test_the_emitted_forward_waits_where_the_plan_says(mlp):
    d = _paced_decision(mlp)
    waits = d.offload_waits
    fw, moved = _stream_modules(mlp, d, waits)
    fw.graph.lint()
    placed = _wait_positions(fw)
    assert set(placed) == set(waits) and moved > 0
    for value, at in waits.items():
        follower, wait_at, copy_at = placed[value]
        assert wait_at > copy_at  # after its copy, never before
        assert follower == ("output" if at is None else at) or follower.startswith(
            ("cpu_offload_", "async_cpu_offload_"))  # another wait moved to the same node
    # Nothing is moved earlier: a wait whose node precedes it stays where torch put it.
    unpaced, _ = _stream_modules(mlp, d, {})
    first = {v: p[1] for v, p in _wait_positions(unpaced).items()}
    backwards = {v: next(iter(d.graph.nodes)).name for v in waits}
    fw_back, none_moved = _stream_modules(mlp, d, backwards)
    assert none_moved == 0
    assert {v: p[1] for v, p in _wait_positions(fw_back).items()} == first


def test_partition_and_a_replayed_region_carry_the_waits(mlp, monkeypatch):
    d = _paced_decision(mlp)
    seen = []
    real = pace_waits

    def spy(fw_module, waits):
        seen.append(dict(waits))
        return real(fw_module, waits)

    # On the CPU the side stream cannot run: the modules are built with torch's synchronous
    # copies, and the waits reach the emission all the same.
    monkeypatch.setattr("fusioncut.emit.offload.pace_waits", spy)
    monkeypatch.setattr("fusioncut.emit.offload.side_stream_problem", lambda nodes: None)
    with _torch_compat.functorch_config().patch(**STREAM):
        fw, _ = fusioncut.partition(
            mlp.joint_module, mlp.joint_inputs, num_fwd_outputs=mlp.num_fwd_outputs,
            options=fusioncut.Options(device=FAST_LINK, offload="auto", memory_budget=0.0))
        assert seen and seen[-1] == d.offload_waits
        _, _, sched = build_modules_and_schedule(
            mlp.joint_module, d.saved_values, d.saved_sym_nodes,
            num_fwd_outputs=mlp.num_fwd_outputs, offloaded=d.offloaded_nodes,
            offload_waits=d.offload_waits)
        template = Template.from_schedule(sched, mlp.num_fwd_outputs, d.offloaded_nodes,
                                          d.offload_waits)
        template.replay(mlp.joint_module, list(mlp.joint_module.graph.nodes))
    assert len(template.waits) == len(d.offload_waits)
    assert seen[-1] == d.offload_waits
    # explain says where the forward waits for each paced copy.
    with _torch_compat.functorch_config().patch(**STREAM):
        report = fusioncut.explain(OffloadMlp(), torch.randn(512, 32), options=fusioncut.Options(
            device=FAST_LINK, offload="auto", memory_budget=0.0))
    gone = [v for v in report.values if v.fate == "offloaded"]
    assert gone and all("the forward waits for its copy" in v.why for v in gone)
    assert any("where the link has moved it" in v.why for v in gone)


# --- the backward's reloads (torch's prefetch queue, walked in C++) ----------------------------


def _prefetch_by_definition(use, lead, seconds):
    out, queue, remaining, at = [-1] * len(use), [], [], 0
    for t in range(len(seconds) - 1, -1, -1):
        if queue:
            remaining[0] -= seconds[t]
            if remaining[0] <= 0:
                out[queue.pop(0)] = t
                remaining.pop(0)
        while at < len(use) and use[at] >= t:
            k, at = at, at + 1
            if lead[k] <= 0:
                out[k] = use[k]
            else:
                queue.append(k)
                remaining.append(lead[k])
    return out


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(0, 3), max_size=12).flatmap(lambda seconds: st.tuples(
    st.just(seconds),
    st.lists(st.tuples(st.integers(0, len(seconds)), st.floats(-1, 6)), max_size=8))))
def test_prefetch_times_follow_torchs_queue(case):
    seconds, reloads = case
    reloads = sorted(reloads, key=lambda r: -r[0])  # the order torch meets them
    use = np.array([r[0] for r in reloads], dtype=np.int64)
    lead = np.array([r[1] for r in reloads], dtype=np.float64)
    got = fusioncut._core.prefetch_times(use, lead, np.array(seconds, dtype=np.float64))
    assert got.tolist() == _prefetch_by_definition(use.tolist(), lead.tolist(), seconds)


@pytest.mark.parametrize("use, lead, seconds, error, match", [
    ([1, 2], [1.0, 1.0], [1.0, 1.0, 1.0], ValueError, "not rise"),
    ([4], [1.0], [1.0, 1.0], ValueError, "must lie in \\[0, 2\\]"),
    ([-1], [1.0], [1.0], ValueError, "must lie in"),
    ([0], [1.0, 2.0], [1.0], ValueError, "equal lengths"),
])
def test_prefetch_times_refuses_malformed_reloads(use, lead, seconds, error, match):
    with pytest.raises(error, match=match):
        fusioncut._core.prefetch_times(np.array(use, dtype=np.int64), np.array(lead),
                                       np.array(seconds))
    with pytest.raises(TypeError, match="incompatible"):
        fusioncut._core.prefetch_times(np.array(use, dtype=np.int32), np.array(lead),
                                       np.array(seconds))
