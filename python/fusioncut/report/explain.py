"""``fusioncut.explain``: why each value was saved or recomputed, and what it costs.

    model(*args, **kwargs) ──capture (Dynamo)──> joint graphs ──each, on deep copies──>
        fusioncut (decide + build_modules)      ─┐
        torch min-cut, at the same setting      ─┼─> one Report per graph (report.build,
        torch default_partition                 ─┘   report.compare)
    ──combine──> one Report: every graph's values, bans and differences; totals summed
"""

from __future__ import annotations

import copy
import time
from typing import Any

import torch.fx as fx

from fusioncut import _torch_compat
from fusioncut._log import log_decision
from fusioncut.decision import decide_module
from fusioncut.emit import build_modules
from fusioncut.graph import check_partitionable, unsupported_construct
from fusioncut.options import Options
from fusioncut.report.build import report_from_decision
from fusioncut.report.capture import trace
from fusioncut.report.compare import compare_methods
from fusioncut.report.model import MethodSummary, Report

__all__ = ["combine", "explain", "explain_joint"]

_SUMMED = ("time_s", "num_saved", "num_saved_inputs", "num_saved_symints", "saved_bytes",
           "input_bytes", "static_bytes", "traffic_bytes")


def explain(fn_or_module: Any, *args: Any, options: Options | None = None,
            compare: bool = True, via: str = "dynamo", **kwargs: Any) -> Report:
    """Call ``fn_or_module(*args, **kwargs)`` the way ``torch.compile`` does, partition every
    joint graph with fusioncut (and, if ``compare``, with torch's min-cut partitioner at the
    same setting and with ``default_partition``) and explain the result: one report over
    every graph, totals summed (``Report.graphs`` has each graph's own).

    ``via``: ``"dynamo"`` (default; keyword inputs, any outputs, graph breaks) or ``"aot"``
    (``aot_module`` / ``aot_function``: positional tensors, one graph); see ``capture``.
    ``fn_or_module`` may also be what ``capture`` returned (no inputs then): tracing costs
    seconds, so explain one capture under several options that way.
    A keyword input named ``options``, ``compare`` or ``via`` must be given positionally.

    Rejects: what ``capture`` rejects (``fn_or_module`` that is neither an ``nn.Module`` nor
    callable, or a module class; a bad ``via``; a call inside a running compile; inputs from
    which no backward follows), ``options`` that is not an ``Options`` or ``compare`` that is
    not a bool (``TypeError``), and a model every graph of which fusioncut hands to PyTorch
    (``ValueError`` naming the construct). Errors raised by the user's model propagate
    unchanged.
    """
    _check_options("explain", options, compare)
    captured = trace("explain", fn_or_module, args, kwargs, via=via)
    reports, fallbacks = [], []
    for k, joint in enumerate(captured.graphs):
        reason = unsupported_construct(joint.joint_module)
        if reason is not None:
            fallbacks.append(f"graph {k}: {reason}")
            continue
        reports.append(explain_joint(
            joint.joint_module, num_fwd_outputs=joint.num_fwd_outputs,
            joint_inputs=joint.joint_inputs,
            static_lifetime_input_indices=joint.static_lifetime_input_indices,
            options=options, compare=compare))
    if not reports:
        raise ValueError("explain: fusioncut.partition falls back to PyTorch's partitioner "
                         f"for every graph ({'; '.join(fallbacks)}); there is no fusioncut "
                         "decision to explain")
    report = combine(reports)
    report.via, report.graph_breaks = captured.via, list(captured.graph_breaks)
    report.fallbacks = fallbacks
    return report


def explain_joint(joint_module: fx.GraphModule, *, num_fwd_outputs: int,
                  joint_inputs: Any = None,
                  static_lifetime_input_indices: list[int] | None = None,
                  options: Options | None = None, compare: bool = True) -> Report:
    """Explain fusioncut's partition of a joint graph in hand. ``joint_module`` is not
    modified (every partitioner runs on its own deep copy). Raises ``PartitionError`` when no
    valid partition exists (``format_partition_error`` groups its path by constraint).

    Rejects, before copying anything: what ``graph.check_joint_module`` rejects (a
    non-GraphModule, a malformed graph: cycles, uses before definition, foreign nodes, no
    output, call_module nodes; bad ``num_fwd_outputs`` or ``static_lifetime_input_indices``),
    ``options`` that is not an ``Options`` or ``compare`` that is not a bool (``TypeError``),
    and a graph ``partition`` would hand to PyTorch's partitioner (``ValueError`` naming the
    construct)."""
    _check_options("explain_joint", options, compare)
    if options is None:
        options = Options()
    check_partitionable(joint_module, num_fwd_outputs, static_lifetime_input_indices,
                        "explain_joint")
    with _torch_compat.quiet_copies():
        jm = copy.deepcopy(joint_module)
    t0 = time.perf_counter()
    decision = decide_module(jm, num_fwd_outputs, static_lifetime_input_indices, options,
                             "explain_joint")
    t1 = time.perf_counter()
    fw, bw = build_modules(jm, decision.saved_values, decision.saved_sym_nodes,
                           num_fwd_outputs=num_fwd_outputs,
                           static_lifetime_input_indices=static_lifetime_input_indices)
    t2 = time.perf_counter()
    log_decision(decision, decide_s=t1 - t0, emit_s=t2 - t1)
    report = report_from_decision(decision, fw, bw, decide_s=t1 - t0, emit_s=t2 - t1,
                                  options=options)
    if compare:
        compare_methods(report, joint_module, joint_inputs, num_fwd_outputs,
                        static_lifetime_input_indices, options)
    return report


def combine(reports: list[Report]) -> Report:
    """One report over several joint graphs (in order): values, bans and differences of
    every graph (``graph`` = its index), each method's totals summed."""
    if len(reports) == 1:
        return reports[0]
    first = reports[0]
    out = Report(mode=first.mode, setting=first.setting, values=[], banned=[], methods=[],
                 graphs=[], lifted=[], differences=[])
    for k, r in enumerate(reports):
        for items in (r.values, r.banned, r.lifted, r.differences):
            for item in items:
                item.graph = k
        out.values += r.values
        out.banned += r.banned
        out.lifted += r.lifted
        out.differences += r.differences
        out.graphs += r.graphs
    out.differences.sort(key=lambda d: (-d.nbytes, d.graph, d.name))
    for name in [m.method for m in first.methods]:
        parts = [m for r in reports for m in r.methods if m.method == name]
        out.methods.append(_sum(name, parts, len(reports)))
    return out


def _sum(name: str, parts: list[MethodSummary], num_graphs: int) -> MethodSummary:
    total = MethodSummary(method=name, time_s=0.0, setting=parts[0].setting if parts else "")
    errors = [f"graph {k}: {m.error}" for k, m in enumerate(parts) if m.error]
    if errors or len(parts) != num_graphs:
        total.time_s = None
        total.error = "; ".join(errors) or "not run on every graph"
        return total
    for m in parts:
        for f in _SUMMED:
            setattr(total, f, getattr(total, f) + getattr(m, f))
        total.saved += m.saved
        for op, b in m.bytes_by_op.items():
            total.bytes_by_op[op] = total.bytes_by_op.get(op, 0) + b
    return total


def _check_options(function: str, options: Any, compare: Any) -> None:
    if options is not None and not isinstance(options, Options):
        raise TypeError(f"{function}: options must be a fusioncut.Options, got "
                        f"{type(options).__name__}")
    if not isinstance(compare, bool):
        raise TypeError(f"{function}: compare must be True or False, got {compare!r}")
