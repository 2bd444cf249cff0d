"""Forward and backward GraphModules from a joint graph and a saved set.

``build_modules`` produces exactly the calling convention of torch's
``_extract_fwd_bwd_modules`` plus the post-processing ``min_cut_rematerialization_partition``
applies (RNG functionalization, autograd-engine reordering of the backward, getitem raising,
graph-safe RNG threading through ``invoke_subgraph``):

    forward (primals..., fwd_seed_offsets...)
        -> (*fwd_outputs, *saved_tensors_vc_check, *saved_tensors_no_vc_check, *saved_symints)
    backward (*saved_symints, *saved_tensors, *tangents, *bwd_seed_offsets)
        -> (*bwd_outputs)

It builds each output graph ONCE. torch copies the joint graph four times, then reorders and
regenerates Python code for each copy; here (``Subgraph``) one forward walk over the joint
graph decides which nodes are computable from a graph's inputs (``valid``), one reverse walk
decides which are needed (``live``: the same answer as ``Graph.eliminate_dead_code``), the
backward's emission order (autograd-engine order, getitems right after their producer) is
computed on index lists, and then every kept node is copied into a fresh ``fx.Graph`` in that
order. The GraphModules are ``_LazyGraphModule``s: their Python code is generated only if
somebody calls or prints them (Inductor compiles from the graph and never does). The cyclic
garbage collector is paused while building (it otherwise traverses torch's whole heap many
times over).

    joint nodes (topological)   ──valid/live walks──>  kept indices  ──order──>  node copies
         │                                                                          │
         └── placeholders: the inputs, in the convention order ─────────────────────┘

The result equals torch's node for node (names, order, targets, meta) except for one
cosmetic case: a getitem of a *placeholder* stays where it is; torch moves it between the
placeholders.

Saved values to offload (``offloaded``) go through torch's own activation-offloading pass
once both graphs are built (``emit.offload``), on either path.

Rare constructs this fast path does not model (collectives, opaque objects, BackwardState,
activation quantization, forward outputs that alias a backward-only mutation) are
built by the reference path: torch's own ``_extract_fwd_bwd_modules`` + post-processing, called
through ``_torch_compat``. The reference path is also what the tests compare against.

Random ops: a random op that lands in both graphs must draw the same numbers twice. torch
functionalizes the RNG state only for ops tagged ``must_recompute`` (activation checkpointing);
``build_modules`` does the same through torch's ``functionalize_rng_ops`` and raises
``EmitError`` for an untagged random op that would run in both graphs, so the decision layer
must never recompute an untagged random op (it falls back instead).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import torch
import torch.fx as fx

from fusioncut import _torch_compat as tc
from fusioncut.emit.offload import offload_saved
from fusioncut.emit.walks import (
    NeedsReference,
    Placement,
    Subgraph,
    autograd_engine_order,
    emit_graph,
    gc_paused,
    is_rng_node,
    make_module,
    raise_getitems,
)

__all__ = ["EmitError", "build_modules", "build_modules_reference", "stamp_static_inputs"]


class EmitError(ValueError):
    """The saved set cannot be turned into a correct forward/backward pair."""


# --- helpers on joint-graph nodes -----------------------------------------------------------


def _outputs_and_descs(joint_module: fx.GraphModule, num_fwd_outputs: int):
    output_node = next(iter(joint_module.graph.find_nodes(op="output")))
    outputs = list(tc.arg_tree_leaves(*output_node.args))
    descs = output_node.meta.get("desc", None)
    descs = list(tc.tree_leaves(descs)) if descs is not None else None
    if descs is None or len(descs) != len(outputs):
        descs = [None] * len(outputs)
    if not 0 <= num_fwd_outputs <= len(outputs):
        raise ValueError(
            f"build_modules: num_fwd_outputs = {num_fwd_outputs} is out of range "
            f"[0, {len(outputs)}] (the joint graph has {len(outputs)} outputs)"
        )
    return (
        outputs[:num_fwd_outputs],
        outputs[num_fwd_outputs:],
        descs[:num_fwd_outputs],
        descs[num_fwd_outputs:],
    )


# --- the saved-value convention -------------------------------------------------------------


def _bind_symbols(
    joint_module: fx.GraphModule,
    saved_sym_nodes: list[fx.Node],
    saved_values: list[fx.Node],
    tangents: list[fx.Node],
) -> list[fx.Node]:
    """Saved SymInts with every symbol the backward's inputs mention bound first (as torch).
    From torch 2.14 the symbols before the shape environment's replacements are bound too:
    runtime assertions keep the raw placeholder expressions, while Inductor's size code and
    the FX-graph cache guards use the replaced ones (``s`` replaced by ``s + 1`` would leave
    ``s`` unbound in the backward otherwise)."""
    is_binding = tc.is_symbol_binding_fx_node()
    replaced = tc.free_symbols()
    unreplaced = tc.unreplaced_free_symbols()

    def free_symbols(val):
        symbols = replaced(val)
        return symbols if unreplaced is None else set(unreplaced(val)) | symbols

    saved_symbols: set = set()
    binding, derived = [], []
    for node in saved_sym_nodes:
        symbol = is_binding(node)
        if symbol:
            saved_symbols.add(symbol)
            binding.append(node)
        else:
            derived.append(node)
    bindings = None
    may_have_symbols = tc.may_have_free_symbols
    for node in (*derived, *saved_values, *tangents):
        if "val" not in node.meta or not may_have_symbols(node.meta["val"]):
            continue
        new_symbols = free_symbols(node.meta["val"]) - saved_symbols
        if not new_symbols:
            continue
        if bindings is None:
            bindings = tc.find_symbol_binding_fx_nodes()(joint_module.graph)
        for s in sorted(new_symbols, key=lambda s: s.name):
            if s in bindings:
                binding.append(bindings[s])
        saved_symbols |= new_symbols
    return binding + derived


def _check_saved(joint_module: fx.GraphModule, saved: Sequence[fx.Node], argname: str) -> None:
    graph = joint_module.graph
    for k, node in enumerate(saved):
        if not isinstance(node, fx.Node) or node.graph is not graph:
            raise EmitError(
                f"build_modules: {argname}[{k}] = {node!r} is not a node of the joint graph"
            )
        if node.op == "output":
            raise EmitError(f"build_modules: {argname}[{k}] is the output node")


def _needs_reference_path(joint_module: fx.GraphModule, saved_values, placeholders) -> str | None:
    """Why the fast path cannot build this graph, or None."""
    if any(tc.is_backward_state()(p) for p in placeholders):
        return "BackwardState input"
    if tc.activation_quantization_enabled():
        return "activation quantization is enabled"
    is_object = tc.is_opaque_object()
    for node in saved_values:
        if is_object(node.meta.get("val")):
            return f"opaque saved value {node.name!r}"
    graph = joint_module.graph
    if any(graph.find_nodes(op="call_function", target=op) for op in tc.wait_ops()):
        return "collectives"
    if tc.extracts_control_deps() and graph.find_nodes(op="call_function",
                                                       target=tc.control_deps_hop()):
        return "control_deps (torch's extraction splits it per graph)"
    return None


def build_modules(
    joint_module: fx.GraphModule,
    saved_values: Sequence[fx.Node],
    saved_sym_nodes: Sequence[fx.Node],
    *,
    num_fwd_outputs: int,
    static_lifetime_input_indices: Sequence[int] | None = None,
    offloaded: Sequence[fx.Node] = (),
    offload_waits: Mapping[str, str | None] | None = None,
) -> tuple[fx.GraphModule, fx.GraphModule]:
    """Forward and backward GraphModules that save ``saved_values`` and ``saved_sym_nodes``.

    ``saved_values`` are tensor nodes of the joint graph, ``saved_sym_nodes`` SymInt nodes.
    Saved values the backward does not use are dropped; symbols the backward's inputs mention
    are bound by extra saved SymInts. ``static_lifetime_input_indices`` matters only to torch's
    activation quantization (handled by the reference path). ``offloaded``: saved values to
    move to host memory between the two graphs (``emit.offload``; ``fusioncut.offload`` says
    which may go); ``offload_waits``: where the forward waits for each copy on a side stream
    (``Decision.offload_waits``, ``emit.offload.pace_waits``).
    """
    fw_module, bw_module, _ = build_modules_and_schedule(
        joint_module, saved_values, saved_sym_nodes, num_fwd_outputs=num_fwd_outputs,
        static_lifetime_input_indices=static_lifetime_input_indices, offloaded=offloaded,
        offload_waits=offload_waits,
    )
    return fw_module, bw_module


def build_modules_and_schedule(
    joint_module: fx.GraphModule,
    saved_values: Sequence[fx.Node],
    saved_sym_nodes: Sequence[fx.Node],
    *,
    num_fwd_outputs: int,
    static_lifetime_input_indices: Sequence[int] | None = None,
    offloaded: Sequence[fx.Node] = (),
    offload_waits: Mapping[str, str | None] | None = None,
) -> tuple[fx.GraphModule, fx.GraphModule, Schedule | None]:
    """``build_modules`` plus the ``Schedule`` it emitted (None when torch's extraction, the
    reference path, built the modules): ``emit.template`` replays it on identical graphs."""
    _check_saved(joint_module, offloaded, "offloaded")
    fw_module, bw_module, sched = _build(joint_module, saved_values, saved_sym_nodes,
                                         num_fwd_outputs, static_lifetime_input_indices)
    offload_saved(fw_module, bw_module, offloaded, num_fwd_outputs=num_fwd_outputs,
                  error=EmitError, waits=offload_waits)
    return fw_module, bw_module, sched


def _build(joint_module, saved_values, saved_sym_nodes, num_fwd_outputs,
           static_lifetime_input_indices):
    _check_saved(joint_module, saved_values, "saved_values")
    _check_saved(joint_module, saved_sym_nodes, "saved_sym_nodes")
    saved_values = list(dict.fromkeys(saved_values))
    saved_sym_nodes = list(dict.fromkeys(saved_sym_nodes))
    graph = joint_module.graph
    placeholders = list(graph.find_nodes(op="placeholder"))
    if _needs_reference_path(joint_module, saved_values, placeholders) is not None:
        return (*_reference_or_error(
            joint_module, saved_values, saved_sym_nodes, num_fwd_outputs=num_fwd_outputs,
            static_lifetime_input_indices=static_lifetime_input_indices,
        ), None)
    try:
        with gc_paused():
            sched = schedule(joint_module, saved_values, saved_sym_nodes, num_fwd_outputs)
            fw_module, bw_module = emit_schedule(joint_module, sched)
    except NeedsReference:
        return (*_reference_or_error(
            joint_module, saved_values, saved_sym_nodes, num_fwd_outputs=num_fwd_outputs,
            static_lifetime_input_indices=static_lifetime_input_indices,
        ), None)
    fw_module, bw_module = postprocess(joint_module, fw_module, bw_module,
                                       len(sched.saved_sym_nodes), sched.rng_twice)
    stamp_static_inputs(joint_module, static_lifetime_input_indices, fw_module, bw_module)
    return fw_module, bw_module, sched


def stamp_static_inputs(joint_module: fx.GraphModule,
                        static_lifetime_input_indices: Sequence[int] | None,
                        *modules: fx.GraphModule) -> None:
    """torch 2.15+: every primal placeholder of the emitted graphs carries
    ``meta["is_static_input"]`` (whether its index is a static-lifetime input), which the
    backward compiler reads to tell parameters from user inputs that get a fresh tensor each
    call (Inductor's cudagraph static inputs). Only here can the index be known: the
    backward's input order loses it. The joint graph's metadata is not touched."""
    if not tc.stamps_static_inputs():
        return
    is_primal = tc.is_primal()
    primals = [p.name for p in joint_module.graph.find_nodes(op="placeholder") if is_primal(p)]
    static = {primals[k] for k in set(static_lifetime_input_indices or ())
              if 0 <= k < len(primals)}
    names = set(primals)
    for module in modules:
        for p in module.graph.find_nodes(op="placeholder"):
            if p.name in names:
                p.meta["is_static_input"] = p.name in static


def _reference_or_error(joint_module, saved_values, saved_sym_nodes, **kwargs):
    """The reference path; torch's bare AssertionErrors become EmitErrors."""
    try:
        return build_modules_reference(joint_module, saved_values, saved_sym_nodes, **kwargs)
    except AssertionError as e:
        raise EmitError(
            f"build_modules: the saved set does not split this joint graph: {e} (every value "
            "the backward needs must be saved or recomputable from saved values, and every "
            "saved value computable in the forward)"
        ) from e


@dataclass
class Schedule:
    """What each output graph computes, in emission order (indices into ``nodes``)."""

    nodes: list[fx.Node]  # the joint graph's nodes, output included
    index: dict[fx.Node, int]
    fw_inputs: list[fx.Node]
    fw_order: list[int]
    fw_outputs: list[Any]  # forward outputs, then saved tensors, then saved SymInts
    fw_descs: list[Any]
    bw_inputs: list[fx.Node]  # saved SymInts, saved tensors, tangents, backward seeds
    bw_order: list[int]  # autograd-engine order, getitems right after their producer
    bw_outputs: list[Any]
    bw_descs: list[Any]
    saved_values: list[fx.Node]  # the saved tensors the backward reads
    saved_sym_nodes: list[fx.Node]
    rng_twice: list[fx.Node]  # random ops both graphs compute


def schedule(joint_module: fx.GraphModule, saved_values: Sequence[fx.Node],
             saved_sym_nodes: Sequence[fx.Node], num_fwd_outputs: int) -> Schedule:
    """The node orders ``build_modules`` emits for a saved set (without building graphs);
    raises ``NeedsReference`` for graphs only the reference path models."""
    placeholders = list(joint_module.graph.find_nodes(op="placeholder"))
    nodes = list(joint_module.graph.nodes)
    index = {node: i for i, node in enumerate(nodes)}
    args_of = [node.all_input_nodes for node in nodes]
    is_primal, is_tangent = tc.is_primal(), tc.is_tangent()
    is_fwd_seed, is_bwd_seed = tc.is_fwd_seed_offset(), tc.is_bwd_seed_offset()
    primals = [p for p in placeholders if is_primal(p)]
    tangents = [p for p in placeholders if is_tangent(p)]
    fwd_seeds = [p for p in placeholders if is_fwd_seed(p)]
    bwd_seeds = [p for p in placeholders if is_bwd_seed(p)]
    fwd_outputs, bwd_outputs, fwd_descs, bwd_descs = _outputs_and_descs(
        joint_module, num_fwd_outputs
    )

    placement = Placement()
    in_bw_only = [placement.must_be_in_backward(n) for n in nodes]
    in_fw_only = [placement.must_be_in_forward(n) for n in nodes]

    # Backward: which saved values does it use at all?
    bw_inputs = [*saved_sym_nodes, *saved_values, *tangents, *bwd_seeds]
    bw = Subgraph(nodes, index, bw_inputs, bwd_outputs, in_fw_only, placement, args_of)
    saved_values = [x for x in saved_values if bw.used_input[index[x]]]
    saved_sym_nodes = [x for x in saved_sym_nodes if bw.used_input[index[x]]]
    saved_sym_nodes = _bind_symbols(joint_module, saved_sym_nodes, saved_values, tangents)
    with_vc = [x for x in saved_values if not x.meta.get("saved_tensor_with_no_vc_check", False)]
    no_vc = [x for x in saved_values if x.meta.get("saved_tensor_with_no_vc_check", False)]
    saved_values = with_vc + no_vc

    # Forward.
    fw_inputs = [*primals, *fwd_seeds]
    fw_outputs = [*fwd_outputs, *saved_values, *saved_sym_nodes]
    n_saved = len(saved_values) + len(saved_sym_nodes)
    fw_descs = [
        *fwd_descs,
        *(tc.saved_for_backwards_desc(i, len(with_vc) <= i < len(saved_values))
          for i in range(n_saved)),
    ]
    fw = Subgraph(nodes, index, fw_inputs, fw_outputs, in_bw_only, placement, args_of)
    fw_order = raise_getitems(nodes, fw.body(nodes), index, args_of)

    # Backward, final inputs. Dropping unused inputs changes nothing that is live; only new
    # symbol-binding inputs can make more nodes computable, so redo the walks only then.
    old_inputs = set(bw_inputs)
    bw_inputs = [*saved_sym_nodes, *saved_values, *tangents, *bwd_seeds]
    if not old_inputs.issuperset(bw_inputs):
        bw = Subgraph(nodes, index, bw_inputs, bwd_outputs, in_fw_only, placement, args_of)
    bw_order = autograd_engine_order(
        nodes, index, bw.body(nodes), tangents, bwd_outputs, args_of
    )
    bw_order = raise_getitems(nodes, bw_order, index, args_of)
    fw_rng = {i for i in fw_order if placement.is_rng(nodes[i])}
    rng_twice = [nodes[i] for i in bw_order if i in fw_rng]
    return Schedule(nodes=nodes, index=index, fw_inputs=fw_inputs, fw_order=fw_order,
                    fw_outputs=fw_outputs, fw_descs=fw_descs, bw_inputs=bw_inputs,
                    bw_order=bw_order, bw_outputs=bwd_outputs, bw_descs=bwd_descs,
                    saved_values=saved_values, saved_sym_nodes=saved_sym_nodes,
                    rng_twice=rng_twice)


def emit_schedule(joint_module: fx.GraphModule, sched: Schedule
                  ) -> tuple[fx.GraphModule, fx.GraphModule]:
    """The forward and backward modules of a schedule, before ``postprocess``."""
    nodes, index = sched.nodes, sched.index
    fw_graph = emit_graph(nodes, index, sched.fw_inputs, sched.fw_order, sched.fw_outputs,
                          sched.fw_descs, backward=False)
    bw_graph = emit_graph(nodes, index, sched.bw_inputs, sched.bw_order, sched.bw_outputs,
                          sched.bw_descs, backward=True)
    return make_module(joint_module, fw_graph), make_module(joint_module, bw_graph)


def _rng_nodes(gm: fx.GraphModule) -> dict[str, fx.Node]:
    return {
        n.name: n for n in gm.graph.nodes if is_rng_node(n)
    }


def postprocess(joint_module, fw_module, bw_module, num_sym_nodes, rng_twice):
    """RNG functionalization of recomputed random ops and graph-safe RNG through HOPs.

    ``rng_twice``: the joint graph's random ops that both output graphs compute.
    """
    if rng_twice:
        must_recompute = tc.must_recompute()
        untagged = [node for node in rng_twice if not must_recompute(node)]
        if untagged:
            raise EmitError(
                "build_modules: random op(s) "
                + ", ".join(f"{node.name!r} ({node.target})" for node in untagged)
                + " would run in both the forward and the backward; only ops tagged "
                "must_recompute (activation checkpointing) get a shared RNG state"
            )
        fw_module, bw_module = tc.functionalize_rng_ops()(
            joint_module, fw_module, bw_module, num_sym_nodes
        )
    return _thread_hop_rng_states(fw_module, bw_module)


def _thread_hop_rng_states(fw_module, bw_module):
    """Graph-safe RNG state placeholders of ``invoke_subgraph`` bodies, threaded outward."""
    invoke_subgraph = getattr(torch.ops.higher_order, "invoke_subgraph", None)
    if invoke_subgraph is not None and (
        fw_module.graph.find_nodes(op="call_function", target=invoke_subgraph)
        or bw_module.graph.find_nodes(op="call_function", target=invoke_subgraph)
    ):
        thread = tc.thread_graphsafe_rng_from_hops()
        fw_module = thread(fw_module, is_backward=False)
        bw_module = thread(bw_module, is_backward=True)
    return fw_module, bw_module


def build_modules_reference(
    joint_module: fx.GraphModule,
    saved_values: Sequence[fx.Node],
    saved_sym_nodes: Sequence[fx.Node],
    *,
    num_fwd_outputs: int,
    static_lifetime_input_indices: Sequence[int] | None = None,
) -> tuple[fx.GraphModule, fx.GraphModule]:
    """The same modules built by torch's own extraction and post-processing (slow, exact)."""
    is_sym = tc.is_sym_node()
    is_opaque = tc.is_opaque_node()
    saved_opaque = [n for n in saved_values if is_opaque(n)]
    saved_values = [n for n in saved_values if not is_opaque(n) and not is_sym(n)]
    saved_sym_nodes = list(saved_sym_nodes)
    is_primal = tc.is_primal()
    primals = [p for p in joint_module.graph.find_nodes(op="placeholder") if is_primal(p)]
    static = set(static_lifetime_input_indices or ())
    static_nodes = [p for i, p in enumerate(primals) if i in static]
    fw_module, bw_module = tc.extract_fwd_bwd_modules()(
        joint_module,
        saved_values,
        saved_sym_nodes=saved_sym_nodes,
        saved_opaque_nodes=saved_opaque,
        num_fwd_outputs=num_fwd_outputs,
        static_lifetime_input_nodes=tc.ordered_set(static_nodes),
    )
    rng_recomputed = any(
        tc.must_recompute()(n) and is_rng_node(n) for n in joint_module.graph.nodes
    )
    if rng_recomputed:
        fw_module, bw_module = tc.functionalize_rng_ops()(
            joint_module, fw_module, bw_module, len(saved_sym_nodes)
        )
    else:
        fw_rng, bw_rng = _rng_nodes(fw_module), _rng_nodes(bw_module)
        twice = [name for name in fw_rng if name in bw_rng]
        if twice:
            raise EmitError(
                f"build_modules: random op(s) {twice} would run in both the forward and the "
                "backward; only ops tagged must_recompute get a shared RNG state"
            )
    bw_module = tc.reordering_to_mimic_autograd_engine()(bw_module)
    fw_module = tc.raise_getitems()(fw_module)
    bw_module = tc.raise_getitems()(bw_module)
    return _thread_hop_rng_states(fw_module, bw_module)
