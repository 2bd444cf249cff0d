"""Reports and partition errors as terminal text.

Works on the report's data (``report.model``) and on ``PartitionError``'s structured path; it
never parses the English of a reason back into a constraint.
"""

from __future__ import annotations

from typing import Any

from fusioncut._log import format_bytes
from fusioncut.decision import Constraint
from fusioncut.ops import op_name

__all__ = ["format_budget", "format_bytes", "format_partition_error", "format_report",
           "format_seconds", "format_totals", "node_op", "table"]


def table(headers: list[str], rows: list[list[str]], right: set[int] = frozenset(),
          clip: dict[int, int] | None = None) -> list[str]:
    """Rows under headers, columns padded; column indices in ``right`` right-aligned; a cell
    of a column in ``clip`` longer than its limit is cut there, ending in an ellipsis."""
    if clip:
        rows = [[c[:clip[k] - 1] + "\u2026" if k in clip and len(c) > clip[k] else c
                 for k, c in enumerate(r)] for r in rows]
    widths = [len(h) for h in headers]
    for r in rows:
        for k, c in enumerate(r):
            widths[k] = max(widths[k], len(c))

    def line(cells):
        out = []
        for k, c in enumerate(cells):
            out.append(c.rjust(widths[k]) if k in right else c.ljust(widths[k]))
        return "  " + "  ".join(out).rstrip()

    return [line(headers), "  " + "  ".join("-" * w for w in widths)] + [line(r) for r in rows]


def format_seconds(s: float | None) -> str:
    if s is None:
        return "-"
    if s == 0:
        return "0 s"
    if abs(s) < 1e-6:
        return f"{s * 1e9:.3g} ns"
    if abs(s) < 1e-3:
        return f"{s * 1e6:.1f} us"
    return f"{s * 1000:.1f} ms" if abs(s) < 1 else f"{s:.2f} s"


def _limit(rows: list, max_rows: int | None) -> tuple[list, int]:
    if max_rows is None or len(rows) <= max_rows:
        return rows, 0
    return rows[:max_rows], len(rows) - max_rows


def format_report(r: Any, max_rows: int | None, clip: int | None = None) -> str:
    """A ``Report`` as tables: saved, recomputed, banned, budget, differences, totals; the
    reasons cut at ``clip`` characters (None: whole)."""
    fc = r.fusioncut
    many = len(r.graphs) > 1
    timing = f"decided in {format_seconds(r.decide_s)}" + (
        f", emitted in {format_seconds(r.emit_s)}" if r.emit_s is not None else "")
    graphs = f"{len(r.graphs)} joint graphs, " if many else ""
    out = [f"fusioncut.explain: {graphs}{r.num_nodes} nodes ({r.num_forward} forward, "
           f"{r.num_backward} backward); {r.setting}; {timing}"]
    if r.via == "dynamo" and r.graph_breaks:
        out.append("Dynamo graph breaks: " + "; ".join(r.graph_breaks[:3])
                   + (" ..." if len(r.graph_breaks) > 3 else ""))
    for f in getattr(r, "fallbacks", []):
        out.append(f"Not explained (fusioncut hands it to PyTorch's partitioner): {f}")
    out.append("")
    where = (lambda v: [str(v.graph)]) if many else (lambda v: [])
    head = ["graph"] if many else []
    torch_col = any(v.torch is not None for v in r.values)

    held = [s for s in r.saved if s.kind in ("input", "static input")]
    acts = [s for s in r.saved if s.kind not in ("input", "static input")]
    offloaded = [s for s in acts if s.fate == "offloaded"]
    gone = sum(s.nbytes for s in offloaded)
    out.append(f"Saved for backward: {len(acts)} values, {format_bytes(fc.saved_bytes)} of "
               f"activations" + (f" ({len(offloaded)} of them, {format_bytes(gone)}, offloaded "
                                 f"to host memory between the passes)" if offloaded else "")
               + f" (+ {len(held)} graph inputs held anyway: "
               f"{format_bytes(fc.static_bytes)} parameters and static inputs, free; "
               f"{format_bytes(fc.input_bytes)} other inputs)")
    rows = sorted(acts, key=lambda s: (-s.nbytes, s.graph, s.name))
    shown, more = _limit(rows, max_rows)
    if rows:
        out += table(head + ["node", "op", "shape", "dtype", "bytes"]
                     + (["PyTorch"] if torch_col else []) + ["why"],
                     [where(s) + [s.name, s.op, "x".join(map(str, s.shape)) or "-",
                                  s.dtype or "-", format_bytes(s.nbytes)]
                      + ([s.torch or "-"] if torch_col else []) + [s.why] for s in shown],
                     right={len(head) + 4},
                     clip={len(head) + 5 + torch_col: clip} if clip else None)
    if more:
        out.append(f"  ... {more} more (smallest)")
    out.append("")

    real = sorted((x for x in r.recomputed if not x.is_view),
                  key=lambda x: (-x.nbytes, x.graph, x.name))
    views = len(r.recomputed) - len(real)
    out.append(f"Recomputed in the backward: {len(real)} ops"
               + (f" (+ {views} views/getitems)" if views else ""))
    if real:
        shown, more = _limit(real, max_rows)
        out += table(head + ["node", "op"] + (["PyTorch"] if torch_col else [])
                     + ["why", "needed by (backward)"],
                     [where(x) + [x.name, x.op] + ([x.torch or "-"] if torch_col else [])
                      + [x.why, ", ".join(x.needed_by) or "-"] for x in shown],
                     clip={len(head) + 2 + torch_col: clip,
                           len(head) + 3 + torch_col: clip // 2} if clip else None)
        if more:
            out.append(f"  ... {more} more")
    out.append("")

    out += _ban_table(f"Banned from recomputation: {len(r.banned)} forward nodes "
                      f"(+ {r.num_input_bans} graph inputs)", r.banned, max_rows)
    if r.lifted:
        out += _ban_table(f"Priced, not banned (a memory target lifts these bans): "
                          f"{len(r.lifted)} forward nodes", r.lifted, max_rows)
    if r.dropped_preferences:
        out.append("Dropped PREFER_* annotations (they made every cut infinite): "
                   + ", ".join(r.dropped_preferences))
    out.append("")

    for k, g in enumerate(r.graphs):
        if g.budget is not None:
            out += ([f"Graph {k}:"] if many else []) + format_budget(g.budget) + [""]
    if r.differences:
        peer = next((m for m in r.methods if m.method == "torch min-cut"), None)
        setting = f" ({peer.setting})" if peer is not None and peer.setting else ""
        out.append(f"Where fusioncut and PyTorch's min-cut{setting} differ: "
                   f"{len(r.differences)} values")
        shown, more = _limit(r.differences, max_rows)
        out += table(head + ["bytes", "difference"],
                     [where(d) + [format_bytes(d.nbytes), d.text] for d in shown],
                     right={len(head)}, clip={len(head) + 1: clip} if clip else None)
        if more:
            out.append(f"  ... {more} more (smallest)")
        out.append("")
    out.append(format_totals(r))
    return "\n".join(line.rstrip() for line in out)


def _ban_table(title: str, bans: list, max_rows: int | None) -> list[str]:
    counts: dict[str, int] = {}
    examples: dict[str, list[str]] = {}
    for b in bans:
        key = b.group or b.reason
        counts[key] = counts.get(key, 0) + 1
        examples.setdefault(key, []).append(b.name)
    out = [title]
    if counts:
        rows = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        shown, more = _limit(rows, max_rows)
        out += table(["reason", "nodes", "e.g."],
                     [[k, str(v), ", ".join(examples[k][:3]) + (" ..." if v > 3 else "")]
                      for k, v in shown], right={1})
        if more:
            out.append(f"  ... {more} more reasons")
    return out


def format_budget(b: Any) -> list[str]:
    """The memory target's plan on the frontier, and what each budget step gave up."""
    c = b.chosen
    where = (f"plan {b.position + 1} of {b.num_plans} on the frontier (1: the runtime plan, "
             f"{b.num_plans}: the least memory)") if b.position >= 0 else "off the frontier"
    out = [f"Memory target {b.target} (recomputation priced on {b.device}): {where}; saves "
           f"{format_bytes(c.saved_bytes)} (runtime plan {format_bytes(b.runtime.saved_bytes)}, "
           f"least {format_bytes(b.least.saved_bytes)}), estimated peak "
           f"{format_bytes(c.peak_bytes)}, recomputation {format_seconds(c.recompute_seconds)}"]
    offloads = any(s.offloaded_bytes for s in [*b.steps, c])
    if offloads:
        out[0] += (f", offloaded {format_bytes(c.offloaded_bytes)} (the step waits "
                   f"{format_seconds(c.offload_seconds)} for the transfers"
                   + (f", {format_seconds(c.link_excess_seconds)} of it because they exceed "
                      "the compute that hides them)" if c.link_excess_seconds else ")"))
    if b.no_offload:
        out.append(f"  offload='auto' offloaded nothing: {b.no_offload}")
    if b.expected_peak_bytes:
        out.append(f"  measured peaks have come up to {b.margin:.0%} above the estimate: expect "
                   f"at most {format_bytes(b.expected_peak_bytes)} (Options.peak_margin)")
    if b.gap:
        out.append(f"  no plan meets the target: the least plan is {format_bytes(b.gap)} over it")
    elif b.within_margin:
        out.append("  the target is met only within the estimate's margin: the measured peak "
                   "may exceed it")
    rows, prev = [], None
    for s in b.steps:
        more = s.recompute_seconds + s.offload_seconds
        gave = "-" if prev is None else (
            f"{format_bytes(prev.saved_bytes - s.saved_bytes)} saved for "
            f"{format_seconds(more - prev.recompute_seconds - prev.offload_seconds)} more "
            + ("recompute and transfer" if offloads else "recompute"))
        row = [f"{s.budget:.1f}", format_bytes(s.saved_bytes), format_bytes(s.peak_bytes),
               format_seconds(s.recompute_seconds)]
        if offloads:
            row += [format_bytes(s.offloaded_bytes), format_seconds(s.offload_seconds)]
        rows.append(row + [gave])
        prev = s
    names = ["budget", "saved", "est. peak", "recompute"]
    if offloads:
        names += ["offloaded", "transfer"]
    out += table(names + ["this step gave up"], rows, right=set(range(1, len(names))))
    return out


def format_totals(r: Any) -> str:
    """The side-by-side totals table (every method, same fusion traffic model): activations
    apart from the parameters and inputs a method hands on, which are alive anyway."""
    fc = r.fusioncut
    out = ["Totals (activations: storage kept for the backward; traffic: each saved activation "
           "read once by the backward, plus written once by the forward if it would otherwise "
           "stay fused; parameters and static inputs are free)"]
    base = fc.saved_bytes or None
    rows = []
    for m in r.methods:
        name = m.method + (f" ({m.setting})" if m.setting and m is not fc else "")
        if m.error:
            rows.append([name, "-", "-", "-", "-", "-", "-", m.error])
            continue
        rel = (f"{m.saved_bytes / base:.2f}x" if base else "-") if m is not fc else "1.00x"
        rows.append([name, format_seconds(m.time_s), str(m.num_saved),
                     format_bytes(m.saved_bytes), rel, format_bytes(m.traffic_bytes),
                     format_bytes(m.static_bytes + m.input_bytes), ""])
    out += table(["method", "partition time", "saved", "activations", "vs fusioncut",
                  "traffic", "params+inputs", ""], rows, right={1, 2, 3, 4, 5, 6})
    return "\n".join(line.rstrip() for line in out)


def _group(reason: Any) -> str:
    constraint = getattr(reason, "constraint", Constraint.DEPENDENCY)
    if constraint is Constraint.BAN:
        return f"ban ({getattr(reason, 'reason', None) or reason})"
    return constraint.value


def format_partition_error(err: Any) -> str:
    """``PartitionError``'s offending path, its FX nodes grouped by the constraint that put
    them there: user annotations, bans (with their reason), graph inputs, data dependencies
    and the backward that needs the value."""
    nodes = list(getattr(err, "nodes", []) or [])
    reasons = list(getattr(err, "reasons", []) or [])
    if not nodes:
        return str(err)
    groups: dict[str, list[str]] = {}
    order = [Constraint.ANNOTATION.value]
    for node, why in zip(nodes, reasons):
        for r in why or ["data dependency"]:
            g = _group(r)
            if g not in groups:
                groups[g] = []
                if g not in order:
                    order.append(g)
            op = node_op(node)
            groups[g].append(f"{node.name} ({op}): {r}")
    lines = ["fusioncut: no valid partition. Some value must reach the backward but can "
             "neither be saved nor recomputed.",
             "Path, source first: " + " -> ".join(nd.name for nd in nodes)]
    for g in order:
        if g in groups:
            lines.append(f"  {g}:")
            lines.extend(f"    {item}" for item in groups[g])
    if Constraint.ANNOTATION.value in groups and any(g.startswith("ban (") for g in groups):
        lines.append("An annotation asks to recompute what a ban forbids: drop or change the "
                     "annotation, or let annotations lift heuristic bans "
                     "(Options(annotations_override_bans=True), the default).")
    return "\n".join(lines)


def node_op(node: Any) -> str:
    """``aten.mm`` for a call_function node, else the node's kind (``placeholder``)."""
    return op_name(node.target) if node.op == "call_function" else node.op
