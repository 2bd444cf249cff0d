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
