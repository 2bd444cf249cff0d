"""Charts of reports (matplotlib): saved bytes by method, and the budget frontier.

    bytes_chart(report, path)    activations and traffic per method; activations by the op
                                 that produced them
    plot_pareto(report, path)    recompute time and estimated peak against saved activation
                                 memory: fusioncut's frontier, both partitioners' plans at
                                 each budget, labelled with the budgets that chose them

Every chart picks its units from its data (B, KiB, MiB, GiB; ns, us, ms, s), keeps legends
and labels off the data, and names the device the costs were priced on and the torch version
in its title. The format follows the file's extension (PNG, SVG, PDF).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch

from fusioncut._files import plot_problem
from fusioncut._validate import shown

__all__ = ["bytes_chart", "byte_unit", "plot_pareto", "time_unit"]

_PALETTE = {"fusioncut": "#2f855a", "torch min-cut": "#dd6b20", "default_partition": "#718096"}
_DPI = 110


def byte_unit(largest: float) -> tuple[float, str]:
    """(divisor, name) that shows ``largest`` bytes as a number in [1, 1024)."""
    for k, name in enumerate(("B", "KiB", "MiB", "GiB")):
        if largest < 1024.0 ** (k + 1) or name == "GiB":
            return 1024.0 ** k, name
    return 1.0, "B"


def time_unit(largest: float) -> tuple[float, str]:
    """(divisor, name) that shows ``largest`` seconds as a number in [1, 1000)."""
    for scale, name in ((1e-9, "ns"), (1e-6, "us"), (1e-3, "ms")):
        if largest < scale * 1000:
            return scale, name
    return 1.0, "s"


def _check_path(function: str, path: Any) -> None:
    problem = plot_problem(path)
    if problem is not None:
        raise ValueError(f"{function}: path {shown(path)}: {problem}")


def _pyplot():
    try:
        import matplotlib

        matplotlib.use("Agg", force=False)
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise ImportError("fusioncut charts need matplotlib: pip install matplotlib") from e
    return plt


def _subtitle(where: str) -> str:
    return f"{where} \u00b7 torch {torch.__version__}"


def _number(v: float) -> str:
    """Three significant digits, no exponent for the numbers a chart shows."""
    return f"{v:.3g}" if v < 1000 else f"{v:.0f}"


def bytes_chart(report: Any, path: str | Path, *, top_ops: int = 8,
                title: str | None = None) -> Path:
    """Bar chart: activations and traffic per method, and activations per op per method.

    Needs matplotlib (``pip install matplotlib``); the format follows ``path``'s extension.
    Rejects a ``path`` that is no .png, .svg or .pdf file or cannot be written
    (``ValueError``), before anything is drawn.
    """
    _check_path("bytes_chart", path)
    plt = _pyplot()
    methods = [m for m in report.methods if m.error is None]
    names = [m.method for m in methods]
    colors = [_PALETTE.get(nm, "#4c72b0") for nm in names]
    totals: dict[str, int] = {}
    for m in methods:
        for op, b in m.bytes_by_op.items():
            totals[op] = totals.get(op, 0) + b
    ops = [op for op, _ in sorted(totals.items(), key=lambda kv: -kv[1])][:top_ops]
    has_other = len(totals) > len(ops)
    largest = max([max(m.saved_bytes, m.traffic_bytes) for m in methods] or [1])
    div, unit = byte_unit(largest)

    fig, (ax0, ax1) = plt.subplots(1, 2, figsize=(12, 5.2),
                                   gridspec_kw={"width_ratios": [1, 2.2]})
    width = 0.8 / max(1, len(methods))
    xs = np.arange(2)
    for k, m in enumerate(methods):
        vals = [m.saved_bytes / div, m.traffic_bytes / div]
        bars = ax0.bar(xs + (k - (len(methods) - 1) / 2) * width, vals, width, label=m.method,
                       color=colors[k])
        ax0.bar_label(bars, labels=[_number(v) for v in vals], fontsize=8, padding=2)
    ax0.set_xticks(xs, ["activations kept", "fwd\u2192bwd traffic"])
    ax0.set_ylabel(unit)
    ax0.set_title("totals", fontsize=10)
    ax0.margins(y=0.15)  # room for the bar labels

    labels = ops + (["other"] if has_other else [])
    xs = np.arange(len(labels))
    largest_op = max([b for m in methods for b in m.bytes_by_op.values()] or [1])
    div1, unit1 = byte_unit(largest_op)
    for k, m in enumerate(methods):
        vals = [m.bytes_by_op.get(op, 0) / div1 for op in ops]
        if has_other:
            vals.append(sum(b for op, b in m.bytes_by_op.items() if op not in ops) / div1)
        ax1.bar(xs + (k - (len(methods) - 1) / 2) * width, vals, width, color=colors[k])
    ax1.set_xticks(xs, [lb.replace("aten.", "") for lb in labels], rotation=30, ha="right",
                   fontsize=8)
    ax1.set_ylabel(f"activations kept ({unit1})")
    ax1.set_title("activations kept, by the op that produced them", fontsize=10)
    for ax in (ax0, ax1):
        ax.spines[["top", "right"]].set_visible(False)
        ax.grid(axis="y", alpha=0.3)
    graphs = len(getattr(report, "graphs", []) or [])
    where = report.setting + (f", {graphs} joint graphs" if graphs > 1 else "")
    fig.suptitle((title or "Saved for backward: fusioncut and PyTorch's partitioners")
                 + f"\n{_subtitle(where)}", fontsize=11)
    fig.legend(*ax0.get_legend_handles_labels(), loc="lower center", ncol=len(methods),
               frameon=False, fontsize=9)
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    path = Path(path)
    fig.savefig(path, dpi=_DPI)
    plt.close(fig)
    return path


# --- the frontier ----------------------------------------------------------------------------

# method attribute, legend name, colour, marker, marker size
_METHODS = (("fusioncut", "fusioncut at budgets", _PALETTE["fusioncut"], "o", 36),
            ("torch", "PyTorch at budgets", _PALETTE["torch min-cut"], "s", 30))


def plot_pareto(report: Any, path: str | Path, title: str = "") -> Path:
    """Recompute time and estimated peak against saved activation memory: fusioncut's
    frontier and both partitioners' plans at each budget, each labelled with the budgets
    that chose it (PNG, SVG or PDF by the extension; needs matplotlib). Rejects a ``path``
    that is no .png, .svg or .pdf file or cannot be written (``ValueError``), before anything
    is drawn."""
    _check_path("plot_pareto", path)
    plt = _pyplot()
    points = {attr: [(r.budget, getattr(r, attr)) for r in report.rows
                     if getattr(r, attr).error is None] for attr, *_ in _METHODS}
    every = list(report.frontier) + [s for pts in points.values() for _, s in pts]
    bdiv, bunit = byte_unit(max([s.saved_bytes for s in every] + [s.peak_bytes for s in every]
                                + [1]))
    # With offloading the time axis adds the transfers' exposed seconds to recomputation.
    offloads = [s for s in report.frontier if getattr(s, "offloaded_bytes", 0)]
    extra = (lambda s: getattr(s, "offload_seconds", 0.0)) if offloads else (lambda s: 0.0)
    tdiv, tunit = time_unit(max([s.recompute_seconds + extra(s) for s in every] + [1e-9]))
    fig, axes = plt.subplots(1, 2, figsize=(12, 5.4))
    what = "recompute + transfer" if offloads else "recompute"
    panels = ((axes[0], lambda s: (s.recompute_seconds + extra(s)) / tdiv,
               f"estimated {what} time ({tunit})"),
              (axes[1], lambda s: s.peak_bytes / bdiv, f"estimated peak memory ({bunit})"))
    pending = []  # (axes, labels): placed once the layout is final
    for ax, y_of, ylabel in panels:
        ax.plot([s.saved_bytes / bdiv for s in report.frontier],
                [y_of(s) for s in report.frontier], "-", color=_PALETTE["fusioncut"], lw=1.2,
                alpha=0.7, label="fusioncut frontier", zorder=1)
        if offloads:
            ax.scatter([s.saved_bytes / bdiv for s in offloads], [y_of(s) for s in offloads],
                       facecolors="none", edgecolors=_PALETTE["fusioncut"], marker="D", s=16,
                       linewidths=0.8, zorder=2, label="frontier plans that offload")
        labels: dict[tuple[float, float], list[str]] = {}
        for attr, name, color, marker, size in _METHODS:
            pts = points[attr]
            ax.scatter([s.saved_bytes / bdiv for _, s in pts], [y_of(s) for _, s in pts],
                       color=color, marker=marker, s=size, zorder=3, label=name,
                       edgecolors="white", linewidths=0.6)
            for xy, budgets in _group(pts, lambda s, y_of=y_of: (s.saved_bytes / bdiv,
                                                                   y_of(s))).items():
                tag = "fc" if attr == "fusioncut" else "PT"
                labels.setdefault(xy, []).append(f"{tag} {_budgets(budgets)}")
        pending.append((ax, labels))
        ax.set_xlabel(f"saved activation memory on the device ({bunit})")
        ax.set_ylabel(ylabel)
        ax.grid(alpha=0.3)
        ax.margins(x=0.1, y=0.12)  # room for the labels at the edges
        ax.spines[["top", "right"]].set_visible(False)
    axes[0].set_title(f"{what} against memory", fontsize=10)
    axes[1].set_title("estimated peak against memory", fontsize=10)
    graphs = f" in {len(report.parts)} joint graphs" if getattr(report, "parts", None) else ""
    head = title or "fusioncut pareto"
    fig.suptitle(f"{head}: {report.num_nodes} joint-graph nodes{graphs}\n"
                 + _subtitle(f"recomputation priced on {report.device}"), fontsize=11)
    handles, names = axes[0].get_legend_handles_labels()
    fig.legend(handles, names, loc="lower center", bbox_to_anchor=(0.5, 0.035),
               ncol=len(names), frameon=False, fontsize=9)
    fig.text(0.5, 0.01, "labels: the budgets that chose a plan (fc: fusioncut, PT: PyTorch; "
             "each partitioner's budget is a fraction of its own range)", ha="center",
             va="bottom", fontsize=7.5, color="#555")
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    for ax, labels in pending:
        _place_labels(fig, ax, labels)
    path = Path(path)
    fig.savefig(path, dpi=_DPI)
    plt.close(fig)
    return path


def _group(pts, xy_of) -> dict[tuple[float, float], list[float]]:
    """Budgets per plan position (budgets that chose the same plan share one label)."""
    out: dict[tuple[float, float], list[float]] = {}
    for b, s in pts:
        x, y = xy_of(s)
        out.setdefault((round(x, 9), round(y, 9)), []).append(b)
    return out


def _budgets(budgets: list[float]) -> str:
    lo, hi = min(budgets), max(budgets)
    return f"{lo:g}" if lo == hi else f"{lo:g}-{hi:g}"


# Candidate label offsets in points, nearest first; but for the first, a leader line ties the
# label to its point (a label below-right of one point can sit next to the next one).
_OFFSETS = tuple((dx, dy) for r in (1, 2, 3, 4) for dx, dy in
                 ((6 * r, 4 + 8 * (r - 1)), (-6 * r, -12 - 8 * (r - 1)),
                  (-6 * r, 4 + 8 * (r - 1)), (6 * r, -12 - 8 * (r - 1))))


def _place_labels(fig, ax, labels: dict[tuple[float, float], list[str]]) -> None:
    """Write each point's label at the nearest offset where it overlaps no marker and no
    label placed before it (with a few points to spare) and stays inside the axes; failing
    that, where it overlaps least. Points that coincide share one label."""
    renderer = fig.canvas.get_renderer()
    bounds = ax.get_window_extent(renderer)
    pad = 3.0 * fig.dpi / 72  # points to pixels
    markers = {}
    for x, y in labels:
        px, py = ax.transData.transform((x, y))
        markers[(x, y)] = (px - pad, py - pad, px + pad, py + pad)
    placed: list[tuple[float, float, float, float]] = []
    for (x, y), parts in sorted(labels.items(), key=lambda kv: (kv[0][0], -kv[0][1])):
        text = ", ".join(parts)
        best = None
        for k, (dx, dy) in enumerate(_OFFSETS):
            artist = ax.annotate(text, (x, y), textcoords="offset points", xytext=(dx, dy),
                                 fontsize=7, color="#333", ha="left" if dx > 0 else "right",
                                 zorder=4)
            b = artist.get_window_extent(renderer)
            artist.remove()
            box = (b.x0 - pad, b.y0 - pad / 2, b.x1 + pad, b.y1 + pad / 2)
            outside = max(0.0, bounds.x0 - b.x0) + max(0.0, b.x1 - bounds.x1) \
                + max(0.0, bounds.y0 - b.y0) + max(0.0, b.y1 - bounds.y1)
            others = [m for xy, m in markers.items() if xy != (x, y)]  # not its own marker
            cost = sum(_overlap(box, o) for o in placed + others) + 1e3 * outside
            if best is None or cost < best[0]:
                best = (cost, k, box)
            if cost == 0:
                break
        _, k, box = best
        dx, dy = _OFFSETS[k]
        ax.annotate(text, (x, y), textcoords="offset points", xytext=(dx, dy), fontsize=7,
                    color="#333", ha="left" if dx > 0 else "right", zorder=4,
                    arrowprops=dict(arrowstyle="-", lw=0.5, color="#888", shrinkA=0,
                                    shrinkB=3) if k >= 1 else None)
        placed.append(box)


def _overlap(a, b) -> float:
    """The area two boxes (x0, y0, x1, y1) share."""
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3])
                                                            - max(a[1], b[1]))
