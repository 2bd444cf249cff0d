"""``fusioncut.explain``: why each value was saved, recomputed or banned, and what it costs.

    fn / nn.Module ──capture──> joint graph ──deep copies──> fusioncut (decide + build_modules)
                                                        ├──> torch min_cut_rematerialization
                                                        └──> torch default_partition
      Report: saved / recomputed / banned (report.build), one MethodSummary per partitioner,
              each measured from its forward module's outputs with fusioncut's cost model
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
from fusioncut.graph import check_partitionable
from fusioncut.options import Options
from fusioncut.report.build import measure, report_from_decision
from fusioncut.report.capture import capture
from fusioncut.report.model import MethodSummary, Report

__all__ = ["explain", "explain_joint"]


def explain(fn_or_module: Any, *example_inputs: Any, options: Options | None = None,
            compare: bool = True) -> Report:
    """Trace, partition with fusioncut (and, if ``compare``, with torch's min-cut partitioner
    and ``default_partition``) and explain the result. See ``explain_joint``.

    Rejects: ``fn_or_module`` that is neither an ``nn.Module`` nor callable (``TypeError``),
    inputs from which no backward follows (``ValueError``), ``options`` that is not an
    ``Options`` or ``compare`` that is not a bool (``TypeError``), and graphs fusioncut hands
    to PyTorch (``ValueError`` naming the construct). Errors raised by the user's model
    propagate unchanged.
    """
    _check_options("explain", options, compare)
    cap = capture(fn_or_module, *example_inputs, function="explain")
    return explain_joint(cap.joint_module, num_fwd_outputs=cap.num_fwd_outputs,
                         joint_inputs=cap.joint_inputs,
                         static_lifetime_input_indices=cap.static_lifetime_input_indices,
                         options=options, compare=compare)


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
    and a graph ``partition`` would
    hand to PyTorch's partitioner (``ValueError`` naming the construct)."""
    _check_options("explain_joint", options, compare)
    if options is None:
        options = Options()
    check_partitionable(joint_module, num_fwd_outputs, static_lifetime_input_indices,
                        "explain_joint")
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
        for name, fn in (("torch min-cut", _torch_compat.min_cut_rematerialization_partition()),
                         ("default_partition", _torch_compat.default_partition())):
            report.methods.append(_run_method(name, fn, joint_module, joint_inputs,
                                              num_fwd_outputs, static_lifetime_input_indices,
                                              decision))
    return report


def _check_options(function: str, options: Any, compare: Any) -> None:
    if options is not None and not isinstance(options, Options):
        raise TypeError(f"{function}: options must be a fusioncut.Options, got "
                        f"{type(options).__name__}")
    if not isinstance(compare, bool):
        raise TypeError(f"{function}: compare must be True or False, got {compare!r}")


def _run_method(name, fn, joint_module, joint_inputs, num_fwd_outputs, static, decision):
    jm = copy.deepcopy(joint_module)  # torch's partitioners mutate the joint graph
    t0 = time.perf_counter()
    try:
        fw, _ = fn(jm, joint_inputs, num_fwd_outputs=num_fwd_outputs,
                   static_lifetime_input_indices=static)
    except Exception as e:  # a peer failing is a result to report, not a reason to stop
        return MethodSummary(method=name, time_s=None,
                             error=f"{type(e).__name__}: {str(e).splitlines()[0][:200]}")
    elapsed = time.perf_counter() - t0
    return measure(name, fw, decision.graph, decision.costs, decision.static_inputs, elapsed)
