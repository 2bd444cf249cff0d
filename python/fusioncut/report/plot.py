"""The joint graph and its cut as SVG: readable at the width of a screen, a tooltip per node.

``cut_svg(report)`` draws one joint graph (``graph=k``; default: the one keeping the most
activation bytes) as strips, each a forward band above a dashed cut line and a backward band
below it, so that every edge crossing a line is a value handed from forward to backward::

      forward band     [mm] ── [mul] ── [SAVED] ...  [≡ blocks.0 ×3] ...   (saved: green, on
                                           │                                the line; banned:
    ─ ─ ─ ─ ─ ─ cut ─ ─ ─ ─ ─ ─ ─ ─ ─ ─ ─ ┼ ─ ─ ─ ─ ─ ─ ─ ─ ─ ─ ─ ─       red)
      backward band    [RECOMPUTED] ── [mm_5] ...                          (recomputed: purple)

x is the forward depth; a backward node sits under the latest forward-side value it reads,
so the backward of a layer lies under that layer's forward. What is drawn:

- the nodes within ``hops`` edges of the cut (saved and recomputed nodes and their readers);
  the rest collapse into grey counted boxes between the columns;
- repeated structure folds: the layers of one ``nn.ModuleList`` (``nn_module_stack``, as
  Dynamo and AOTAutograd record it) whose ops and fates equal the first such layer's are one
  box each, "≡ blocks.0";
- columns fill strips of at most ``width`` pixels, one under the other; a graph wider than
  ``max_columns`` columns is windowed around ``focus`` (a node name; default: the middle of
  the saved set), the columns outside it counted in boxes at the edges;
- a column shows at most ``MAX_STACK`` nodes per band, and a box counts the rest.

Every node's full name, op, shape, size and reason are in its tooltip (``<title>``). No
graphviz. ``bytes_chart`` and ``plot_pareto`` (matplotlib) live in ``charts`` and are
re-exported here.
"""

from __future__ import annotations

import bisect
import html
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fusioncut._validate import shown
from fusioncut.graph import Role
from fusioncut.report.build import adjacency, shape_of
from fusioncut.report.charts import bytes_chart, plot_pareto
from fusioncut.report.model import HANDED_ON, Fate
from fusioncut.report.text import format_bytes

__all__ = ["COLORS", "MAX_STACK", "bytes_chart", "cut_svg", "plot_pareto", "write_cut_svg"]

COLORS = {
    "input": "#d9d9d9",
    "forward": "#cfe2f3",
    "banned": "#f4cccc",
    "saved": "#38a169",
    "recomputed": "#9f7aea",
    "backward": "#fde9c8",
    "collapsed": "#f3f3f3",
    "folded": "#e6f0e6",
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
    "folded": "repeated layer (folded)",
}

NODE_W, NODE_H, COL_GAP, ROW_GAP, GAP_W = 96, 20, 10, 5, 34
MARGIN, HEAD_H, CUT_GAP, STRIP_GAP, MAX_MERGE = 16, 58, 40, 26, 4
MAX_STACK = 8
"""Nodes shown per column and band; a box counts the others."""
_CHAR_W = 5.6  # px per character at font-size 10
_LAYER = re.compile(r"\.(\d+)(?=\.|$)")


@dataclass
class _Node:
    i: int
    cat: str
    band: int  # 0 forward, 1 backward
    x: tuple[int, int]  # (drawing column, forward depth)
    tip: str


def _classify(g: Any):
    """Per joint node: its category and band, or None when it is in neither module."""
    d = g.decision
    graph, policy = d.graph, d.policy
    names = [nd.name for nd in graph.nodes]
    in_bw = {nd.name for nd in g.bw_module.graph.nodes if nd.op == "call_function"}
    saved = set(int(i) for i in d.saved)
    cats: list[tuple[str, int] | None] = [None] * graph.num_nodes
    for i in range(graph.num_nodes):
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


def _tooltip(g: Any, why: dict[str, str], i: int, cat: str) -> str:
    graph, policy = g.decision.graph, g.decision.policy
    node = graph.nodes[i]
    val = node.meta.get("val")
    parts = [f"{node.name} = {graph.op_name(i)}", _LABELS[cat]]
    shape = shape_of(val)
    if shape:
        parts.append(f"{'x'.join(map(str, shape))} {str(val.dtype).replace('torch.', '')}, "
                     f"{format_bytes(int(graph.nbytes[i]))}")
    if node.name in why:
        parts.append(why[node.name])
    elif policy.ban[i] is not None and cat == "banned":
        parts.append(f"banned: {policy.ban[i]}")
    return "\n".join(parts)


def _layer_of(node: Any) -> tuple[str, int] | None:
    """(module list path, index) of the outermost ``nn.ModuleList`` entry a node belongs
    to, from its (or, in the backward, its forward's) ``nn_module_stack``."""
    stack = node.meta.get("nn_module_stack") or node.meta.get("fwd_nn_module_stack")
    if not stack:
        return None
    for entry in stack.values():
        path = entry[0] if isinstance(entry, tuple) else str(entry)
        m = _LAYER.search(path)
        if m is not None:
            return path[:m.start()], int(m.group(1))
    return None


def _folds(graph: Any, cats: list) -> tuple[dict[int, str], dict[str, str]]:
    """Nodes of repeated layers that fold (node -> its layer's name) and, per folded layer,
    the layer it repeats: layers of one list whose forward ops and fates, and whose backward
    ops, equal those of the list's first layer."""
    members: dict[tuple[str, int], list[int]] = {}
    for i, nd in enumerate(graph.nodes):
        if cats[i] is None or cats[i][0] == "input":
            continue
        layer = _layer_of(nd)
        if layer is not None:
            members.setdefault(layer, []).append(i)
    signature = {key: tuple((graph.op_name(i), cats[i][0]) for i in nodes)
                 for key, nodes in members.items()}
    first: dict[str, tuple[str, int]] = {}
    for key in sorted(members, key=lambda k: (k[0], k[1])):
        first.setdefault(key[0], key)
    folded: dict[int, str] = {}
    like: dict[str, str] = {}
    for key, nodes in members.items():
        base = first[key[0]]
        if key == base or signature[key] != signature[base]:
            continue
        name = _short(f"{key[0]}.{key[1]}")
        like[name] = _short(f"{base[0]}.{base[1]}")
        for i in nodes:
            folded[i] = name
    return folded, like


def _short(path: str) -> str:
    """A module path without Dynamo's ``L['self'].`` prefix."""
    return re.sub(r"^L\[[^\]]*\](\[\d+\])?\.?", "", path)


def _layout(g: Any, why: dict[str, str], hops: int, max_columns: int, focus: str | None,
            fold: bool):
    graph = g.decision.graph
    n = graph.num_nodes
    users, inputs = adjacency(graph)
    cats = _classify(g)
    folded, like = _folds(graph, cats) if fold else ({}, {})

    # x: forward depth for the forward band and recomputed nodes; a backward node sits under
    # the latest forward-side value it reads (the backward of a layer under the layer).
    x: list[int | None] = [None] * n
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

    # A folded layer is one box (per band), at the median depth of its forward (a few of
    # its nodes may read only inputs and sit far to the left).
    depths: dict[str, list[int]] = {}
    for i, name in folded.items():
        if cats[i][1] == 0 and x[i] is not None:
            depths.setdefault(name, []).append(x[i])
    for i, name in folded.items():
        if name in depths:
            x[i] = sorted(depths[name])[len(depths[name]) // 2]

    # Region: the cut (saved, recomputed) and everything within `hops` edges of it. Graph
    # inputs (parameters above all) are alive anyway and are not drawn, only counted;
    # folded layers are drawn as one box each.
    drawable = [cats[i] is not None and not is_input[i] for i in range(n)]
    own = [drawable[i] and i not in folded for i in range(n)]
    core = {i for i in range(n) if own[i] and cats[i][0] in ("saved", "recomputed")}
    region = set(core)
    frontier = set(core)
    for _ in range(hops):
        nxt = {u for v in frontier for u in users[v] + inputs[v] if own[u] and u not in region}
        if not nxt:  # the whole component is in: more hops add nothing (hops may be 10**400)
            break
        region |= nxt
        frontier = nxt
    # Columns that hold a region node; up to MAX_MERGE neighbouring columns merge into one
    # (their nodes stack) to fit `max_columns`; what is left is windowed around `focus`.
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

    # Slots: "L" (columns left of the window), per column its column and its gap, then "R".
    visible: list[_Node] = []
    boxes: dict[tuple[int, str], int] = {}  # (band, slot) -> hidden count
    layers: dict[str, set] = {}  # slot -> names of the folded layers it holds
    for i in range(n):
        if not drawable[i]:
            continue
        c = cats[i]
        k = max(0, bisect.bisect_right(cols, x[i]) - 1) // merge
        if k < lo:
            key = "L"
        elif k >= hi:
            key = "R"
        elif i in region:
            visible.append(_Node(i, c[0], c[1], (k, x[i]), _tooltip(g, why, i, c[0])))
            continue
        else:
            key = f"g{k}"
        if i in folded and key.startswith("g"):
            layers.setdefault(key, set()).add(folded[i])
        boxes[(c[1], key)] = boxes.get((c[1], key), 0) + 1
    slots: list[str] = ["L"] if any(k[1] == "L" for k in boxes) else []
    for k in range(lo, hi):
        slots.append(f"c{k}")
        if any(b[1] == f"g{k}" for b in boxes):
            slots.append(f"g{k}")
    if any(k[1] == "R" for k in boxes):
        slots.append("R")
    hidden_inputs = int(sum(1 for i in range(n) if cats[i] is not None and is_input[i]))
    return visible, boxes, slots, users, hidden_inputs, layers, like


def _slot_width(slot: str, layers: dict[str, set], like: dict[str, str]) -> int:
    if slot in layers:
        return max(NODE_W, int(_CHAR_W * (len(_fold_text(layers[slot], like)) + 2)))
    return NODE_W if slot[0] in "cLR" else GAP_W


def _fold_text(names: set, like: dict[str, str]) -> str:
    first = sorted(names)[0]
    return f"\u2261 {like[first]}" + (f" \u00d7{len(names)}" if len(names) > 1 else "")


def cut_svg(report: Any, *, graph: int | None = None, hops: int = 1, max_columns: int = 60,
            focus: str | None = None, title: str | None = None, width: int = 1400,
            fold: bool = True) -> str:
    """SVG text of one joint graph and its cut (see the module docstring)."""
    g = report.graph(graph) if report.graphs else None
    if g is None or g.decision is None or g.bw_module is None:
        raise ValueError("cut_svg: the report carries no decision (was it loaded from JSON?)")
    if not isinstance(hops, int) or isinstance(hops, bool) or hops < 0:
        raise ValueError(f"cut_svg: hops = {shown(hops)} is invalid; expected an integer >= 0")
    if not isinstance(max_columns, int) or isinstance(max_columns, bool) or max_columns < 1:
        raise ValueError(f"cut_svg: max_columns = {shown(max_columns)} is invalid; expected an "
                         "integer >= 1")
    if not isinstance(width, int) or isinstance(width, bool) or width < 2 * NODE_W:
        raise ValueError(f"cut_svg: width = {shown(width)} is invalid; expected an integer >= "
                         f"{2 * NODE_W} (pixels)")
    index = report.graphs.index(g)
    values = [v for v in report.values if v.graph == index]
    why = {v.name: v.why for v in values}
    visible, boxes, slots, users, hidden_inputs, layers, like = _layout(
        g, why, hops, max_columns, focus, fold)

    # Strips: slots left to right, a new strip when the next slot would pass `width`.
    place: dict[str, tuple[int, float]] = {}  # slot -> (strip, x)
    strip, cursor = 0, MARGIN
    for s in slots:
        w = _slot_width(s, layers, like)
        if cursor + w > width - MARGIN and cursor > MARGIN:
            strip, cursor = strip + 1, MARGIN
        place[s] = (strip, cursor)
        cursor += w + COL_GAP
    num_strips = strip + 1

    # Stack nodes per (band, column): the cut's own nodes closest to the line; at most
    # MAX_STACK, the rest counted.
    priority = {"saved": 0, "recomputed": 0, "banned": 1, "forward": 2, "backward": 2}
    stacks: dict[tuple[int, str], list[_Node]] = {}
    for v in visible:
        stacks.setdefault((v.band, f"c{v.x[0]}"), []).append(v)
    overflow: dict[tuple[int, str], int] = {}
    for key, vs in stacks.items():
        vs.sort(key=lambda v: (priority[v.cat], v.x[1], v.i))
        if len(vs) > MAX_STACK:
            overflow[key] = len(vs) - (MAX_STACK - 1)
            del vs[MAX_STACK - 1:]
    depth = [[1, 1] for _ in range(num_strips)]
    for (band, slot), vs in stacks.items():
        k = place[slot][0]
        depth[k][band] = max(depth[k][band], len(vs) + (1 if (band, slot) in overflow else 0))
    row = NODE_H + ROW_GAP
    strip_top, y = [], MARGIN + HEAD_H
    for k in range(num_strips):
        strip_top.append(y)
        y += (depth[k][0] + depth[k][1]) * row + CUT_GAP + STRIP_GAP
    height = int(y - STRIP_GAP + MARGIN)
    total_w = int(max(x for _, x in place.values()) + NODE_W + MARGIN) if place else width
    svg_w = max(min(width, total_w), 900)

    def cut_y(k: int) -> float:
        return strip_top[k] + depth[k][0] * row + CUT_GAP / 2

    def slot_y(k: int, band: int, r: int) -> float:
        return (cut_y(k) - CUT_GAP / 2 - (r + 1) * row + ROW_GAP) if band == 0 else \
            (cut_y(k) + CUT_GAP / 2 + r * row)

    pos: dict[int, tuple[float, float, int]] = {}
    for (band, slot), vs in stacks.items():
        k, x0 = place[slot]
        for r, v in enumerate(vs):
            pos[v.i] = (x0, slot_y(k, band, r), k)

    graph_ = g.decision.graph
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{svg_w}" height="{height}" '
           f'viewBox="0 0 {svg_w} {height}" font-family="Helvetica, Arial, sans-serif">',
           f'<rect width="{svg_w}" height="{height}" fill="white"/>']
    fc = g.methods[0]
    n_acts = sum(v.fate in HANDED_ON and v.kind not in ("input", "static input")
                 for v in values)
    n_rec = sum(v.fate == Fate.RECOMPUTED.value and not v.is_view for v in values)
    heading = title or "fusioncut: the joint graph and its cut"
    which = f"graph {index} of {len(report.graphs)}: " if len(report.graphs) > 1 else ""
    folded_note = (f"; {len(like)} repeated layers folded ({', '.join(sorted(like)[:3])}"
                   f"{' ...' if len(like) > 3 else ''})") if like else ""
    sub = (f"{which}{n_acts} saved values ({format_bytes(fc.saved_bytes)} of activations), "
           f"{n_rec} ops recomputed, {graph_.num_nodes} nodes; {report.setting}; showing "
           f"{len(visible)} nodes within {hops} hop(s) of the cut ({hidden_inputs} graph "
           f"inputs not drawn){folded_note}")
    out.append(f'<text x="{MARGIN}" y="{MARGIN + 12}" font-size="15" font-weight="bold">'
               f'{html.escape(heading)}</text>')
    out.append(f'<text x="{MARGIN}" y="{MARGIN + 28}" font-size="11" fill="#444">'
               f'{html.escape(sub)}</text>')
    lx = MARGIN
    for cat in ("input", "forward", "banned", "saved", "recomputed", "backward", "collapsed",
                "folded"):
        out.append(_rect(lx, MARGIN + 36, 14, 12, cat))
        out.append(f'<text x="{lx + 18}" y="{MARGIN + 46}" font-size="11">{_LABELS[cat]}</text>')
        lx += 24 + 6.2 * len(_LABELS[cat])

    # Edges first (under the nodes), within a strip: cut-crossing edges bold, others faint.
    for v in visible:
        if v.i not in pos:
            continue
        x0, y0, k0 = pos[v.i]
        for u in users[v.i]:
            if u not in pos or pos[u][2] != k0:
                continue
            x1, y1, _ = pos[u]
            crossing = v.band == 0 and y1 > cut_y(k0)
            sx, sy = x0 + NODE_W / 2, y0 + (NODE_H if y1 >= y0 else 0)
            tx, ty = x1 + NODE_W / 2, y1 + (0 if y1 >= y0 else NODE_H)
            if abs(y1 - y0) < 1:  # same row: side to side
                sx, sy, tx, ty = x0 + NODE_W, y0 + NODE_H / 2, x1, y1 + NODE_H / 2
            my = (sy + ty) / 2
            path = f"M{sx:.0f},{sy:.0f} C{sx:.0f},{my:.0f} {tx:.0f},{my:.0f} {tx:.0f},{ty:.0f}"
            if crossing:
                color = "#1c5e36" if v.cat == "saved" else "#666"
                out.append(f'<path d="{path}" fill="none" stroke="{color}" '
                           f'stroke-width="1.6" opacity="0.85"/>')
            else:
                out.append(f'<path d="{path}" fill="none" stroke="#9aa" stroke-width="0.7" '
                           f'opacity="0.6"/>')

    for k in range(num_strips):
        yk = cut_y(k)
        out.append(f'<line x1="{MARGIN / 2}" y1="{yk:.0f}" x2="{svg_w - MARGIN / 2}" '
                   f'y2="{yk:.0f}" stroke="#d62728" stroke-width="2.5" '
                   f'stroke-dasharray="10,6"/>')
    label = (f"\u2191 forward    cut: {n_acts} values saved, {format_bytes(fc.saved_bytes)}"
             f"    \u2193 backward")
    out.append(f'<rect x="{MARGIN - 4}" y="{cut_y(0) - 8:.0f}" '
               f'width="{6.6 * len(label):.0f}" height="16" fill="white" opacity="0.9"/>')
    out.append(f'<text x="{MARGIN}" y="{cut_y(0) + 4:.0f}" font-size="12" font-weight="bold" '
               f'fill="#d62728">{html.escape(label)}</text>')

    for v in visible:
        if v.i not in pos:
            continue
        x0, y0, _ = pos[v.i]
        out.append(_node(x0, y0, graph_.nodes[v.i].name, v.cat, v.tip))
    for (band, slot), count in overflow.items():
        k, x0 = place[slot]
        out.append(_box(x0, slot_y(k, band, MAX_STACK - 1), NODE_W, f"+{count} more",
                        f"{count} more nodes in this column", "collapsed"))
    for (band, slot), count in boxes.items():
        if slot not in place:
            continue
        k, x0 = place[slot]
        w = _slot_width(slot, layers, like)
        side = "forward" if band == 0 else "backward"
        if slot in layers:
            names = sorted(layers[slot])
            text = _fold_text(layers[slot], like)
            tip = (f"{', '.join(names)}: the same ops and the same cut as "
                   f"{like[names[0]]} ({count} {side} nodes here, not drawn)")
            out.append(_box(x0, slot_y(k, band, 0), w, text, tip, "folded"))
            continue
        where = {"L": " earlier", "R": " later"}.get(slot, "")
        text = (f"\u2026 {count} nodes" if slot in ("L", "R") else f"+{count} nodes") \
            if w == NODE_W else f"+{count}"
        out.append(_box(x0, slot_y(k, band, 0), w, text,
                        f"{count} {side} nodes not shown{where}", "collapsed"))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _node(x0: float, y0: float, name: str, cat: str, tip: str) -> str:
    fits = int((NODE_W - 6) / _CHAR_W)
    label = name if len(name) <= fits else name[:fits - 1] + "\u2026"
    color = "white" if cat in _TEXT_LIGHT else "#111"
    return (f'<g><title>{html.escape(tip)}</title>{_rect(x0, y0, NODE_W, NODE_H, cat)}'
            f'<text x="{x0 + NODE_W / 2:.0f}" y="{y0 + 14:.0f}" font-size="10" '
            f'text-anchor="middle" fill="{color}">{html.escape(label)}</text></g>')


def _box(x0: float, y0: float, w: int, text: str, tip: str, cat: str) -> str:
    fits = int((w - 4) / _CHAR_W)
    shown = text if len(text) <= fits else text[:fits - 1] + "\u2026"
    return (f'<g><title>{html.escape(tip)}</title>'
            f'<rect x="{x0:.0f}" y="{y0:.0f}" width="{w}" height="{NODE_H}" rx="8" '
            f'fill="{COLORS[cat]}" stroke="#999" stroke-dasharray="3,2"/>'
            f'<text x="{x0 + w / 2:.0f}" y="{y0 + 14:.0f}" font-size="10" '
            f'text-anchor="middle" fill="#555">{html.escape(shown)}</text></g>')


def _rect(x, y, w, h, cat) -> str:
    stroke = _STROKE.get(cat, "#777")
    sw = 1.6 if cat in _STROKE else 0.8
    return (f'<rect x="{x:.0f}" y="{y:.0f}" width="{w}" height="{h}" rx="3" '
            f'fill="{COLORS[cat]}" stroke="{stroke}" stroke-width="{sw}"/>')


def write_cut_svg(report: Any, path: str | Path, **kwargs: Any) -> Path:
    path = Path(path)
    path.write_text(cut_svg(report, **kwargs), encoding="utf-8")
    return path
