"""The walks ``build_modules`` makes over the joint graph, on index lists.

``_Subgraph`` decides which joint nodes one output graph computes: a forward walk marks the
nodes computable from the graph's inputs (``valid``), a reverse walk the ones its outputs or
effects need (``live``: the same answer as ``Graph.eliminate_dead_code``).
``autograd_engine_order`` and ``raise_getitems`` are torch's ``reordering_to_mimic_autograd_
engine`` and ``raise_getitems`` computed on indices, and ``emit_graph`` copies the kept nodes
into a fresh ``fx.Graph`` once, in that order.
"""

from __future__ import annotations

import contextlib
import gc
import operator
from collections.abc import Iterator, Sequence
from typing import Any

import torch
import torch.fx as fx

from fusioncut import _torch_compat as tc
from fusioncut.emit.fast_copy import node_copier
from fusioncut.ops import OpKind, _dropout_args, is_random_node, kind_code

_RANDOM = int(OpKind.RANDOM)


def is_rng_node(node: fx.Node) -> bool:
    """A random op (``ops.is_random_node``: seeded, unless an SDPA's dropout_p is 0)."""
    return is_random_node(node)


class Placement:
    """Per-target caches of the placement rules torch applies (mutability, impurity)."""

    def __init__(self) -> None:
        self._mutable: dict[Any, bool] = {}
        self._impure: dict[Any, bool] = {}
        self._rng: dict[Any, bool] = {}
        self.impure_random = tc.dce_impure_random()

    def _is_mutable(self, target: Any) -> bool:
        try:
            return self._mutable[target]
        except KeyError:
            value = isinstance(target, tc.op_overload_cls()) and target._schema.is_mutable
            self._mutable[target] = value
            return value

    def must_be_in_forward(self, node: fx.Node) -> bool:
        tag = node.meta.get("partitioner_tag")
        if tag == "must_be_in_forward":
            return True
        return (
            node.op == "call_function"
            and tag not in ("is_backward", "must_be_in_backward")
            and self._is_mutable(node.target)
        )

    def must_be_in_backward(self, node: fx.Node) -> bool:
        tag = node.meta.get("partitioner_tag")
        if tag == "must_be_in_backward":
            return True
        return tag == "is_backward" and node.op == "call_function" and self._is_mutable(node.target)

    def is_rng(self, node: fx.Node) -> bool:
        """A random op (``ops.is_random_node``): recomputing it needs its RNG state."""
        if node.op != "call_function":
            return False
        try:
            value = self._rng[node.target]
        except KeyError:
            value = self._rng[node.target] = kind_code(node.op, node.target) == _RANDOM
        # Per node only for the SDPA family, whose dropout_p decides.
        return value and (node.target not in _dropout_args or is_random_node(node))

    def is_impure(self, node: fx.Node) -> bool:
        """``Node.is_impure`` as ``Graph.eliminate_dead_code`` would call it."""
        if node.op != "call_function":
            return node.op in ("placeholder", "output")
        target = node.target
        if isinstance(target, tc.higher_order_operator_cls()):
            return node.is_impure(self.impure_random)  # may depend on args
        try:
            return self._impure[target]
        except KeyError:
            value = node.is_impure(self.impure_random)
            self._impure[target] = value
            return value


# --- one output graph ----------------------------------------------------------------------


class Subgraph:
    """Which joint nodes one output graph computes, given its inputs and outputs."""

    def __init__(
        self,
        nodes: list[fx.Node],
        index: dict[fx.Node, int],
        inputs: Sequence[fx.Node],
        outputs: Sequence[Any],
        banned: list[bool],
        placement: Placement,
        args_of: list[list[fx.Node]],
    ) -> None:
        n = len(nodes)
        is_input = [False] * n
        for x in inputs:
            is_input[index[x]] = True
        # valid[i]: node i is computable from the inputs (torch's InvalidNode propagation).
        valid = [False] * n
        for i, node in enumerate(nodes):
            if is_input[i]:
                valid[i] = True
            elif banned[i] or node.op != "call_function" and node.op != "get_attr":
                continue
            elif node.op == "get_attr":
                valid[i] = True
            else:
                ok = True
                for arg in args_of[i]:
                    if not valid[index[arg]]:
                        ok = False
                        break
                valid[i] = ok
        self.valid = valid
        self.is_input = is_input
        for x in outputs:
            if isinstance(x, fx.Node) and not valid[index[x]]:
                raise NeedsReference(f"output {x.name!r} is not computable from the inputs")
        # live[i]: node i survives dead-code elimination (needed by an output or impure).
        live = [False] * n
        for x in outputs:
            if isinstance(x, fx.Node):
                live[index[x]] = True
        for i, node in enumerate(nodes):
            if valid[i] and not is_input[i] and placement.is_impure(node):
                live[i] = True
        used_input = [False] * n
        for x in outputs:
            if isinstance(x, fx.Node) and is_input[index[x]]:
                used_input[index[x]] = True
        for i in range(n - 1, -1, -1):
            if live[i] and not is_input[i]:
                for arg in args_of[i]:
                    j = index[arg]
                    live[j] = True
                    if is_input[j]:
                        used_input[j] = True
        self.live = live
        self.used_input = used_input

    def body(self, nodes: list[fx.Node]) -> list[int]:
        """Indices of the computed (non-input) nodes, in joint-graph order."""
        live, is_input = self.live, self.is_input
        return [i for i in range(len(nodes)) if live[i] and not is_input[i]]


class NeedsReference(Exception):
    """Internal: the fast path does not model this graph; use torch's extraction."""


def autograd_engine_order(
    nodes: list[fx.Node],
    index: dict[fx.Node, int],
    body: list[int],
    tangents: list[fx.Node],
    outputs: Sequence[Any],
    args_of: list[list[fx.Node]],
) -> list[int]:
    """torch's ``reordering_to_mimic_autograd_engine`` computed on index lists.

    Starting at the first node that reads a tangent, each backward node is emitted together with
    the not-yet-emitted forward nodes it needs (in original order), so recomputed forward values
    live only as long as the backward needs them. Nodes before the first tangent reader that no
    later node needs are dropped (torch drops them too), except ``copy_`` (input mutations).
    """
    position = {i: p for p, i in enumerate(body)}
    first = None
    for t in tangents:
        for user in t.users:
            p = len(body) if user.op == "output" else position.get(index[user])
            if p is not None and (first is None or p < first):
                first = p
    if first is None:
        return body
    emitted: set[int] = set()
    order: list[int] = []

    def insert(i: int) -> None:
        if i in emitted:
            return
        pending = [i]
        found = []
        seen = {i}
        while pending:
            j = pending.pop()
            found.append(j)
            for arg in args_of[j]:
                k = index[arg]
                if k in position and k not in emitted and k not in seen:
                    seen.add(k)
                    pending.append(k)
        found.sort()
        emitted.update(found)
        order.extend(found)

    copy_ = torch.ops.aten.copy_.default
    for i in body[:first]:
        if nodes[i].target is copy_:
            insert(i)
    for i in body[first:]:
        insert(i)
    for x in outputs:  # torch inserts the output node last, pulling in what it needs
        if isinstance(x, fx.Node) and index[x] in position:
            insert(index[x])
    return order


def raise_getitems(
    nodes: list[fx.Node], order: list[int], index: dict[fx.Node, int], args_of: list[list[fx.Node]]
) -> list[int]:
    """Place every getitem right after its producer (torch's ``raise_getitems``)."""
    getitem = operator.getitem
    in_order = set(order)
    children: dict[int, list[int]] = {}
    for i in order:
        node = nodes[i]
        if node.target is getitem and node.op == "call_function":
            inputs = args_of[i]
            parent = index[inputs[0]] if inputs else -1
            if parent in in_order:
                children.setdefault(parent, []).append(i)
    if not children:
        return order
    result: list[int] = []
    raised = {c for cs in children.values() for c in cs}

    def emit(i: int) -> None:
        result.append(i)
        for c in children.get(i, ()):
            emit(c)

    for i in order:
        if i not in raised:
            emit(i)
    return result


def emit_graph(
    nodes: list[fx.Node],
    index: dict[fx.Node, int],
    inputs: Sequence[fx.Node],
    order: list[int],
    outputs: Sequence[Any],
    output_descs: Sequence[Any],
    *,
    backward: bool,
) -> fx.Graph:
    graph = fx.Graph()
    env: dict[fx.Node, fx.Node] = {}
    for x in inputs:
        p = graph.placeholder(x.name)
        # torch shares the meta dict here; a shallow copy keeps the joint graph untouched.
        p.meta = dict(x.meta)
        env[x] = p
    # getitems of placeholders (tuple inputs) come right after the placeholders.
    lookup = env.__getitem__
    node_copy = node_copier(graph)
    for i in order:
        new = node_copy(nodes[i], lookup)
        if backward and new.op in ("call_function", "get_attr"):
            new.meta["autograd_backward"] = True
        env[nodes[i]] = new
    values = tuple(env[x] if isinstance(x, fx.Node) else x for x in outputs)
    out = graph.output(values)
    out.meta["desc"] = list(output_descs)
    out.meta["output_stack_traces"] = [
        v.meta.get("stack_trace") if isinstance(v, fx.Node) else None for v in values
    ]
    return graph


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while building graphs.

    Building a 9k-node graph allocates tens of thousands of objects; each allocation burst
    triggers collections that traverse the whole heap (the joint graph, its FakeTensors and the
    rest of torch), which made emission 3-15x slower and erratic. Nothing built here is garbage
    until we return, so collecting earlier gains nothing.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def make_module(joint_module: fx.GraphModule, graph: fx.Graph) -> fx.GraphModule:
    return tc.lazy_graph_module_cls()(joint_module, graph)
