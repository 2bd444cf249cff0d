"""fusioncut.report.plot: the cut drawing (SVG) and the bytes chart (PNG) are produced and show the
partition the report describes."""

from __future__ import annotations

import importlib.util
import xml.etree.ElementTree as ET

import pytest
import torch

from fusioncut.demo import DemoConfig, DemoGPT, demo_inputs
from fusioncut.report import explain
from fusioncut.report.plot import COLORS, bytes_chart, cut_svg, write_cut_svg

pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning")
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def report():
    cfg = DemoConfig(n_layer=2, d_model=32, n_head=4, block_size=16, vocab=64, batch=2)
    torch.manual_seed(0)
    return explain(DemoGPT(cfg), *demo_inputs(cfg))


def _fills(root):
    return [r.get("fill") for r in root.iter(f"{SVG}rect")]


def test_plot_svg_draws_the_cut_and_its_nodes(report, tmp_path):
    path = write_cut_svg(report, tmp_path / "cut.svg")
    text = path.read_text()
    assert len(text) > 5_000
    root = ET.fromstring(text)  # well-formed XML
    fills = _fills(root)
    # Saved values (forward side of the cut) and recomputed nodes (backward side) are drawn.
    assert fills.count(COLORS["saved"]) >= 5
    assert fills.count(COLORS["recomputed"]) >= 5
    assert COLORS["backward"] in fills and COLORS["banned"] in fills
    # One dashed cut line per strip; every node lies in the strip of the nearest line: saved
    # nodes just above theirs, recomputed ones just below.
    cuts = sorted(float(ln.get("y1")) for ln in root.iter(f"{SVG}line")
                  if ln.get("stroke-dasharray"))
    assert cuts
    saved_names = {s.name for s in report.saved}
    for g in root.iter(f"{SVG}g"):
        title, rect = g.find(f"{SVG}title"), g.find(f"{SVG}rect")
        if title is None or rect is None:
            continue
        name = title.text.split(" = ")[0]
        y = float(rect.get("y"))
        nearest = min(cuts, key=lambda c: abs(c - y))
        if rect.get("fill") == COLORS["saved"]:
            assert name in saved_names and y < nearest
        if rect.get("fill") == COLORS["recomputed"]:
            assert y > nearest


def test_plot_svg_fits_a_screen_and_folds_repeated_layers(report):
    """A 2-layer model at screen width: the second block, with the first's ops and fates, is
    one box per band; every node's full name is in its tooltip."""
    root = ET.fromstring(cut_svg(report))
    assert float(root.get("width")) <= 1400
    texts = [t.text or "" for t in root.iter(f"{SVG}text")]
    assert any(t.startswith("\u2261 blocks.0") for t in texts)
    titles = [g.find(f"{SVG}title").text for g in root.iter(f"{SVG}g")
              if g.find(f"{SVG}title") is not None]
    assert any("blocks.1" in t for t in titles)
    unfolded = ET.fromstring(cut_svg(report, fold=False))
    assert not any((t.text or "").startswith("\u2261") for t in unfolded.iter(f"{SVG}text"))
    assert len(list(unfolded.iter(f"{SVG}g"))) > len(list(root.iter(f"{SVG}g")))
    narrow = ET.fromstring(cut_svg(report, width=600))
    assert float(narrow.get("width")) <= 900  # the heading's minimum
    assert len([ln for ln in narrow.iter(f"{SVG}line") if ln.get("stroke-dasharray")]) > \
        len([ln for ln in root.iter(f"{SVG}line") if ln.get("stroke-dasharray")])


def test_plot_svg_collapses_large_graphs_into_counted_boxes(report):
    small = ET.fromstring(cut_svg(report, hops=0, max_columns=4))
    texts = [t.text or "" for t in small.iter(f"{SVG}text")]
    assert any(t.endswith(" nodes") and t.startswith("\u2026") for t in texts)  # window edges
    assert float(small.get("width")) <= 1400
    full = ET.fromstring(cut_svg(report, hops=2, max_columns=400))
    assert len(list(full.iter(f"{SVG}g"))) > len(list(small.iter(f"{SVG}g")))


def test_plot_svg_rejects_bad_arguments(report):
    with pytest.raises(ValueError, match="hops"):
        cut_svg(report, hops=-1)
    with pytest.raises(ValueError, match="focus"):
        cut_svg(report, max_columns=2, focus="no_such_node")
    with pytest.raises(ValueError, match="width"):
        cut_svg(report, width=10)
    with pytest.raises(ValueError, match="index"):
        cut_svg(report, graph=3)


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None, reason="needs matplotlib")
def test_plot_bytes_chart_png(report, tmp_path):
    path = bytes_chart(report, tmp_path / "bytes.png")
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) > 20_000
    svg = bytes_chart(report, tmp_path / "bytes.svg").read_text()
    assert "fusioncut" in svg and "default_partition" in svg


def test_charts_units_follow_the_data(report, tmp_path):
    from fusioncut.report.charts import byte_unit, time_unit

    assert byte_unit(40 * 1024) == (1024.0, "KiB") and byte_unit(3 * 2**30)[1] == "GiB"
    assert byte_unit(100) == (1.0, "B")
    assert time_unit(2e-6)[1] == "us" and time_unit(0.5)[1] == "ms" and time_unit(3.0)[1] == "s"
    if importlib.util.find_spec("matplotlib") is None:
        pytest.skip("needs matplotlib")
    svg = bytes_chart(report, tmp_path / "bytes.svg").read_text()
    largest = max(m.saved_bytes for m in report.methods)
    assert f">{byte_unit(largest)[1]}<" in svg.replace("</tspan>", "<") or \
        byte_unit(largest)[1] in svg
    assert f"torch {torch.__version__}" in svg and report.setting in svg


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None, reason="needs matplotlib")
def test_charts_pareto_labels_overlap_nothing(tmp_path):
    """Budget labels of coinciding and crowded plans: one label per position, no two label
    boxes overlapping, all inside the axes; the title names the device and torch."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from fusioncut.report.charts import _place_labels, plot_pareto
    from fusioncut.report.pareto import BudgetRow, ParetoReport, PlanScore

    def score(kib, us):
        return PlanScore(saved_bytes=int(kib * 1024), recompute_seconds=us * 1e-6,
                         torch_flops=1.0, peak_bytes=int(2 * kib * 1024), num_saved=1,
                         num_recomputed=1)

    rows = [BudgetRow(b / 10, score(100 - 3 * b, 2 * b), score(100 - 4 * b, 2.2 * b))
            for b in range(11)]
    rep = ParetoReport(num_nodes=10, device="cpu", frontier=[r.fusioncut for r in rows],
                       rows=rows)
    svg = plot_pareto(rep, tmp_path / "p.svg").read_text()
    assert "priced on cpu" in svg and f"torch {torch.__version__}" in svg

    fig, ax = plt.subplots(figsize=(6, 4))
    points = {(float(k % 4), float(k // 4)): [f"fc {k / 10:g}"] for k in range(12)}
    ax.scatter([p[0] for p in points], [p[1] for p in points])
    ax.margins(0.1)
    fig.tight_layout()
    _place_labels(fig, ax, points)
    renderer = fig.canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for t in ax.texts]
    assert len(boxes) == len(points)
    inside = ax.get_window_extent(renderer)
    for k, a in enumerate(boxes):
        assert inside.x0 <= a.x0 and a.x1 <= inside.x1 and inside.y0 <= a.y0 <= inside.y1
        for b in boxes[k + 1:]:
            assert not a.overlaps(b), (a, b)
    plt.close(fig)
