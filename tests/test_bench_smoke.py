"""Smoke test of the max-flow benchmark (bench/bench_solver.py) on tiny graphs.

Every installed peer must agree with fusioncut on every family, and the CLI must run end to
end and write its JSON.
"""

import json

import numpy as np
import pytest

import bench_solver  # noqa: E402  (bench/ is on sys.path: tests/conftest.py)
import graphs  # noqa: E402
import peers  # noqa: E402

fusioncut = pytest.importorskip("fusioncut")
if not hasattr(fusioncut, "min_cut"):
    pytest.skip("fusioncut.min_cut is not built yet", allow_module_level=True)

TINY = [graphs.layered(300, 1), graphs.random_dag(300, 1), graphs.grid(300, 1)]


def test_generators_are_seeded_and_well_formed():
    for family, make in graphs.FAMILIES.items():
        a, b = make(500, 7), make(500, 7)
        assert np.array_equal(a.src, b.src) and np.array_equal(a.capacity, b.capacity), family
        assert a.src.dtype == a.dst.dtype == a.capacity.dtype == np.int64
        assert np.all(a.src != a.dst)
        assert np.unique(a.src * a.num_nodes + a.dst).size == a.num_edges  # no duplicates
        assert a.src.max() < a.num_nodes and a.dst.max() < a.num_nodes


def test_recorded_networks_load_with_their_value():
    net = graphs.load_recorded("gpt12")
    assert net.source != net.sink and net.expected_value > 0
    assert fusioncut.min_cut(
        net.num_nodes, net.src, net.dst, net.capacity, net.source, net.sink
    ).value == net.expected_value


@pytest.mark.parametrize("tool", [t for t in peers.PEERS if t != peers.FUSIONCUT])
def test_peer_agrees_with_fusioncut(tool):
    peer = peers.PEERS[tool]
    if not peer.available():
        pytest.importorskip(peer.module)
    for net in TINY:
        result = bench_solver.run_graph(net, [peers.FUSIONCUT, tool], repeats=1, budget_s=0)
        assert result.cells[peers.FUSIONCUT].status == "ok", result.cells
        assert result.cells[tool].status in ("ok", "skipped"), (net.name, result.cells[tool])


def test_mismatch_is_reported():
    net = graphs.layered(300, 1)
    wrong = graphs.Network(**{**net.__dict__, "expected_value": 1})
    result = bench_solver.run_graph(wrong, [peers.FUSIONCUT], repeats=1, budget_s=0)
    assert result.cells[peers.FUSIONCUT].status == "mismatch"


def test_cli_quick_run_writes_json(tmp_path, capsys):
    out = tmp_path / "solver.json"
    tools = [t for t in ("fusioncut", "ortools", "nx_preflow_push") if t in peers.available_peers()]
    code = bench_solver.main(
        ["--quick", "--sizes", "300", "--families", "layered", "grid", "--tools", *tools,
         "--json", str(out)]
    )
    assert code == 0
    report = json.loads(out.read_text())
    assert [g["name"] for g in report["graphs"]] == ["layered-300", "grid-300"]
    assert all(
        c["status"] == "ok" for g in report["graphs"] for c in g["results"].values()
    )
    assert "Summary" in capsys.readouterr().out
