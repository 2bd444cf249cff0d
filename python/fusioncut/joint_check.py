"""``check_joint_module``: what a partitioner is handed, checked before any work.

A joint graph from AOTAutograd is a topologically ordered list of placeholder, get_attr,
call_function and output nodes, the output last. Anything else (a cycle, a use before
definition, a node of another graph, a call_module, no output) would otherwise end deep inside
torch's graph extraction as a ``KeyError`` or ``StopIteration``; here it is a ``ValueError``
naming the caller, the node and what is valid. ``JointGraph.from_fx`` calls this first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import torch.fx as fx
from torch.utils.checkpoint import CheckpointPolicy

from fusioncut import _torch_compat
from fusioncut._validate import shown

__all__ = ["check_annotations", "check_joint_module", "fallback_error", "flat_args",
           "use_error"]


def flat_args(args):
    """The leaves of nested lists and tuples (an output node's values), in order."""
    for a in args:
        if isinstance(a, (list, tuple)):
            yield from flat_args(a)
        else:
            yield a


_NODE_OPS = ("placeholder", "get_attr", "call_function", "output")
_VALUED = ("placeholder", "call_function")  # the nodes that carry a meta["val"]


def check_joint_module(gm: Any, num_fwd_outputs: Any,
                       static_lifetime_input_indices: Any = None,
                       function: str = "partition", *, order: bool = True) -> fx.Node:
    """Check what a partitioner is handed, before any work; return the output node.

    Rejects (naming ``function``, the argument or node, and what is valid): a ``gm`` that is not
    an ``fx.GraphModule`` (``TypeError``); a graph without exactly one output node, or whose
    output is not last; ``call_module`` / ``call_method`` nodes (AOTAutograd joint graphs have
    none), ``call_function`` nodes whose target is not callable and ``get_attr`` nodes whose
    target the module lacks; a node (the output node
    included) that uses a node defined after it, itself (a cycle) or a node of another graph;
    a node without ``meta["val"]`` (but get_attr nodes and operators that return nothing),
    naming how to trace a graph that has it; a checkpoint annotation of the wrong type
    (``check_annotations``); ``num_fwd_outputs`` that is not an int in
    ``[0, number of outputs - 1]`` (all outputs forward: a graph without a backward);
    ``static_lifetime_input_indices`` that is not a sequence (or 1-D integer array) of ints in
    ``[0, number of primal inputs)``. ``order=False`` leaves the use-before-definition check
    to the caller (``JointGraph.from_fx`` finds it in its own pass, at no extra cost).
    """
    if not isinstance(gm, fx.GraphModule):
        raise TypeError(f"{function}: joint_module must be a torch.fx.GraphModule, got "
                        f"{type(gm).__name__}")
    outputs = list(gm.graph.find_nodes(op="output"))
    if len(outputs) != 1:
        raise ValueError(f"{function}: the joint graph has {len(outputs)} output nodes; it "
                         f"must have exactly one (AOTAutograd's forward and backward outputs)")
    output_node = outputs[0]
    if output_node.next.op != "root":
        raise ValueError(f"{function}: the joint graph's output node {output_node.name!r} is "
                         f"not its last node")
    placeholders = 0
    is_primal = _torch_compat.is_primal()
    seen: set[fx.Node] = set()
    for node in gm.graph.nodes:
        op = node.op
        if op not in _NODE_OPS:
            raise ValueError(f"{function}: node {node.name!r} is a {op} node; a joint "
                             f"graph holds only {', '.join(_NODE_OPS)} nodes (trace it with "
                             f"AOTAutograd)")
        if "val" not in node.meta and op in _VALUED and not _returns_nothing(node):
            raise missing_val_error(function, node)
        if not _ANNOTATION_KEYS.isdisjoint(node.meta):
            check_annotations(function, node)
        if op == "placeholder" and is_primal(node):
            placeholders += 1
        elif op == "call_function" and not callable(node.target):
            raise ValueError(f"{function}: node {node.name!r} calls {node.target!r}, which is "
                             f"not callable (a call_function target is an operator)")
        elif op == "get_attr" and not _has_path(gm, node.target):
            raise ValueError(f"{function}: get_attr node {node.name!r} reads {node.target!r}, "
                             f"which the GraphModule does not have")
        if order:
            if not seen.issuperset(node.all_input_nodes):
                raise use_error(function, node, [nd for nd in gm.graph.nodes
                                                  if nd.op != "output"])
            seen.add(node)
    if not order:  # the output node is last: only a node of another graph can be wrong
        for x in output_node.all_input_nodes:
            if x.graph is not gm.graph:
                raise use_error(function, output_node, [nd for nd in gm.graph.nodes
                                                         if nd.op != "output"])
    num_outputs = len(list(flat_args(output_node.args)))
    if isinstance(num_fwd_outputs, bool) or not isinstance(num_fwd_outputs, int):
        raise TypeError(f"{function}: num_fwd_outputs must be an int in [0, {num_outputs - 1}], "
                        f"got {type(num_fwd_outputs).__name__} {num_fwd_outputs!r}")
    if not 0 <= num_fwd_outputs <= num_outputs:
        raise ValueError(f"{function}: num_fwd_outputs = {num_fwd_outputs} is out of range "
                         f"[0, {num_outputs - 1}] (the joint graph has {num_outputs} outputs)")
    if num_outputs == 0:
        raise ValueError(f"{function}: the joint graph has no outputs; there is nothing to "
                         f"partition")
    if num_fwd_outputs == num_outputs:
        raise ValueError(
            f"{function}: num_fwd_outputs = {num_fwd_outputs} makes every output of the joint "
            f"graph a forward output: there is no backward to partition. A joint graph from "
            f"AOTAutograd ends with the backward's outputs (a gradient or None per primal "
            f"input), so num_fwd_outputs is in [0, {num_outputs - 1}]; a forward-only graph "
            f"saves nothing and needs no partitioner")
    if static_lifetime_input_indices is not None:
        if isinstance(static_lifetime_input_indices, (str, bytes)) or not isinstance(
                static_lifetime_input_indices, (Sequence, set, frozenset, np.ndarray)) or (
                getattr(static_lifetime_input_indices, "ndim", 1) != 1):
            raise TypeError(f"{function}: static_lifetime_input_indices must be a sequence of "
                            f"ints or None, got {type(static_lifetime_input_indices).__name__}")
        for k, x in enumerate(static_lifetime_input_indices):
            if isinstance(x, bool) or not isinstance(x, (int, np.integer)):
                raise TypeError(f"{function}: static_lifetime_input_indices[{k}] = {x!r} is "
                                f"not an int")
            if not 0 <= x < placeholders:
                raise ValueError(f"{function}: static_lifetime_input_indices[{k}] = {x} is out "
                                 f"of range [0, {placeholders}) (the joint graph's primal "
                                 f"inputs)")
    return output_node


_ANNOTATION_KEYS = frozenset(("recompute", "ac_graph_id", "should_offload"))
_POLICIES = ", ".join(p.name for p in CheckpointPolicy)


def check_annotations(function: str, node: fx.Node) -> None:
    """The checkpoint annotations on ``node`` are of the types PyTorch writes, or a
    ``ValueError`` naming the node, the key and what is valid: ``meta["recompute"]`` a
    ``CheckpointPolicy``, ``meta["ac_graph_id"]`` an int (a checkpoint region's number),
    ``meta["should_offload"]`` a bool; None for each is no annotation."""
    meta = node.meta
    tag = meta.get("recompute")
    if tag is not None and not isinstance(tag, CheckpointPolicy):
        raise ValueError(f"{function}: node {node.name!r} has meta['recompute'] = {shown(tag)}; "
                         f"expected a torch.utils.checkpoint.CheckpointPolicy ({_POLICIES}) "
                         f"or None")
    region = meta.get("ac_graph_id")
    if region is not None and (isinstance(region, bool) or not isinstance(region, int)):
        raise ValueError(f"{function}: node {node.name!r} has meta['ac_graph_id'] = "
                         f"{shown(region)}; expected an int (the checkpoint region it belongs "
                         f"to) or None")
    mark = meta.get("should_offload")
    if mark is not None and not isinstance(mark, bool):
        raise ValueError(f"{function}: node {node.name!r} has meta['should_offload'] = "
                         f"{shown(mark)}; expected True or False")


def _returns_nothing(node: fx.Node) -> bool:
    """An operator whose schema returns nothing (``aten._assert_scalar``, ``_assert_async``):
    AOTAutograd records no ``meta["val"]`` for it, and none is needed."""
    schema = getattr(node.target, "_schema", None) if node.op == "call_function" else None
    return schema is not None and len(schema.returns) == 0


def missing_val_error(function: str, node: fx.Node) -> ValueError:
    what = f"calls {node.target}" if node.op == "call_function" else f"is a {node.op}"
    return ValueError(
        f"{function}: node {node.name!r} ({what}) has no meta['val']: fusioncut and PyTorch's "
        f"partitioner size every value from the fake tensor recorded there. Trace the joint "
        f"graph with AOTAutograd (aot_function, aot_module, torch.compile), or with "
        f"make_fx(fn, tracing_mode='fake'), which record it on every node; a graph built or "
        f"edited by hand must set node.meta['val'] on each placeholder and call_function")


def fallback_error(function: str, reason: str) -> ValueError:
    """The error of an entry point that cannot decide a graph ``partition`` falls back on."""
    return ValueError(f"{function}: the joint graph contains {reason}, which fusioncut does "
                      f"not partition itself (fusioncut.partition falls back to PyTorch's "
                      f"partitioner for it)")


def _has_path(obj: Any, target: object) -> bool:
    if not isinstance(target, str):
        return False
    for part in target.split("."):
        if not hasattr(obj, part):
            return False
        obj = getattr(obj, part)
    return True


def use_error(function: str, node: fx.Node, nodes: list[fx.Node]) -> ValueError:
    """A node whose argument is not defined before it: a use before definition (or a cycle),
    or a node of another graph."""
    position = {nd: k for k, nd in enumerate(nodes)}
    known = position.keys()
    here = position.get(node, len(nodes))
    for x in node.all_input_nodes:
        if x is node:
            return ValueError(f"{function}: node {node.name!r} uses itself (a cycle)")
        if x in known and position[x] > here:
            where = position[x]
            return ValueError(f"{function}: node {node.name!r} uses {x.name!r}, which comes "
                              f"after it in the graph (node {where}): a use before definition "
                              f"or a cycle; a joint graph is in topological order")
        if x.op == "output" and x.graph is node.graph:
            return ValueError(f"{function}: node {node.name!r} uses the output node")
    foreign = [x for x in node.all_input_nodes if x not in known]
    name = foreign[0].name if foreign else "?"
    return ValueError(f"{function}: node {node.name!r} uses {name!r}, which is not a node of "
                      f"this graph")
