"""``fusioncut.partition`` (this module is ``fusioncut.partitioner``): AOTAutograd's ``partition_fn``, and ``decide``, the choice it makes.

    joint_module ──────> JointGraph.from_fx ──> policy.analyze ──> cost.weights
                                                                       │
          emit.build_modules <── saved set <── min_node_cut (source: inputs + bans,
                                                              sink: backward + MUST_RECOMPUTE)

Flow network (paper section 3.3, one vertex pair per node, split in the solver):
``source_in``: graph inputs and banned forward nodes; ``sink_in``: tangents, nodes that depend
on them, and nodes annotated to be recomputed; ``sink_out``: backward outputs that do not
depend on a tangent (they must be available, not necessarily recomputed); every data
dependency is an infinite edge; node ``i``'s own edge has capacity ``weights[i]``.

No CSE: torch runs ``fx_graph_cse`` on the joint graph first. That copies the graph (a hash
per node, the slowest step after networkx on large graphs) and renames nodes that
annotations and explanations refer to; AOTAutograd graphs traced by Dynamo are already
CSE'd, and an uncaught duplicate only costs when both copies would be saved.

Dead code matters (a dead backward node would force its forward inputs to be saved), but the
graph is not edited: ``JointGraph`` marks nodes that reach no output and have no effect as
``Role.DEAD`` in the same reverse pass that finds the forward (torch's
``Graph.eliminate_dead_code`` takes ~50 ms on a 7.6k-node GPT graph; the emitter drops dead
nodes itself).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import torch.fx as fx

from fusioncut import _torch_compat
from fusioncut._log import log_decision
from fusioncut.cost import INF, weights as node_weights
from fusioncut.graph import JointGraph, Role
from fusioncut.options import Options
from fusioncut.policy import Policy, analyze

__all__ = ["Decision", "PartitionError", "decide", "partition"]


class PartitionError(ValueError):
    """No valid partition: some value must be in the backward but can neither be recomputed
    nor saved. ``nodes`` is the offending path (source side first), ``reasons[k]`` says why
    each node is on it."""

    def __init__(self, message: str, nodes: list[fx.Node], reasons: list[list[str]]):
        super().__init__(message)
        self.nodes = nodes
        self.reasons = reasons


def _min_node_cut(weights, src, dst, **kwargs):
    """The one call into the max-flow solver (switch the solver here)."""
    import fusioncut

    return fusioncut.min_node_cut(weights, src, dst, **kwargs)


@dataclass
class Decision:
    """What to save, and everything the choice was made from (for reports and re-solving)."""

    graph: JointGraph
    policy: Policy
    weights: np.ndarray
    source_in: np.ndarray
    sink_in: np.ndarray
    sink_out: np.ndarray
    saved: np.ndarray  # int64 node indices, ascending (graph order)
    cut_value: int
    dropped_preferences: list[int]  # nodes whose PREFER_* constraint made every cut infinite

    @property
    def saved_nodes(self) -> list[fx.Node]:
        return [self.graph.nodes[i] for i in self.saved]

    @property
    def saved_values(self) -> list[fx.Node]:
        from fusioncut.graph import Value

        return [self.graph.nodes[i] for i in self.saved if self.graph.value[i] == Value.TENSOR]

    @property
    def saved_sym_nodes(self) -> list[fx.Node]:
        from fusioncut.graph import Value

        return [self.graph.nodes[i] for i in self.saved if self.graph.value[i] == Value.SYMINT]


def _static_input_mask(graph: JointGraph, static_lifetime_input_indices) -> np.ndarray:
    """Bool (n,): static-lifetime inputs; index k names the k-th primal input."""
    mask = np.zeros(graph.num_nodes, dtype=bool)
    if static_lifetime_input_indices:
        primals = np.flatnonzero(graph.role == Role.PRIMAL)
        wanted = [k for k in set(static_lifetime_input_indices) if 0 <= k < len(primals)]
        mask[primals[wanted]] = True
    return mask


def decide(joint_module: fx.GraphModule, *, num_fwd_outputs: int,
           static_lifetime_input_indices: list[int] | None = None,
           options: Options | None = None) -> Decision:
    """Choose the saved set of ``joint_module``; the graph is not modified."""
    if options is None:
        options = Options()
    graph = JointGraph.from_fx(joint_module, num_fwd_outputs, options.unbacked_size_hint)
    return _decide(graph, static_lifetime_input_indices, options)


def _decide(graph: JointGraph, static_lifetime_input_indices, options: Options) -> Decision:
    policy = analyze(graph, options)
    w = node_weights(graph, policy, options,
                     static_input_nodes=_static_input_mask(graph, static_lifetime_input_indices))
    role = graph.role
    source_in = policy.banned_mask()
    recompute = policy.recompute_mask()
    sink_in = (role == Role.BACKWARD) | (role == Role.TANGENT) | (role == Role.BWD_SEED)
    sink_in |= recompute
    # A backward output computable from forward inputs alone: available, saved or recomputed.
    sink_out = graph.bwd_output & ~sink_in
    dropped: list[int] = []
    while True:
        try:
            cut = _min_node_cut(w, graph.edge_src, graph.edge_dst, source_in=source_in,
                                source_out=np.zeros(graph.num_nodes, dtype=bool),
                                sink_in=sink_in, sink_out=sink_out,
                                algorithm=options.algorithm)
            break
        except ValueError as e:
            path = getattr(e, "path", None)
            if path is None:
                raise
            path = [int(p) for p in path]
            soft = _soft_constraints_on(path, graph, policy, source_in, sink_in)
            if not soft:
                raise _partition_error(path, graph, policy, w, source_in, sink_in,
                                       sink_out) from e
            for i in soft:
                if policy.soft_ban[i]:
                    source_in[i] = False
                if policy.soft_recompute[i] and role[i] != Role.BACKWARD:
                    sink_in[i] = False
                dropped.append(i)
    saved = np.asarray(cut.cut_nodes, dtype=np.int64)
    return Decision(graph=graph, policy=policy, weights=w, source_in=source_in,
                    sink_in=sink_in, sink_out=sink_out, saved=saved,
                    cut_value=int(cut.value), dropped_preferences=dropped)


def _soft_constraints_on(path, graph, policy, source_in, sink_in) -> list[int]:
    """Nodes whose PREFER_* constraint is an end of the infinite path (and still active)."""
    first, last = path[0], path[-1]
    out = []
    if policy.soft_ban[first] and source_in[first]:
        out.append(first)
    if policy.soft_recompute[last] and sink_in[last] and graph.role[last] != Role.BACKWARD \
            and last not in out:
        out.append(last)
    return out


def _partition_error(path, graph, policy, w, source_in, sink_in, sink_out) -> PartitionError:
    nodes = [graph.nodes[i] for i in path]
    reasons: list[list[str]] = []
    for k, i in enumerate(path):
        why: list[str] = []
        if k == 0 and source_in[i]:
            ban = policy.ban[i]
            if ban is not None and ban.kind.name == "INPUT":
                why.append(f"available in the forward: {ban}")
            else:
                why.append(f"may not be recomputed: {ban}")
        if k > 0:
            why.append(f"depends on {graph.nodes[path[k - 1]].name}")
        if k < len(path) - 1 or not sink_out[i]:
            if w[i] >= INF:
                unsaveable = policy.unsaveable[i]
                if unsaveable is not None:
                    why.append(f"cannot be saved: {unsaveable}")
                else:
                    why.append("cannot be saved: computed in the backward")
        if k == len(path) - 1:
            if policy.recompute[i] is not None and sink_in[i]:
                why.append(f"must be recomputed: {policy.recompute[i]}")
            elif sink_in[i]:
                why.append("must run in the backward: depends on a tangent")
            elif sink_out[i]:
                why.append("needed by the backward: a backward output")
        reasons.append(why)
    lines = [f"  {node.name} ({graph.op_name(i)}): " + "; ".join(r)
             for node, i, r in zip(nodes, path, reasons)]
    message = ("fusioncut.partition: no valid partition; every cut would recompute a node that "
               "may not be recomputed or save one that cannot be saved. Offending path:\n"
               + "\n".join(lines))
    return PartitionError(message, nodes, reasons)


def _unsupported_config() -> str | None:
    """torch settings that change what a partitioner must emit; read once per call."""
    if _torch_compat.activation_offloading_enabled():
        return "torch._functorch.config.enable_activation_offloading = True"
    if _torch_compat.activation_quantization_enabled():
        return "activation quantization (post_grad_fusion_options)"
    config = _torch_compat.functorch_config()
    budget = getattr(config, "activation_memory_budget", 1.0)
    if budget != 1.0:
        return f"torch._functorch.config.activation_memory_budget = {budget}"
    if getattr(config, "_sync_decision_cross_ranks", False):
        return "torch._functorch.config._sync_decision_cross_ranks = True"
    return None


def partition(joint_module: fx.GraphModule, _joint_inputs: Any, compiler: str = "inductor", *,
              num_fwd_outputs: int, static_lifetime_input_indices: list[int] | None = None,
              options: Options | None = None, sizes: Any = None,
              report: Callable[[Any], None] | None = None,
              range_report: Callable[[Any], None] | None = None, **kwargs: Any
              ) -> tuple[fx.GraphModule, fx.GraphModule]:
    """Split AOTAutograd's joint graph into forward and backward GraphModules.

    Same contract as ``torch._functorch.partitioners.min_cut_rematerialization_partition``:
    usable as ``partition_fn`` of ``aot_function`` / ``aot_module`` /
    ``aot_module_simplified``. ``compiler`` and unknown keyword arguments are accepted and
    ignored, as torch does. ``options`` is a ``fusioncut.Options``. A graph fusioncut does not
    model falls back to torch's partitioner with a ``FallbackWarning``; a contradiction in
    the constraints raises ``PartitionError``.

    Dynamic shapes (docs/dynamic.md): the decision is made at the size hints unless ``sizes``
    (``{symbol or name: int}``, or a callable ``Plan -> mapping``) names other sizes;
    ``range_report`` receives a ``RangeReport`` saying whether the decision stays optimal
    over the symbols' declared ranges. ``report`` receives a ``fusioncut.Report`` of the
    decision (docs/explain.md). Bind these with ``functools.partial``.
    """
    if options is not None and not isinstance(options, Options):
        raise TypeError(f"partition: options must be a fusioncut.Options, got "
                        f"{type(options).__name__}")
    if options is None:
        options = Options()
    if sizes is not None or range_report is not None:
        from fusioncut.dynamic import partition_for_sizes

        return partition_for_sizes(joint_module, _joint_inputs, compiler,
                                   num_fwd_outputs=num_fwd_outputs, sizes=sizes,
                                   report=range_report,
                                   static_lifetime_input_indices=static_lifetime_input_indices,
                                   options=options)
    reason = _unsupported_config()
    graph = None
    if reason is None:
        graph = JointGraph.from_fx(joint_module, num_fwd_outputs, options.unbacked_size_hint)
        reason = graph.unsupported
    if reason is not None:
        from fusioncut.fallback import fallback_partition

        return fallback_partition(reason, joint_module, _joint_inputs,
                                  num_fwd_outputs=num_fwd_outputs,
                                  static_lifetime_input_indices=static_lifetime_input_indices,
                                  compiler=compiler, stacklevel=3)
    t0 = time.perf_counter()
    decision = _decide(graph, static_lifetime_input_indices, options)
    t1 = time.perf_counter()
    log_decision(decision, decide_s=t1 - t0)
    from fusioncut.emit import build_modules

    fw, bw = build_modules(joint_module, decision.saved_values, decision.saved_sym_nodes,
                           num_fwd_outputs=num_fwd_outputs,
                           static_lifetime_input_indices=static_lifetime_input_indices)
    if report is not None:
        from fusioncut.explain import report_from_decision

        report(report_from_decision(decision, fw, bw, decide_s=t1 - t0,
                                    emit_s=time.perf_counter() - t1, options=options,
                                    static_lifetime_input_indices=static_lifetime_input_indices))
    return fw, bw
