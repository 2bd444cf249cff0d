"""Pictures of a ``Report``: the joint graph with the cut (SVG), saved bytes by method (bars).

``cut_svg(report)`` draws the forward band above a dashed cut line and the backward band below
it, so that every edge crossing the line is a value handed from forward to backward::

      forward band     [in] ── [mm] ── [mul] ── [SAVED] ...      (saved: green, closest to
                                          │                        the line; banned: red)
    ─ ─ ─ ─ ─ ─ cut ─ ─ ─ ─ ─ ─ ─ ─ ─ ─ ─ ┼ ─ ─ ─ ─ ─ ─ ─ ─ ─ ─ ─ ─
      backward band    [RECOMPUTED] ── [mm_5] ── [mul_9] ...      (recomputed: purple)

x is the forward depth; a backward node sits under the latest forward-side value it reads,
so the backward of a layer lies under that layer's forward. A large graph keeps only the
nodes within ``hops`` edges of the cut (saved and recomputed nodes and their readers) and
collapses the rest into grey counted boxes; when more than ``max_columns`` columns remain,
a window around ``focus`` (a node name; default: the middle of the saved set) is shown and
the columns outside it collapse into boxes too. The SVG is plain text with a tooltip per
node (name, op, shape, bytes, reason); no graphviz.

``bytes_chart`` and ``plot_pareto`` (matplotlib) live in ``charts`` and are re-exported here.
"""

from __future__ import annotations

import bisect
import html
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fusioncut.graph import Role
from fusioncut.report.build import adjacency, shape_of
from fusioncut.report.charts import bytes_chart, plot_pareto
from fusioncut.report.text import format_bytes

__all__ = ["COLORS", "bytes_chart", "cut_svg", "plot_pareto", "write_cut_svg"]

COLORS = {
    "input": "#d9d9d9",
    "forward": "#cfe2f3",
    "banned": "#f4cccc",
    "saved": "#38a169",
    "recomputed": "#9f7aea",
    "backward": "#fde9c8",
    "collapsed": "#f3f3f3",
}
_STROKE = {"banned": "#cc0000", "saved": "#1c5e36", "recomputed": "#553c9a"}
_TEXT_LIGHT = {"saved", "recomputed"}
_LABELS = {
    "input": "graph input",
    "forward": "forward",
    "banned": "banned (never recomputed)",
    "saved": "saved for backward",
    "recomputed": "recomputed in backward",
    "backward": "backward",
    "collapsed": "collapsed (count)",
}

NODE_W, NODE_H, COL_GAP, ROW_GAP, GAP_W = 76, 20, 12, 6, 34
MARGIN, LEGEND_H, CUT_GAP, MAX_MERGE = 16, 58, 40, 4


@dataclass
class _Node:
    i: int
    cat: str
    band: int  # 0 forward, 1 backward
    x: tuple[int, int]  # (drawing column, forward depth)
    tip: str


def _classify(report: Any):
    """Per joint node: its category and band, or None when it is in neither module."""
    d = report.decision
    graph, policy = d.graph, d.policy
    n = graph.num_nodes
    names = [nd.name for nd in graph.nodes]
    in_bw = {nd.name for nd in report.bw_module.graph.nodes if nd.op == "call_function"}
    saved = set(int(i) for i in d.saved)
    cats: list[tuple[str, int] | None] = [None] * n
    for i in range(n):
        r = graph.role[i]
        if i in saved:
            cats[i] = ("saved", 0)
        elif r == Role.FORWARD and names[i] in in_bw:
            cats[i] = ("recomputed", 1)
        elif r in (Role.PRIMAL, Role.FWD_SEED, Role.CONSTANT):
            cats[i] = ("input", 0)
        elif r == Role.FORWARD:
            cats[i] = ("banned" if policy.ban[i] is not None else "forward", 0)
        elif r in (Role.BACKWARD, Role.TANGENT, Role.BWD_SEED):
            cats[i] = ("backward", 1)
    return cats


def _tooltip(report: Any, i: int, cat: str) -> str:
    d = report.decision
    graph, policy = d.graph, d.policy
    node = graph.nodes[i]
    val = node.meta.get("val")
    parts = [f"{node.name} = {graph.op_name(i)}", _LABELS[cat]]
    shape = shape_of(val)
    if shape:
        parts.append(f"{'x'.join(map(str, shape))} {str(val.dtype).replace('torch.', '')}, "
                     f"{format_bytes(int(graph.nbytes[i]))}")
    for s in report.saved:
        if s.name == node.name:
            parts.append(s.why)
    if policy.ban[i] is not None and cat != "saved":
        parts.append(f"banned: {policy.ban[i]}")
    return "\n".join(parts)


def _layout(report: Any, hops: int, max_columns: int, focus: str | None):
    graph = report.decision.graph
    n = graph.num_nodes
    users, inputs = adjacency(graph)
    cats = _classify(report)

    # x: forward depth for the forward band and recomputed nodes; a backward node sits under
    # the latest forward-side value it reads (the backward of a layer under the layer).
    x = [None] * n
    fmax = 0
    is_input = graph.role <= Role.CONSTANT
    for i in range(n):
        c = cats[i]
        if c is None or (c[1] == 1 and c[0] != "recomputed"):
            continue
        xs = [x[j] for j in inputs[i] if x[j] is not None]
        x[i] = (max(xs) + 1) if xs else 0
        fmax = max(fmax, x[i])
    for i in range(n):
        c = cats[i]
        if c is None or x[i] is not None:
            continue
        # Under the latest forward-side value it reads (parameters, x = 0, say nothing);
        # a pure gradient op under the earliest backward op feeding it.
        fwd = [x[j] for j in inputs[i] if x[j] is not None and not is_input[j]
               and cats[j] is not None and (cats[j][1] == 0 or cats[j][0] == "recomputed")]
        bwd = [x[j] for j in inputs[i] if x[j] is not None and not is_input[j]]
        x[i] = max(fwd) if fwd else (min(bwd) if bwd else fmax + 1)

    # Region: the cut (saved, recomputed) and everything within `hops` edges of it. Graph
    # inputs (parameters above all) are alive anyway and are not drawn, only counted.
    drawable = [cats[i] is not None and not is_input[i] for i in range(n)]
    core = {i for i in range(n) if drawable[i] and cats[i][0] in ("saved", "recomputed")}
    region = set(core)
    frontier = set(core)
    for _ in range(hops):
        nxt = set()
        for v in frontier:
            for u in users[v] + inputs[v]:
                if drawable[u] and u not in region:
                    nxt.add(u)
        region |= nxt
        frontier = nxt
    # Columns that hold a region node; up to MAX_MERGE neighbouring columns merge into one
    # (their nodes stack) to fit `max_columns`; what is left is windowed around `focus`.
    # Everything else collapses into the gaps between columns.
    cols = sorted({x[i] for i in region}) or [0]
    col_of = {c: k for k, c in enumerate(cols)}
    merge = max(1, min(MAX_MERGE, -(-len(cols) // max_columns)))
    nb = -(-len(cols) // merge)
    lo, hi = 0, nb
    if nb > max_columns:
        if focus is not None:
            fi = next((i for i, nd in enumerate(graph.nodes) if nd.name == focus), None)
            if fi is None or x[fi] is None:
                raise ValueError(f"cut_svg: focus = {focus!r} is not a node of the drawing")
            center = max(0, bisect.bisect_right(cols, x[fi]) - 1) // merge
        else:
            saved_x = sorted(x[i] for i in core if cats[i][0] == "saved") or cols
            center = col_of[saved_x[len(saved_x) // 2]] // merge
        lo = max(0, min(center - max_columns // 2, nb - max_columns))
        hi = lo + max_columns

    # Slots: "L" (columns left of the window), then per column: the column and its gap.
    visible: list[_Node] = []
    boxes: dict[tuple[int, str], int] = {}  # (band, slot key) -> hidden count
    for i in range(n):
        c = cats[i]
        if not drawable[i]:
            continue
        k = max(0, bisect.bisect_right(cols, x[i]) - 1) // merge
        if k < lo:
            key = "L"
        elif k >= hi:
            key = "R"
        elif i in region:
            visible.append(_Node(i, c[0], c[1], (k, x[i]), _tooltip(report, i, c[0])))
            continue
        else:
            key = f"g{k}"
        boxes[(c[1], key)] = boxes.get((c[1], key), 0) + 1
    slots: list[str] = []
    if any(k[1] == "L" for k in boxes):
        slots.append("L")
    for k in range(lo, hi):
        slots.append(f"c{k}")
        if any(b[1] == f"g{k}" for b in boxes):
            slots.append(f"g{k}")
    if any(k[1] == "R" for k in boxes):
        slots.append("R")
    hidden_inputs = int(sum(1 for i in range(n) if cats[i] is not None and is_input[i]))
    return visible, boxes, slots, users, hidden_inputs


def cut_svg(report: Any, *, hops: int = 1, max_columns: int = 28,
            focus: str | None = None, title: str | None = None) -> str:
    """SVG text of the joint graph and its cut (see the module docstring)."""
    if report.decision is None or report.bw_module is None:
        raise ValueError("cut_svg: the report carries no decision (was it loaded from JSON?)")
    if not isinstance(hops, int) or hops < 0:
        raise ValueError(f"cut_svg: hops = {hops!r} is invalid; expected an integer >= 0")
    if not isinstance(max_columns, int) or max_columns < 1:
        raise ValueError(f"cut_svg: max_columns = {max_columns!r} is invalid; expected an "
                         "integer >= 1")
    visible, boxes, slots, users, hidden_inputs = _layout(report, hops, max_columns, focus)
    slot_x, slot_w, cursor = {}, {}, MARGIN
    for s in slots:
        slot_x[s] = cursor
        slot_w[s] = NODE_W if s.startswith("c") or s in ("L", "R") else GAP_W
        cursor += slot_w[s] + COL_GAP

    # Stack nodes per (band, column): the cut's own nodes closest to the line.
    priority = {"saved": 0, "recomputed": 0, "banned": 1, "forward": 2, "backward": 2,
                "input": 3}
    stacks: dict[tuple[int, str], list[_Node]] = {}
    for v in visible:
        stacks.setdefault((v.band, f"c{v.x[0]}"), []).append(v)
    depth = [1, 1]
    for (band, _), vs in stacks.items():
        vs.sort(key=lambda v: (priority[v.cat], v.x[1], v.i))
        depth[band] = max(depth[band], len(vs))
    for (band, _) in boxes:
        depth[band] = max(depth[band], 1)
    row = NODE_H + ROW_GAP
    fw_h = depth[0] * row
    bw_h = depth[1] * row
    top = MARGIN + LEGEND_H
    cut_y = top + fw_h + CUT_GAP / 2
    width = max(int(cursor + MARGIN), 900)
    height = int(top + fw_h + CUT_GAP + bw_h + MARGIN)

    pos: dict[int, tuple[float, float]] = {}
    for (band, slot), vs in stacks.items():
        for r, v in enumerate(vs):
            y = (top + fw_h - (r + 1) * row + ROW_GAP) if band == 0 else (
                cut_y + CUT_GAP / 2 + r * row)
            pos[v.i] = (slot_x[slot], y)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="Helvetica, Arial, sans-serif">',
           f'<rect width="{width}" height="{height}" fill="white"/>']
    fc = report.fusioncut
    heading = title or "fusioncut: the joint graph and its cut"
    n_acts = sum(s.kind not in ("input", "static input") for s in report.saved)
    sub = (f"{n_acts} saved values ({format_bytes(fc.saved_bytes)} activations), "
           f"{sum(not r.is_view for r in report.recomputed)} ops recomputed, "
           f"{report.num_nodes} nodes; showing {len(visible)} within {hops} hop(s) of the cut "
           f"({hidden_inputs} graph inputs not drawn)")
    out.append(f'<text x="{MARGIN}" y="{MARGIN + 12}" font-size="15" font-weight="bold">'
               f'{html.escape(heading)}</text>')
    out.append(f'<text x="{MARGIN}" y="{MARGIN + 28}" font-size="11" fill="#444">'
               f'{html.escape(sub)}</text>')
    lx = MARGIN
    for cat in ("input", "forward", "banned", "saved", "recomputed", "backward", "collapsed"):
        out.append(_rect(lx, MARGIN + 36, 14, 12, cat))
        out.append(f'<text x="{lx + 18}" y="{MARGIN + 46}" font-size="11">{_LABELS[cat]}</text>')
        lx += 24 + 6.2 * len(_LABELS[cat])

    # Edges first (under the nodes): cut-crossing edges bold, others faint.
    edges = []
    for v in visible:
        if v.i not in pos:
            continue
        x0, y0 = pos[v.i]
        for u in users[v.i]:
            if u not in pos:
                continue
            x1, y1 = pos[u]
            crossing = v.band == 0 and y1 > cut_y
            sx, sy = x0 + NODE_W / 2, y0 + (NODE_H if y1 >= y0 else 0)
            tx, ty = x1 + NODE_W / 2, y1 + (0 if y1 >= y0 else NODE_H)
            if abs(y1 - y0) < 1:  # same row: side to side
                sx, sy, tx, ty = x0 + NODE_W, y0 + NODE_H / 2, x1, y1 + NODE_H / 2
            my = (sy + ty) / 2
            path = f"M{sx:.0f},{sy:.0f} C{sx:.0f},{my:.0f} {tx:.0f},{my:.0f} {tx:.0f},{ty:.0f}"
            if crossing:
                color = "#1c5e36" if v.cat == "saved" else "#666"
                edges.append(f'<path d="{path}" fill="none" stroke="{color}" '
                             f'stroke-width="1.6" opacity="0.85"/>')
            else:
                edges.append(f'<path d="{path}" fill="none" stroke="#9aa" stroke-width="0.7" '
                             f'opacity="0.6"/>')
    out.extend(edges)

    out.append(f'<line x1="{MARGIN / 2}" y1="{cut_y:.0f}" x2="{width - MARGIN / 2}" '
               f'y2="{cut_y:.0f}" stroke="#d62728" stroke-width="2.5" stroke-dasharray="10,6"/>')
    label = (f"\u2191 forward    cut: {n_acts} values saved, "
             f"{format_bytes(fc.saved_bytes)}    \u2193 backward")
    out.append(f'<rect x="{MARGIN - 4}" y="{cut_y - 8:.0f}" width="{6.6 * len(label):.0f}" '
               f'height="16" fill="white" opacity="0.9"/>')
    out.append(f'<text x="{MARGIN}" y="{cut_y + 4:.0f}" font-size="12" font-weight="bold" '
               f'fill="#d62728">{html.escape(label)}</text>')

    for v in visible:
        x0, y0 = pos[v.i]
        name = report.decision.graph.nodes[v.i].name
        label = name if len(name) <= 12 else name[:11] + "\u2026"
        color = "white" if v.cat in _TEXT_LIGHT else "#111"
        out.append(f'<g><title>{html.escape(v.tip)}</title>{_rect(x0, y0, NODE_W, NODE_H, v.cat)}'
                   f'<text x="{x0 + NODE_W / 2:.0f}" y="{y0 + 14:.0f}" font-size="10" '
                   f'text-anchor="middle" fill="{color}">{html.escape(label)}</text></g>')
    for (band, slot), count in boxes.items():
        if slot not in slot_x:
            continue
        x0 = slot_x[slot]
        y0 = (top + fw_h - row + ROW_GAP) if band == 0 else (cut_y + CUT_GAP / 2)
        where = {"L": "earlier", "R": "later"}.get(slot, "")
        prefix = "\u2026 " if slot in ("L", "R") else "+"
        tip = f"{count} {'forward' if band == 0 else 'backward'} nodes not shown {where}".strip()
        w = slot_w[slot]
        text = f"{prefix}{count} nodes" if w == NODE_W else f"+{count}"
        out.append(f'<g><title>{html.escape(tip)}</title>'
                   f'<rect x="{x0}" y="{y0:.0f}" width="{w}" height="{NODE_H}" rx="8" '
                   f'fill="{COLORS["collapsed"]}" stroke="#999" stroke-dasharray="3,2"/>'
                   f'<text x="{x0 + w / 2:.0f}" y="{y0 + 14:.0f}" font-size="10" '
                   f'text-anchor="middle" fill="#555">{text}</text></g>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _rect(x, y, w, h, cat) -> str:
    stroke = _STROKE.get(cat, "#777")
    sw = 1.6 if cat in _STROKE else 0.8
    return (f'<rect x="{x:.0f}" y="{y:.0f}" width="{w}" height="{h}" rx="3" '
            f'fill="{COLORS[cat]}" stroke="{stroke}" stroke-width="{sw}"/>')


def write_cut_svg(report: Any, path: str | Path, **kwargs: Any) -> Path:
    path = Path(path)
    path.write_text(cut_svg(report, **kwargs), encoding="utf-8")
    return path
