"""``JointGraph``: AOTAutograd's joint forward+backward FX graph as flat arrays.

Node ``i`` is the i-th non-output node of ``gm.graph`` (graph order, hence deterministic)::

    nodes[i]        the fx.Node (never mutated, never given new attributes)
    kind[i]         ops.OpKind of its target
    role[i]         PRIMAL / FWD_SEED / TANGENT / BWD_SEED / CONSTANT (inputs),
                    FORWARD (needed for a forward output), BACKWARD (depends on a tangent,
                    or must run in the backward), UNCLAIMED (neither)
    value[i]        TENSOR / SYMINT / SYMOTHER / MULTI (tuple) / NONE / OPAQUE / MISSING
    numel[i]        element count (the size hint for a symbolic size); tuples: the sum
    itemsize[i]     bytes per element (0 when not a tensor, so nbytes is 0 too)
    symbolic[i]     whether numel is an expression of shape symbols
    base[i]         the non-aliasing node whose storage node i views (i itself if not a view)
    fwd_output[i], bwd_output[i]
    edge_src, edge_dst   one edge per (producer, user) pair, users in graph order
    users[i], inputs[i]  the same edges as Python lists, for the analysis passes

Everything here is structure and sizes; what may be recomputed is ``policy.py`` and what
saving costs is ``cost.py``. The sizes of a node are ``value_size(val)``, a function of the
``meta["val"]`` alone, so a caller holding other shapes can recompute them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import numpy as np
import torch
import torch.fx as fx

from fusioncut import _torch_compat
from fusioncut.ops import CONSUMER_FUSIBLE, PRODUCER_FUSIBLE, OpKind, classify, op_name


class Role(enum.IntEnum):
    PRIMAL = 0
    FWD_SEED = 1
    TANGENT = 2
    BWD_SEED = 3
    CONSTANT = 4
    FORWARD = 5
    BACKWARD = 6
    UNCLAIMED = 7


class Value(enum.IntEnum):
    TENSOR = 0
    SYMINT = 1
    SYMOTHER = 2  # SymFloat, SymBool, plain Python scalars
    MULTI = 3  # tuple/list of values: only its getitem users can be saved
    NONE = 4
    OPAQUE = 5  # script objects, BackwardState
    MISSING = 6  # no meta["val"]


def value_size(val: object) -> tuple[object, int]:
    """``(numel, itemsize)`` of a ``meta["val"]``; ``numel`` may be a SymInt expression.

    A tuple counts the elements of every tensor it holds (the reduction ban compares element
    counts) with itemsize 0: a tuple is never saved itself, only its getitems are. Anything
    else is ``(0, 0)``.
    """
    if isinstance(val, torch.Tensor):
        return val.numel(), val.dtype.itemsize
    if isinstance(val, (tuple, list)):
        total = 0
        for v in val:
            if isinstance(v, torch.Tensor):
                total = total + v.numel()
        return total, 0
    return 0, 0


def size_hint(n: object, fallback: int) -> int:
    """An int for a size that may be a SymInt: its hint, or ``fallback`` when unbacked."""
    if isinstance(n, int):
        return n
    node = getattr(n, "node", None)
    hint = getattr(node, "hint", None) if node is not None else None
    if hint is None:
        try:
            return int(n)  # a SymInt with a backing value
        except Exception:  # unbacked: no value to read
            return fallback
    return int(hint)


def _value_kind(val: object) -> Value:
    if isinstance(val, torch.Tensor):
        return Value.TENSOR
    if isinstance(val, (torch.SymInt, int)) and not isinstance(val, bool):
        return Value.SYMINT
    if isinstance(val, (tuple, list)):
        return Value.MULTI
    if val is None:
        return Value.NONE
    if isinstance(val, (torch.SymFloat, torch.SymBool, int, float, bool)):
        return Value.SYMOTHER
    return Value.OPAQUE


@dataclass
class JointGraph:
    gm: fx.GraphModule
    nodes: list[fx.Node]
    index: dict[fx.Node, int]
    kind: np.ndarray
    role: np.ndarray
    value: np.ndarray
    numel: np.ndarray
    itemsize: np.ndarray
    symbolic: np.ndarray
    base: np.ndarray
    fwd_output: np.ndarray
    bwd_output: np.ndarray
    edge_src: np.ndarray
    edge_dst: np.ndarray
    users: list[list[int]]
    inputs: list[list[int]]
    num_fwd_outputs: int

    @property
    def num_nodes(self) -> int:
        return len(self.nodes)

    @property
    def nbytes(self) -> np.ndarray:
        """Output bytes per node from the size hints (0 for non-tensors)."""
        return self.numel * self.itemsize

    def producer_fusible(self) -> np.ndarray:
        """Whether a fused kernel can keep node i's value in registers for its consumers.

        A getitem inherits its producer's kind: ``native_dropout``'s outputs fuse onward,
        ``native_layer_norm``'s are written.
        """
        return _kind_mask(self._effective_kind(), PRODUCER_FUSIBLE)

    def consumer_fusible(self) -> np.ndarray:
        return _kind_mask(self.kind, CONSUMER_FUSIBLE)

    def _effective_kind(self) -> np.ndarray:
        eff = self.kind.copy()
        for i in np.flatnonzero(self.kind == OpKind.GETITEM):
            ins = self.inputs[i]
            if ins:
                eff[i] = self.kind[ins[0]]
        return eff

    def op_name(self, i: int) -> str:
        node = self.nodes[i]
        return op_name(node.target) if node.op == "call_function" else node.op

    @classmethod
    def from_fx(cls, gm: fx.GraphModule, num_fwd_outputs: int,
                unbacked_size_hint: int = 4096) -> JointGraph:
        graph = gm.graph
        nodes: list[fx.Node] = []
        output_node = None
        for node in graph.nodes:
            if node.op == "output":
                output_node = node
            else:
                nodes.append(node)
        n = len(nodes)
        index = {node: i for i, node in enumerate(nodes)}

        kind = np.empty(n, dtype=np.int8)
        value = np.empty(n, dtype=np.int8)
        numel = np.zeros(n, dtype=np.int64)
        itemsize = np.zeros(n, dtype=np.int64)
        symbolic = np.zeros(n, dtype=bool)
        base = np.arange(n, dtype=np.int64)
        users: list[list[int]] = []
        inputs: list[list[int]] = []
        src: list[int] = []
        dst: list[int] = []

        view_kind = OpKind.VIEW
        tensor_cls = torch.Tensor
        for i, node in enumerate(nodes):
            k = classify(node.op, node.target)
            kind[i] = k
            meta = node.meta
            if "val" in meta:
                val = meta["val"]
                if isinstance(val, tensor_cls):
                    value[i] = Value.TENSOR
                    ne = val.numel()
                    if type(ne) is not int:
                        symbolic[i] = True
                        ne = size_hint(ne, unbacked_size_hint)
                    numel[i] = ne
                    itemsize[i] = val.dtype.itemsize
                else:
                    vk = _value_kind(val)
                    value[i] = vk
                    if vk == Value.MULTI:
                        ne, _ = value_size(val)
                        if type(ne) is not int:
                            symbolic[i] = True
                            ne = size_hint(ne, unbacked_size_hint)
                        numel[i] = ne
            else:
                value[i] = Value.MISSING
            ins: list[int] = []
            for inp in node.all_input_nodes:  # insertion-ordered, unique
                j = index.get(inp)
                if j is not None:
                    ins.append(j)
            inputs.append(ins)
            us = [index[u] for u in node.users if u.op != "output"]
            users.append(us)
            src.extend([i] * len(us))
            dst.extend(us)
            if (k == view_kind or (k == OpKind.GETITEM and ins and kind[ins[0]] == view_kind)) \
                    and ins:
                base[i] = base[ins[0]]

        fwd_output = np.zeros(n, dtype=bool)
        bwd_output = np.zeros(n, dtype=bool)
        if output_node is not None:
            outs = list(_flatten(output_node.args))
            for pos, o in enumerate(outs):
                j = index.get(o) if isinstance(o, fx.Node) else None
                if j is not None:
                    (fwd_output if pos < num_fwd_outputs else bwd_output)[j] = True

        role = _roles(nodes, kind, users, inputs, fwd_output, bwd_output)
        return cls(
            gm=gm, nodes=nodes, index=index, kind=kind, role=role, value=value, numel=numel,
            itemsize=itemsize, symbolic=symbolic, base=base, fwd_output=fwd_output,
            bwd_output=bwd_output, edge_src=np.asarray(src, dtype=np.int64),
            edge_dst=np.asarray(dst, dtype=np.int64), users=users, inputs=inputs,
            num_fwd_outputs=num_fwd_outputs,
        )


def _kind_mask(kind: np.ndarray, kinds: frozenset) -> np.ndarray:
    table = np.zeros(len(OpKind), dtype=bool)
    for k in kinds:
        table[k] = True
    return table[kind]


def _flatten(args):
    for a in args:
        if isinstance(a, (list, tuple)):
            yield from _flatten(a)
        else:
            yield a


def _roles(nodes, kind, users, inputs, fwd_output, bwd_output) -> np.ndarray:
    """Forward pass: the tangent closure. Reverse pass: what the forward outputs need."""
    is_primal = _torch_compat.is_primal()
    is_tangent = _torch_compat.is_tangent()
    is_fwd_seed = _torch_compat.is_fwd_seed_offset()
    is_bwd_seed = _torch_compat.is_bwd_seed_offset()
    n = len(nodes)
    role = np.full(n, Role.UNCLAIMED, dtype=np.int8)
    in_bw = np.zeros(n, dtype=bool)
    must_fw = np.zeros(n, dtype=bool)
    for i, node in enumerate(nodes):
        k = kind[i]
        if k == OpKind.PLACEHOLDER:
            if is_tangent(node):
                role[i] = Role.TANGENT
                in_bw[i] = True
            elif is_bwd_seed(node):
                role[i] = Role.BWD_SEED
                in_bw[i] = True
            elif is_fwd_seed(node):
                role[i] = Role.FWD_SEED
            elif is_primal(node):
                role[i] = Role.PRIMAL
            continue
        if k == OpKind.GET_ATTR:
            role[i] = Role.CONSTANT
            continue
        tag = node.meta.get("partitioner_tag")
        if tag == "must_be_in_backward" or (tag == "is_backward" and k == OpKind.MUTATING):
            in_bw[i] = True
        elif tag == "must_be_in_forward" or (k == OpKind.MUTATING and tag != "is_backward"):
            must_fw[i] = True
        if not in_bw[i]:
            for j in inputs[i]:
                if in_bw[j]:
                    in_bw[i] = True
                    break
    needed = fwd_output | must_fw
    needed &= ~in_bw
    for i in range(n - 1, -1, -1):
        if needed[i]:
            for j in inputs[i]:
                needed[j] = True
    inputs_mask = role <= Role.CONSTANT
    role[needed & ~inputs_mask] = Role.FORWARD
    role[in_bw & ~inputs_mask] = Role.BACKWARD
    return role


def unsupported_construct(gm: fx.GraphModule) -> str | None:
    """The first construct fusioncut does not partition itself, named for a warning, or None.

    Higher-order ops (their bodies are subgraphs the flow network cannot see), opaque values
    (script objects, BackwardState), call_module nodes, and nodes without ``meta["val"]``.
    """
    for node in gm.graph.nodes:
        op = node.op
        if op == "output":
            continue
        if op == "call_function":
            k = classify(op, node.target)
            if k == OpKind.HIGHER_ORDER:
                return f"higher-order op {op_name(node.target)} (node {node.name})"
        elif op in ("call_module", "call_method"):
            return f"{op} node {node.name}"
        if "val" not in node.meta:
            if op == "get_attr":
                continue
            return f"node {node.name} without meta['val'] ({op_name(node.target)})"
        val = node.meta["val"]
        if _value_kind(val) == Value.OPAQUE:
            return f"opaque value of type {type(val).__name__} on node {node.name}"
    return None
