"""``decide``: the saved set of a joint graph, and everything it was chosen from.

    JointGraph ──> policy.analyze ──> cost.cost_model ──> weights
         │               │                                   │
         └──────> network.flow_network ──> min_node_cut ─────┴──> Decision (saved indices)

PREFER_* annotations are preferences: when one lies at an end of an infinite source-to-sink
path (every cut would be infinite), it is dropped and the cut solved again. Any other infinite
path is a contradiction and raises ``PartitionError``, whose path says, node by node, which
constraint put it there (``PathReason.constraint``).

No CSE: torch runs ``fx_graph_cse`` on the joint graph first. That copies the graph (a hash
per node, the slowest step after networkx on large graphs) and renames nodes that
annotations and explanations refer to; AOTAutograd graphs traced by Dynamo are already
CSE'd, and an uncaught duplicate only costs when both copies would be saved.

Dead code matters (a dead backward node would force its forward inputs to be saved), but the
graph is not edited: ``JointGraph`` marks nodes that reach no output and have no effect as
``Role.DEAD`` in the same reverse pass that finds the forward.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch.fx as fx

from fusioncut import _torch_compat, _torch_offload, offload_link, quantization
from fusioncut._log import logger
from fusioncut._solver import INF, UnboundedCutError, min_node_cut
from fusioncut.budget import (
    BudgetChoice,
    Frontier,
    budget_network,
    choose,
    frontier,
    peak_margin_for,
    saved_activation_bytes,
)
from fusioncut.cost import CostModel, cost_model
from fusioncut.graph import JointGraph, Role, Value
from fusioncut.joint_check import fallback_error
from fusioncut.network import FlowNetwork, flow_network, priced_network
from fusioncut.offload import OffloadPolicy, Request, offloaded
from fusioncut.offload import analyze as analyze_offload
from fusioncut.offload_link import Link, OffloadArcs
from fusioncut.options import Options
from fusioncut.policy import Policy, ReasonKind, analyze
from fusioncut.recompute import recompute_model

__all__ = ["BudgetChoice", "Constraint", "Decision", "PartitionError", "PathReason", "decide",
           "decide_graph", "decide_module", "joint_graph", "pareto"]


class Constraint(enum.Enum):
    """Which rule put a node on an infinite path."""

    ANNOTATION = "user annotation"
    BAN = "ban"
    INPUT = "graph input"
    DEPENDENCY = "data dependency"
    BACKWARD = "backward"


class PathReason(str):
    """One reason a node is on an infinite path: the text, plus the ``Constraint`` behind it
    (and the ``Reason`` from the policy, when there is one)."""

    constraint: Constraint
    reason: Any

    def __new__(cls, text: str, constraint: Constraint, reason: Any = None) -> PathReason:
        obj = super().__new__(cls, text)
        obj.constraint = constraint
        obj.reason = reason
        return obj


class PartitionError(ValueError):
    """No valid partition: some value must be in the backward but can neither be recomputed
    nor saved. ``nodes`` is the offending path (source side first), ``reasons[k]`` says why
    each node is on it (``PathReason`` strings carrying their ``Constraint``)."""

    def __init__(self, message: str, nodes: list[fx.Node], reasons: list[list[PathReason]]):
        super().__init__(message)
        self.nodes = nodes
        self.reasons = reasons


@dataclass
class Decision:
    """What to save, and everything the choice was made from (for reports and re-solving)."""

    graph: JointGraph
    policy: Policy
    costs: CostModel
    weights: np.ndarray
    network: FlowNetwork  # after dropping PREFER_* constraints
    saved: np.ndarray  # int64 node indices, ascending (graph order)
    cut_value: int
    dropped_preferences: list[int]  # nodes whose PREFER_* constraint made every cut infinite
    static_inputs: np.ndarray  # bool (n,): static-lifetime inputs
    budget: BudgetChoice | None = None  # the memory target's plan, when one was set
    runtime_saved: np.ndarray | None = None  # the runtime plan, when a budget replaced it
    quantized: np.ndarray | None = None  # bool (n,): torch's activation quantization would
    # store these at fewer bytes if saved (weights count that); None: the pass is off
    offload: OffloadPolicy | None = None  # the offload rule; None under offload="never"
    offloaded: np.ndarray = dataclasses.field(
        default_factory=lambda: np.zeros(0, dtype=np.int64))
    """int64 node indices, ascending: the saved values that go to host memory between the
    forward and the backward (a subset of ``saved``)."""

    def replace_saved(self, saved: np.ndarray, offloaded_values: np.ndarray | None = None
                      ) -> None:
        """Adopt another saved set (a budget's plan, rank 0's): its cut value follows, and the
        values offloaded from it are ``offloaded_values`` (a plan that chose them) or, when
        None, those annotations ask for (``offload.offloaded``)."""
        self.saved = np.asarray(saved, dtype=np.int64)
        self.cut_value = int(self.weights[self.saved].sum())
        self.offloaded = offloaded(self.offload, self.saved) if offloaded_values is None \
            else np.intersect1d(np.asarray(offloaded_values, dtype=np.int64), self.saved)

    @property
    def source_in(self) -> np.ndarray:
        return self.network.source_in

    @property
    def sink_in(self) -> np.ndarray:
        return self.network.sink_in

    @property
    def sink_out(self) -> np.ndarray:
        return self.network.sink_out

    @property
    def saved_nodes(self) -> list[fx.Node]:
        return [self.graph.nodes[i] for i in self.saved]

    @property
    def saved_values(self) -> list[fx.Node]:
        """Saved tensors and opaque objects (``JointGraph.split_saved``)."""
        return self.graph.split_saved(self.saved)[0]

    @property
    def saved_sym_nodes(self) -> list[fx.Node]:
        return self.graph.split_saved(self.saved)[1]

    @property
    def offloaded_nodes(self) -> list[fx.Node]:
        return [self.graph.nodes[i] for i in self.offloaded]

    @property
    def host_link(self) -> Link | None:
        """The host link the budget plan priced its offloading on; None without one."""
        arcs = self.budget.frontier.generator.bnet.offload if self.budget is not None else None
        return arcs.link if arcs is not None else None

    @property
    def offload_waits(self) -> dict[str, str | None]:
        """Per offloaded value's name, the forward node before which the forward waits for its
        copy to the host (None: the forward's end), when fusioncut paces a side stream's waits
        (a budget plan priced on a host link, ``offload_link.Link.wait_before``); ``{}``: the
        waits stay where torch's pass puts them."""
        link = self.host_link
        if link is None or not len(self.offloaded):
            return {}
        at = link.wait_before(self.offloaded, self.graph.nbytes)
        if at is None:
            return {}
        nodes, n = self.graph.nodes, self.graph.num_nodes
        return {nodes[i].name: (nodes[j].name if j < n else None)
                for i, j in zip(self.offloaded.tolist(), at.tolist())}

    def summary(self, **extra: Any) -> dict:
        """A small JSON-able description (for logs and trace artifacts)."""
        graph, policy = self.graph, self.policy
        names = [nd.name for nd in graph.nodes]
        bans: dict[str, int] = {}
        for r in policy.ban:
            if r is not None and r.kind != ReasonKind.INPUT:
                bans[r.kind.value] = bans.get(r.kind.value, 0) + 1
        saved = [{"name": names[i], "op": graph.op_name(i), "bytes": int(graph.nbytes[i]),
                  "why": str(policy.ban[i]) if policy.ban[i] is not None else "min cut"}
                 for i in self.saved.tolist()]
        # Storage by kind, each base once: activations, static inputs (free), other inputs.
        bases = np.unique(graph.base[self.saved[graph.value[self.saved] == Value.TENSOR]])
        static = self.static_inputs[bases]
        is_input = (graph.role[bases] <= Role.CONSTANT) & ~static
        out = {"num_nodes": graph.num_nodes, "cut_value": int(self.cut_value),
               "saved_bytes": int(sum(s["bytes"] for s in saved)),
               "activation_bytes": saved_activation_bytes(graph, self.saved, self.static_inputs),
               "static_bytes": int(graph.nbytes[bases[static]].sum()),
               "input_bytes": int(graph.nbytes[bases[is_input]].sum()), "saved": saved,
               "offloaded": [names[i] for i in self.offloaded.tolist()], "bans": bans,
               "dropped_preferences": [names[i] for i in self.dropped_preferences]}
        out.update(extra)
        return out


def decide(joint_module: fx.GraphModule, *, num_fwd_outputs: int,
           static_lifetime_input_indices: list[int] | None = None,
           options: Options | None = None) -> Decision:
    """Choose the saved set of ``joint_module``; the graph is not modified.

    Rejects what ``graph.check_joint_module`` rejects (a malformed graph, a node without
    ``meta["val"]``, a graph without a backward, bad ``num_fwd_outputs`` /
    ``static_lifetime_input_indices``), a graph ``partition`` hands to PyTorch's partitioner
    (``ValueError`` naming the construct), ``options`` that is not an ``Options``
    (``TypeError``); raises ``PartitionError`` when no valid partition exists.
    """
    return decide_module(joint_module, num_fwd_outputs, static_lifetime_input_indices,
                         options, "decide")


def decide_module(joint_module: Any, num_fwd_outputs: Any, static_lifetime_input_indices: Any,
                  options: Any, function: str) -> Decision:
    """``decide`` for every entry point but ``partition``, checked alike and named
    ``function`` in its errors: a graph ``partition`` would hand to PyTorch is refused."""
    options = _options(function, options)
    graph = joint_graph(joint_module, num_fwd_outputs, static_lifetime_input_indices, options,
                        function)
    return decide_graph(graph, static_lifetime_input_indices, options)


def joint_graph(joint_module: Any, num_fwd_outputs: Any, static_lifetime_input_indices: Any,
                options: Options, function: str) -> JointGraph:
    """The checked arrays of a joint graph fusioncut decides itself (see ``decide_module``)."""
    graph = JointGraph.from_fx(joint_module, num_fwd_outputs, options.unbacked_size_hint,
                               function=function,
                               static_lifetime_input_indices=static_lifetime_input_indices)
    if graph.unsupported is not None:
        raise fallback_error(function, graph.unsupported)
    return graph


def _options(function: str, options: Any) -> Options:
    if options is None:
        return Options()
    if not isinstance(options, Options):
        raise TypeError(f"{function}: options must be a fusioncut.Options, got "
                        f"{type(options).__name__}")
    return options


def decide_graph(graph: JointGraph, static_lifetime_input_indices, options: Options) -> Decision:
    """``decide`` on a graph already turned into arrays."""
    policy = analyze(graph, options)
    rule = offload_rule(graph, options)
    static = graph.static_input_mask(static_lifetime_input_indices)
    costs = cost_model(graph, policy, options, static_input_nodes=static)
    quantized = quantization.quantized(graph, static)
    w = costs.weights(quantization.saved_nbytes(graph, quantized))
    net = flow_network(graph, policy)
    model = recompute_model(graph, options.device) if options.device is not None else None
    byte_eq = model.byte_equivalents(graph) if model is not None else None
    dropped: list[int] = []
    while True:
        try:
            if byte_eq is None:
                cut = min_node_cut(w, net.src, net.dst, source_in=net.source_in,
                                   sink_in=net.sink_in, sink_out=net.sink_out,
                                   algorithm=options.algorithm)
            else:
                priced, _, prices = priced_network(graph, net, model.costly, byte_eq,
                                                   costs.scale)
                cut = min_node_cut(np.concatenate([w, prices]), priced.src, priced.dst,
                                   source_in=priced.source_in, sink_in=priced.sink_in,
                                   sink_out=priced.sink_out, algorithm=options.algorithm)
            break
        except UnboundedCutError as e:
            path = [int(p) for p in e.path]
            soft = _soft_constraints_on(path, graph, policy, net)
            if not soft:
                raise _partition_error(path, graph, policy, w, net) from e
            for i in soft:
                if policy.soft_ban[i]:
                    net.source_in[i] = False
                if policy.soft_recompute[i] and graph.role[i] != Role.BACKWARD:
                    net.sink_in[i] = False
                dropped.append(i)
    saved = np.asarray(cut.cut_nodes, dtype=np.int64)
    saved = saved[saved < graph.num_nodes]
    decision = Decision(graph=graph, policy=policy, costs=costs, weights=w, network=net,
                        saved=saved, cut_value=int(cut.value), dropped_preferences=dropped,
                        static_inputs=static, quantized=quantized, offload=rule,
                        offloaded=offloaded(rule, saved))
    if options.budgeted:
        _apply_budget(decision, options)
    return decision


def offload_rule(graph: JointGraph, options: Options) -> OffloadPolicy | None:
    """``offload.analyze``, after checking that this torch can emit offloading at all."""
    if options.offload_mode == "never":
        return None
    try:
        _torch_offload.activation_offloading_pass()
    except ImportError as e:
        raise ValueError(f"Options: offload = {options.offload!r} needs PyTorch's activation "
                         f"offloading (torch._functorch._activation_offloading): {e}; use "
                         f"offload='never'") from None
    return analyze_offload(graph, options)


def pareto(joint_module: fx.GraphModule, joint_inputs: Any = None, *, num_fwd_outputs: int,
           static_lifetime_input_indices: list[int] | None = None,
           options: Options | None = None, **_ignored: Any) -> Frontier:
    """The frontier between recomputation and activation memory of ``joint_module``: the
    runtime plan, then plans that save fewer bytes and peak no higher, down to the least
    memory (``Frontier.points``; budget.py). Recomputation is priced on ``options.device``
    (the "h100" preset when None). A memory target in ``options`` is ignored: every plan is
    returned. Rejects what ``decide`` rejects."""
    options = _options("pareto", options)
    runtime = dataclasses.replace(options, memory_budget=None, memory_budget_bytes=None,
                                  peak_memory_bytes=None)
    graph = joint_graph(joint_module, num_fwd_outputs, static_lifetime_input_indices, options,
                        "pareto")
    return frontier_of(decide_graph(graph, static_lifetime_input_indices, runtime), options)


def frontier_of(decision: Decision, options: Options) -> Frontier:
    """The budget frontier from a runtime decision, priced on ``options.budget_device``; with
    ``offload="auto"`` and a device that has a host link, its plans may offload."""
    graph = decision.graph
    device = options.budget_device
    model = recompute_model(graph, device)
    arcs = _offload_arcs(decision, options, device, model)
    bnet = budget_network(graph, decision.policy, decision.costs, decision.network, model,
                          offload=arcs)
    runtime_offloaded = None
    if arcs is not None:  # the cut weighs preferences; only MUST_CPU_OFFLOAD binds the plan
        runtime_offloaded = np.array([i for i in decision.offloaded.tolist()
                                      if decision.offload.requested[i] is Request.MUST],
                                     dtype=np.int64)
    return frontier(graph, decision.saved, bnet, decision.costs, decision.static_inputs,
                    device, runtime_offloaded=runtime_offloaded)


def _offload_arcs(decision: Decision, options: Options, device, model) -> OffloadArcs | None:
    """What the cut may send to host memory: None unless ``offload="auto"`` and
    ``no_offload_reason`` finds none (a reason is said once per decision at WARNING)."""
    if options.offload_mode != "auto" or decision.offload is None:
        return None
    reason = no_offload_reason(decision.graph, options)
    if reason is not None:
        logger.warning("fusioncut: offload='auto' under a memory target offloads nothing "
                       "beyond what annotations ask for: %s", reason)
        return None
    graph = decision.graph
    if not graph.on_accelerator():
        logger.warning("fusioncut: offload='auto' on device %r's host link for a graph that "
                       "lives on the CPU: its copies stay in host memory, so the plan's "
                       "estimated peak is the device's, not what this process will measure",
                       device.name)
    link = offload_link.link(graph, device, model.seconds(graph),
                             _torch_offload.offload_settings())
    return offload_link.offload_arcs(graph, decision.offload, decision.costs.finite,
                                     decision.network.sink_in, link)


def no_offload_reason(graph: JointGraph, options: Options) -> str | None:
    """Why ``offload="auto"`` cannot offload on ``graph`` under ``options``, or None (None
    too for another offload mode, which the cut does not offload under). A device
    without a host link has none. Nor has the "h100" pricing a budget uses when no device is
    named, for a graph on the CPU: its values are in host memory already, so a copy there
    frees nothing and the peak it promises would not be measured (a device named in
    ``options`` is taken at its word, which is how the CPU tests force offloading)."""
    if options.offload_mode != "auto":
        return None
    if options.device is None and not graph.on_accelerator():
        return ("the graph lives on the CPU and no device is named, so its values are in host "
                "memory already (name a device with a host link, such as 'h100', to plan for "
                "it anyway)")
    device = options.budget_device
    if not device.has_host_link:
        return f"device {device.name!r} has no host link (host_bandwidth = None)"
    return None


def _apply_budget(decision: Decision, options: Options) -> None:
    """Replace the runtime plan by the frontier's plan for the memory target (with the values
    it offloads, when the cut chose them)."""
    front = frontier_of(decision, options)
    choice = choose(front, memory_budget=options.memory_budget,
                    memory_budget_bytes=options.memory_budget_bytes,
                    peak_memory_bytes=options.peak_memory_bytes,
                    peak_margin=(options.peak_margin if options.peak_margin is not None
                                 else peak_margin_for(decision.graph)), stacklevel=5)
    decision.runtime_saved = decision.saved
    chose = front.generator.bnet.offload is not None
    decision.replace_saved(choice.point.saved, choice.point.offloaded if chose else None)
    decision.budget = choice


def _soft_constraints_on(path, graph, policy, net) -> list[int]:
    """Nodes whose PREFER_* constraint is an end of the infinite path (and still active)."""
    first, last = path[0], path[-1]
    out = []
    if policy.soft_ban[first] and net.source_in[first]:
        out.append(first)
    if policy.soft_recompute[last] and net.sink_in[last] and graph.role[last] != Role.BACKWARD \
            and last not in out:
        out.append(last)
    return out


def _partition_error(path, graph, policy, w, net) -> PartitionError:
    nodes = [graph.nodes[i] for i in path]
    reasons: list[list[PathReason]] = []
    for k, i in enumerate(path):
        why: list[PathReason] = []
        if k == 0 and net.source_in[i]:
            ban = policy.ban[i]
            if ban is not None and ban.kind == ReasonKind.INPUT:
                why.append(PathReason(f"available in the forward: {ban}", Constraint.INPUT,
                                      ban))
            elif ban is not None and ban.kind == ReasonKind.ANNOTATION:
                why.append(PathReason(f"may not be recomputed: {ban}", Constraint.ANNOTATION,
                                      ban))
            else:
                why.append(PathReason(f"may not be recomputed: {ban}", Constraint.BAN, ban))
        if k > 0:
            why.append(PathReason(f"depends on {graph.nodes[path[k - 1]].name}",
                                  Constraint.DEPENDENCY))
        if (k < len(path) - 1 or not net.sink_out[i]) and w[i] >= INF:
            unsaveable = policy.unsaveable[i]
            text = (f"cannot be saved: {unsaveable}" if unsaveable is not None
                    else "cannot be saved: computed in the backward")
            why.append(PathReason(text, Constraint.DEPENDENCY, unsaveable))
        if k == len(path) - 1:
            if policy.recompute[i] is not None and net.sink_in[i]:
                why.append(PathReason(f"must be recomputed: {policy.recompute[i]}",
                                      Constraint.ANNOTATION, policy.recompute[i]))
            elif net.sink_in[i]:
                why.append(PathReason("must run in the backward: depends on a tangent",
                                      Constraint.BACKWARD))
            elif net.sink_out[i]:
                why.append(PathReason("needed by the backward: a backward output",
                                      Constraint.BACKWARD))
        reasons.append(why)
    lines = [f"  {node.name} ({graph.op_name(i)}): " + "; ".join(r)
             for node, i, r in zip(nodes, path, reasons)]
    message = ("fusioncut.partition: no valid partition; every cut would recompute a node that "
               "may not be recomputed or save one that cannot be saved. Offending path:\n"
               + "\n".join(lines))
    return PartitionError(message, nodes, reasons)
