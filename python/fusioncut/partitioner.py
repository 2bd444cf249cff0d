"""``fusioncut.partition``: AOTAutograd's ``partition_fn``; the front door over everything else.

    joint_module ─> fallback.unsupported_config / JointGraph.unsupported ──> torch's partitioner
         │                                                                  (FallbackWarning)
         ├─> decision.decide_graph ─> emit.build_modules ─> (forward, backward)
         │        └─ _sync_decision_cross_ranks, a collective in the graph: rank 0's saved
         │           set (ranks.adopt_rank0)
         ├─ an invoke_subgraph region seen before (regions.Region.reuse) ─> emit.Template
         ├─ sizes= / range_report= ─> dynamic.plan ─> Plan.solve ─> emit
         └─ report= ─> report.report_from_decision

``decide`` (re-exported from ``decision``) chooses without emitting.
"""

from __future__ import annotations

import dataclasses
import time
import warnings
from collections.abc import Mapping, Sequence
from typing import Any, Callable

import torch
import torch.fx as fx

from fusioncut import _torch_compat, ranks, regions
from fusioncut._log import log_decision, logger
from fusioncut._validate import check_number
from fusioncut.budget import BudgetWarning
from fusioncut.decision import Decision, PartitionError, decide, decide_graph
from fusioncut.dynamic import RangeReport, SizeError, check_optimal_over_ranges, plan
from fusioncut.emit import build_modules
from fusioncut.fallback import fallback_partition, unsupported_config
from fusioncut.graph import JointGraph, check_joint_module, unsupported_construct
from fusioncut.options import Options
from fusioncut.report import report_from_decision

__all__ = ["Decision", "PartitionError", "decide", "partition", "partition_for_sizes"]

_torch_compat.check_torch_version(stacklevel=2)


def partition(joint_module: fx.GraphModule, _joint_inputs: Any, compiler: str = "inductor", *,
              num_fwd_outputs: int, static_lifetime_input_indices: list[int] | None = None,
              options: Options | None = None, sizes: Any = None,
              report: Callable[[Any], None] | None = None,
              range_report: Callable[[RangeReport], None] | None = None, **kwargs: Any
              ) -> tuple[fx.GraphModule, fx.GraphModule]:
    """Split AOTAutograd's joint graph into forward and backward GraphModules.

    Same contract as ``torch._functorch.partitioners.min_cut_rematerialization_partition``:
    usable as ``partition_fn`` of ``aot_function`` / ``aot_module`` /
    ``aot_module_simplified``. ``compiler`` and unknown keyword arguments are accepted and
    ignored, as torch does. ``options`` is a ``fusioncut.Options``. A graph fusioncut does not
    model falls back to torch's partitioner with a ``FallbackWarning``; a contradiction in
    the constraints raises ``PartitionError``.

    Rejects, before any work: ``joint_module`` that is not an ``fx.GraphModule``
    (``TypeError``); a malformed graph (no or several output nodes, output not last,
    call_module or call_method nodes, a cycle, a use before definition, a node of another
    graph, a non-callable target, a node without ``meta["val"]`` (operators that return
    nothing excepted), an element count int64 cannot hold, an ``invoke_subgraph`` call that
    disagrees with its subgraph, an activation-memory-budget annotation or
    ``torch._functorch.config.activation_memory_budget`` outside ``[0, 1]``: ``ValueError``
    naming the node or setting); ``num_fwd_outputs`` that is not an int in
    ``[0, number of outputs - 1]`` (a graph whose outputs are all forward outputs has no
    backward to partition: PyTorch's partitioners return an empty backward for it, fusioncut
    refuses it, since AOTAutograd never asks),
    ``static_lifetime_input_indices`` that is not a sequence of ints in ``[0, number of primal
    inputs)``, ``options`` that is not an ``Options`` (``TypeError`` or ``ValueError`` naming
    the argument and its valid range); ``report`` or ``range_report`` that is not callable
    (``TypeError``); ``sizes`` as ``Plan.solve`` does.

    Dynamic shapes (docs/dynamic.md): the decision is made at the size hints unless ``sizes``
    (``{symbol or name: int}``, or a callable ``Plan -> mapping``) names other sizes;
    ``range_report`` receives a ``RangeReport`` saying whether the decision stays optimal
    over the symbols' declared ranges. ``report`` receives a ``fusioncut.Report`` of the
    decision (docs/explain.md). Bind these with ``functools.partial``.
    """
    _hooks("partition", report=report, range_report=range_report)
    if sizes is not None or range_report is not None:
        return partition_for_sizes(joint_module, _joint_inputs, compiler,
                                   num_fwd_outputs=num_fwd_outputs, sizes=sizes,
                                   report=range_report,
                                   static_lifetime_input_indices=static_lifetime_input_indices,
                                   options=options)
    options = with_torch_offload(_options("partition", options))
    region = _region(joint_module, _joint_inputs, num_fwd_outputs,
                     static_lifetime_input_indices, options, report)
    reused = region.reuse() if region is not None else None
    if reused is not None:
        logger.info("invoke_subgraph region: reused the decision of an identical region")
        return reused
    graph = JointGraph.from_fx(joint_module, num_fwd_outputs, options.unbacked_size_hint,
                               static_lifetime_input_indices=static_lifetime_input_indices)
    reason = unsupported_config() or graph.unsupported
    if reason is not None:
        return fallback_partition(reason, joint_module, _joint_inputs,
                                  num_fwd_outputs=num_fwd_outputs,
                                  static_lifetime_input_indices=static_lifetime_input_indices,
                                  compiler=compiler, stacklevel=3)
    options = with_torch_budget(options, graph.memory_budget, graph.budget_conflict)
    t0 = time.perf_counter()
    decision = decide_graph(graph, static_lifetime_input_indices, options)
    if ranks.sync_requested(graph):
        ranks.adopt_rank0(decision)
    t1 = time.perf_counter()
    log_decision(decision, decide_s=t1 - t0)
    if region is not None:
        fw, bw = region.build(decision.saved_values, decision.saved_sym_nodes,
                              decision.offloaded_nodes, decision.offload_waits)
    else:
        fw, bw = build_modules(joint_module, decision.saved_values, decision.saved_sym_nodes,
                               num_fwd_outputs=num_fwd_outputs,
                               static_lifetime_input_indices=static_lifetime_input_indices,
                               offloaded=decision.offloaded_nodes,
                               offload_waits=decision.offload_waits)
    if report is not None:
        report(report_from_decision(decision, fw, bw, decide_s=t1 - t0,
                                    emit_s=time.perf_counter() - t1, options=options))
    return fw, bw


def partition_for_sizes(joint_module: fx.GraphModule, joint_inputs: Any,
                        compiler: str = "inductor", *, num_fwd_outputs: int,
                        sizes: Mapping[Any, int] | Any = None,
                        report: Callable[[RangeReport], None] | None = None,
                        static_lifetime_input_indices: Sequence[int] | None = None,
                        options: Options | None = None, **kwargs: Any
                        ) -> tuple[fx.GraphModule, fx.GraphModule]:
    """``fusioncut.partition`` that decides for chosen sizes of a dynamic-shape graph.

    ``sizes``: None (the size hints, i.e. exactly ``partition``), ``{symbol or name: int}``
    for every symbol, or a callable ``Plan -> mapping`` (for instance
    ``lambda p: {**p.hints(), seq_symbol(p): 4096}``, since symbol names are only known once
    the graph is traced). ``report``: None, or a callable that receives the
    ``check_optimal_over_ranges`` ``RangeReport`` of the decision (is it optimal over the
    symbols' declared ranges?). A graph without symbols takes ``partition``'s path (sizes must
    then be None: ``SizeError`` otherwise); graphs fusioncut does not model fall back to
    torch's partitioner as ``partition`` does.

    Rejects: what ``partition`` rejects, and what ``Plan.solve`` rejects in ``sizes``.
    """
    options = with_torch_offload(_options("partition", options))
    _hooks("partition", report=report)
    check_joint_module(joint_module, num_fwd_outputs, static_lifetime_input_indices)
    if (sizes is None and report is None) or not _has_symbols(joint_module):
        if sizes is not None:
            raise SizeError(f"partition: sizes {sizes!r} given but the joint graph has no "
                            f"size symbols")
        return partition(joint_module, joint_inputs, compiler,
                         num_fwd_outputs=num_fwd_outputs,
                         static_lifetime_input_indices=static_lifetime_input_indices,
                         options=options, **kwargs)
    reason = unsupported_config() or unsupported_construct(joint_module)
    if reason is not None:
        return fallback_partition(reason, joint_module, joint_inputs,
                                  num_fwd_outputs=num_fwd_outputs,
                                  static_lifetime_input_indices=static_lifetime_input_indices,
                                  compiler=compiler, stacklevel=3)
    p = plan(joint_module, joint_inputs, num_fwd_outputs=num_fwd_outputs,
             static_lifetime_input_indices=static_lifetime_input_indices, options=options)
    chosen = sizes(p) if callable(sizes) else sizes
    if report is not None:
        report(check_optimal_over_ranges(p, chosen))
    if ranks.sync_requested(p.graph):
        saved = ranks.sync_saved(p.graph, p.solve(chosen).saved_index)
        return build_modules(joint_module, *p.graph.split_saved(saved),
                             num_fwd_outputs=num_fwd_outputs,
                             static_lifetime_input_indices=static_lifetime_input_indices,
                             offloaded=p.offloaded_nodes(saved))
    return p.partition(chosen)


def with_torch_offload(options: Options) -> Options:
    """``options`` with ``offload`` resolved: ``None`` becomes ``"auto"`` when
    ``torch._functorch.config.enable_activation_offloading`` is set (honoured: fusioncut plans
    and emits the offloading through torch's own pass), else stays None (``"never"``)."""
    if options.offload is not None or not _torch_compat.activation_offloading_enabled():
        return options  # offload_mode reads None as "never"
    logger.info("offload 'auto' from torch._functorch.config.enable_activation_offloading")
    return dataclasses.replace(options, offload="auto")


def with_torch_budget(options: Options, annotated: float | None = None,
                      conflict: str | None = None) -> Options:
    """``options`` with the memory budget PyTorch asks for when none is set: the graph's
    region annotation (``torch.autograd.graph.region_activation_memory_budget``; the strictest
    when annotations disagree, with a ``BudgetWarning`` naming them), else
    ``torch._functorch.config.activation_memory_budget``. A budget in ``options`` wins.
    Rejects a torch setting that is not a number in [0, 1] (``ValueError`` naming it)."""
    if options.budgeted or options.memory_budget is not None:
        return options
    source, budget = "region annotation", annotated
    if budget is None:
        source = "torch._functorch.config.activation_memory_budget"
        budget = getattr(_torch_compat.functorch_config(), "activation_memory_budget", 1.0)
        if budget is None:
            return options
        budget = check_number("partition", source, budget, 0, 1)
    elif conflict is not None:
        warnings.warn(f"fusioncut: {conflict}: one joint graph is partitioned under one "
                      f"budget, so fusioncut uses the strictest, {budget:g} (put regions "
                      f"that need different budgets in different graphs with a graph "
                      f"break)", BudgetWarning, stacklevel=3)
    if budget == 1.0:
        return options
    logger.info("memory budget %g from %s", budget, source)
    return dataclasses.replace(options, memory_budget=float(budget))


def _region(joint_module: Any, joint_inputs: Any, num_fwd_outputs: int,
            static_lifetime_input_indices: Any, options: Options,
            report: Any) -> regions.Region | None:
    """The decision cache of AOTAutograd's per-region calls for invoke_subgraph
    (``regions.py``), or None: another kind of call, a report asked for (it needs the whole
    decision), a torch setting that makes fusioncut fall back, or ranks that share rank 0's
    decisions (a replay on one rank must not skip the exchange another rank makes)."""
    if report is not None or not regions.is_region_call(joint_module, joint_inputs) \
            or unsupported_config() is not None or ranks.sync_flag_active():
        return None
    return regions.Region(joint_module, num_fwd_outputs, static_lifetime_input_indices,
                          options)


def _hooks(function: str, **hooks: Any) -> None:
    for name, hook in hooks.items():
        if hook is not None and not callable(hook):
            raise TypeError(f"{function}: {name} must be a callable or None, got "
                            f"{type(hook).__name__}")


def _options(function: str, options: Any) -> Options:
    if options is None:
        return Options()
    if not isinstance(options, Options):
        raise TypeError(f"{function}: options must be a fusioncut.Options, got "
                        f"{type(options).__name__}")
    return options


def _has_symbols(gm: fx.GraphModule) -> bool:
    for node in gm.graph.nodes:
        val = node.meta.get("val")
        if isinstance(val, torch.SymInt):
            return True
        if isinstance(val, torch.Tensor) and not isinstance(val.numel(), int):
            return True
    return False

