"""``JointGraph``: AOTAutograd's joint forward+backward FX graph as flat arrays.

Node ``i`` is the i-th non-output node of ``gm.graph`` (graph order, hence deterministic)::

    nodes[i]        the fx.Node (never mutated, never given new attributes)
    kind[i]         ops.OpKind of its target
    role[i]         PRIMAL / FWD_SEED / TANGENT / BWD_SEED / CONSTANT (inputs),
                    FORWARD (needed for a forward output), BACKWARD (depends on a tangent,
                    or must run in the backward), UNCLAIMED (neither), DEAD (reaches no
                    output: the analysis does dead-code elimination without editing the graph)
    value[i]        TENSOR / SYMINT / SYMOTHER / MULTI (tuple, list or dict: a higher-order
                    op's outputs) / NONE / OBJECT (an object torch hands from the forward
                    to the backward: a device mesh, a BackwardState) / DEVICE (torch 2.15+)
                    / OPAQUE (any other object) / MISSING / TOKEN (an effect token)
    numel[i]        element count (the size hint for a symbolic size); tuples: the sum
    itemsize[i]     bytes per element (0 when not a tensor, so nbytes is 0 too)
    symbolic[i]     whether numel is an expression of shape symbols
    base[i]         the non-aliasing node whose storage node i views (i itself if not a view)
    fwd_output[i], bwd_output[i]
    first_input[i]  the node's first node argument (a view's or getitem's source), or -1
    edge_src, edge_dst   one edge per (producer, user) pair, sorted by producer then user;
                         user_ptr is its CSR index (users(i))
    inputs[i]       node i's node arguments, unique, in argument order

Everything here is structure and sizes; what may be recomputed is ``policy.py`` and what
saving costs is ``cost.py``. The sizes of a node are ``value_size(val)``, a function of the
``meta["val"]`` alone, so a caller holding other shapes can recompute them.
"""

from __future__ import annotations

import enum
import operator
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import torch
import torch.fx as fx

from fusioncut import _torch_compat, hops
from fusioncut.budget_annotation import memory_budget_annotation, one_budget
from fusioncut.joint_check import check_joint_module, fallback_error, flat_args, use_error
from fusioncut.ops import (CONSUMER_FUSIBLE, PRODUCER_FUSIBLE, OpKind, _codes, _dropout_args,
                           classify, kind_code, node_kind_code, op_name)


class Role(enum.IntEnum):
    PRIMAL = 0
    FWD_SEED = 1
    TANGENT = 2
    BWD_SEED = 3
    CONSTANT = 4
    FORWARD = 5
    BACKWARD = 6
    UNCLAIMED = 7
    DEAD = 8  # reaches no output and has no effect: neither graph will run it


class Value(enum.IntEnum):
    TENSOR = 0
    SYMINT = 1
    SYMOTHER = 2  # SymFloat, SymBool, plain Python scalars
    MULTI = 3  # tuple/list of values: only its getitem users can be saved
    NONE = 4
    OPAQUE = 5  # any other object: nothing fusioncut can size or hand to the backward
    MISSING = 6  # no meta["val"]
    TOKEN = 7  # an effect token (with_effects): threads effects in order, never saved
    OBJECT = 8  # a script or opaque object (a DTensor's mesh), a BackwardState: saved free
    DEVICE = 9  # a torch.device (torch 2.15+): no memory, recomputed wherever it is needed


SAVEABLE_VALUES = (Value.TENSOR, Value.SYMINT, Value.OBJECT)
"""The value kinds a forward can hand to the backward; any other node is never saved."""


def value_size(val: object) -> tuple[object, int]:
    """``(numel, itemsize)`` of a ``meta["val"]``; ``numel`` may be a SymInt expression.

    A tuple counts the elements of every tensor it holds (the reduction ban compares element
    counts) with itemsize 0: a tuple is never saved itself, only its getitems are. Anything
    else is ``(0, 0)``.
    """
    if isinstance(val, torch.Tensor):
        return val.numel(), val.dtype.itemsize
    if isinstance(val, (tuple, list, dict)):
        total = 0
        for v in (val.values() if isinstance(val, dict) else val):
            if isinstance(v, torch.Tensor):
                total = total + v.numel()
        return total, 0
    return 0, 0


def size_hint(n: object, fallback: int) -> int:
    """An int for a size that may be a SymInt: its hint, or ``fallback`` when it has none
    (unbacked). Never ``int(n)``: that would add a guard and specialize the graph."""
    if isinstance(n, int):
        return n
    hint = getattr(getattr(n, "node", None), "hint", None)
    if hint is None:
        return fallback
    return int(hint)


def _value_kind(val: object) -> Value:
    if isinstance(val, torch.Tensor):
        return Value.TENSOR
    if isinstance(val, (torch.SymInt, int)) and not isinstance(val, bool):
        return Value.SYMINT
    if isinstance(val, (tuple, list, dict)):
        return Value.MULTI  # a higher-order op's outputs (a dict for user Triton kernels)
    if val is None:
        return Value.NONE
    if isinstance(val, (torch.SymFloat, torch.SymBool, int, float, bool)):
        return Value.SYMOTHER
    if _torch_compat.is_opaque_object()(val):
        return Value.OBJECT
    if isinstance(val, torch.device) and _torch_compat.device_values_are_free():
        return Value.DEVICE
    return Value.OPAQUE


@dataclass
class JointGraph:
    gm: fx.GraphModule
    nodes: list[fx.Node]
    index: dict[fx.Node, int]
    kind: np.ndarray  # int8 OpKind
    role: np.ndarray  # int8 Role
    value: np.ndarray  # int8 Value
    numel: np.ndarray  # int64
    itemsize: np.ndarray  # int64
    symbolic: np.ndarray  # bool
    base: np.ndarray  # int64
    first_input: np.ndarray  # int64, -1 when the node has no node inputs
    fwd_output: np.ndarray  # bool
    bwd_output: np.ndarray  # bool
    edge_src: np.ndarray  # int64, sorted by (edge_src, edge_dst)
    edge_dst: np.ndarray  # int64
    user_ptr: np.ndarray  # int64 (n + 1,): users of i are edge_dst[user_ptr[i]:user_ptr[i+1]]
    inputs: list[list[int]]
    num_fwd_outputs: int
    unsupported: str | None = None
    """The first construct fusioncut does not partition itself (see ``unsupported_construct``)."""
    annotated: list[int] = field(default_factory=list)
    """Nodes with a ``meta["recompute"]`` annotation, ascending."""
    memory_budget: float | None = None
    """The activation memory budget the graph's nodes are annotated with (the strictest)."""
    budget_conflict: str | None = None
    """Annotations that disagree, named for a warning (``one_budget``), or None."""

    @property
    def num_nodes(self) -> int:
        return len(self.nodes)

    @property
    def nbytes(self) -> np.ndarray:
        """Output bytes per node from the size hints (0 for non-tensors)."""
        return self.numel * self.itemsize

    def users(self, i: int) -> np.ndarray:
        return self.edge_dst[self.user_ptr[i]:self.user_ptr[i + 1]]

    def on_accelerator(self) -> bool:
        """Whether any tensor of the graph lives on an accelerator (a GPU graph may also hold
        CPU scalars; fake tensors on ``meta`` count as the CPU), computed once. An ATen or prims
        op computes its tensors where the tensors it reads live unless it is given a device,
        so only the nodes that can place a tensor are looked at (a tensor's device costs a
        microsecond to read): inputs, ops that read no tensor, ops that take a device, and ops
        outside those namespaces (custom and higher-order ops; ``_device_origin``)."""
        cached = self.__dict__.get("_on_accelerator")
        if cached is None:
            inputs, origin = self.inputs, _device_origin
            cached = any(_device_type(node) not in ("cpu", "meta")
                         for i, node in enumerate(self.nodes)
                         if node.op != "call_function" or not inputs[i] or origin(node.target))
            self.__dict__["_on_accelerator"] = cached
        return cached

    def computes_low_precision(self) -> bool:
        """Whether any tensor of the graph is a 16-bit float (``bfloat16``, ``float16``: a
        model trained under ``torch.autocast`` or cast to half precision), computed once."""
        cached = self.__dict__.get("_low_precision")
        if cached is None:
            nodes = self.nodes
            cached = any(getattr(nodes[i].meta.get("val"), "dtype", None) in _HALF
                         for i in np.flatnonzero(self.itemsize == 2).tolist())
            self.__dict__["_low_precision"] = cached
        return cached

    def user_lists(self) -> list[list[int]]:
        """``users(i)`` for every node as Python lists (for per-node walks), built once."""
        cached = self.__dict__.get("_user_lists")
        if cached is None:
            dst = self.edge_dst.tolist()
            ptr = self.user_ptr.tolist()
            cached = [dst[ptr[i]:ptr[i + 1]] for i in range(self.num_nodes)]
            self.__dict__["_user_lists"] = cached
        return cached

    def split_saved(self, saved) -> tuple[list[fx.Node], list[fx.Node]]:
        """Saved node indices as ``build_modules`` takes them: the values (tensors, and opaque
        objects it hands on as torch's saved opaque values), then the SymInts."""
        nodes, symint = self.nodes, int(Value.SYMINT)
        saved = [int(i) for i in saved]
        is_symint = (self.value[np.asarray(saved, dtype=np.int64)] == symint).tolist()
        return ([nodes[i] for i, s in zip(saved, is_symint) if not s],
                [nodes[i] for i, s in zip(saved, is_symint) if s])

    def effective_kind(self) -> np.ndarray:
        """``kind`` with each getitem replaced by its producer's kind: ``native_dropout``'s
        outputs fuse onward, ``native_layer_norm``'s are written."""
        eff = self.kind.copy()
        getitems = np.flatnonzero((self.kind == _GETITEM) & (self.first_input >= 0))
        eff[getitems] = self.kind[self.first_input[getitems]]
        return eff

    def producer_fusible(self) -> np.ndarray:
        """Whether a fused kernel can keep node i's value in registers for its consumers."""
        return _kind_mask(self.effective_kind(), PRODUCER_FUSIBLE)

    def consumer_fusible(self) -> np.ndarray:
        return _kind_mask(self.kind, CONSUMER_FUSIBLE)

    def static_input_mask(self, static_lifetime_input_indices=None) -> np.ndarray:
        """bool (n,): the static-lifetime inputs (parameters, buffers); index k of
        ``static_lifetime_input_indices`` names the k-th primal input."""
        mask = np.zeros(self.num_nodes, dtype=bool)
        if static_lifetime_input_indices:
            primals = np.flatnonzero(self.role == Role.PRIMAL)
            wanted = [k for k in set(static_lifetime_input_indices) if 0 <= k < len(primals)]
            mask[primals[wanted]] = True
        return mask

    def op_name(self, i: int) -> str:
        node = self.nodes[i]
        return op_name(node.target) if node.op == "call_function" else node.op

    @classmethod
    def from_fx(cls, gm: fx.GraphModule, num_fwd_outputs: int,
                unbacked_size_hint: int = 4096, *, function: str = "partition",
                static_lifetime_input_indices: Sequence[int] | None = None) -> JointGraph:
        """The arrays of ``gm``'s graph. Malformed input raises before anything is decided
        (``check_joint_module``); ``function`` names the caller in those messages."""
        output_node = check_joint_module(gm, num_fwd_outputs, static_lifetime_input_indices,
                                         function, order=False)
        nodes: list[fx.Node] = [nd for nd in gm.graph.nodes if nd is not output_node]
        n = len(nodes)
        index: dict[fx.Node, int] = {}

        kind = [0] * n
        value = [_MISSING] * n
        numel = [0] * n
        itemsize = [0] * n
        symbolic_idx: list[int] = []
        base = list(range(n))
        first_input = [-1] * n
        inputs: list[list[int]] = []
        src: list[int] = []
        dst: list[int] = []

        tensor_cls = torch.Tensor
        codes = _codes
        itemsizes: dict[object, int] = {}
        unsupported: str | None = None
        annotated: list[int] = []
        partitioner_tags: dict[int, object] = {}
        budgets: dict[float, str] = {}
        for i, node in enumerate(nodes):
            op = node.op
            target = node.target
            k = codes.get(target) if op == "call_function" else None
            if k is None:
                k = kind_code(op, target)
            if k == _RANDOM and target in _dropout_args:
                k = node_kind_code(node)  # SDPA with dropout_p = 0 (torch 2.14+)
            if k == _HIGHER_ORDER and unsupported is None:
                unsupported = (hops.unsupported_hop(node) if op == "call_function"
                               else f"{op} node {node.name}")
            kind[i] = k
            meta = node.meta
            val = meta.get("val", _ABSENT)
            if type(val) is not _ABSENT_TYPE and isinstance(val, tensor_cls):
                value[i] = _TENSOR
                ne = val.numel()
                if type(ne) is not int:
                    symbolic_idx.append(i)
                    ne = size_hint(ne, unbacked_size_hint)
                numel[i] = ne
                dtype = val.dtype
                isz = itemsizes.get(dtype)
                if isz is None:
                    isz = itemsizes[dtype] = dtype.itemsize
                itemsize[i] = isz
            elif val is not _ABSENT:
                vk = int(_value_kind(val))
                value[i] = vk
                if vk == _MULTI:
                    ne, _ = value_size(val)
                    if type(ne) is not int:
                        symbolic_idx.append(i)
                        ne = size_hint(ne, unbacked_size_hint)
                    numel[i] = ne
                elif vk == _OPAQUE and unsupported is None:
                    unsupported = f"opaque value of type {type(val).__name__} on node {node.name}"
            elif op == "call_function":  # an op that returns nothing (check_joint_module)
                value[i] = _NONE
            if "memory_budget" in meta or "custom" in meta:
                b = memory_budget_annotation(node, function)
                if b is not None:
                    budgets.setdefault(b, node.name)
            if "recompute" in meta:
                annotated.append(i)
            if "partitioner_tag" in meta:
                partitioner_tags[i] = meta["partitioner_tag"]
            try:
                ins = [index[x] for x in node.all_input_nodes]
            except KeyError:
                raise use_error(function, node, nodes) from None
            index[node] = i
            inputs.append(ins)
            if k == _HIGHER_ORDER or k == _PLACEHOLDER or (k == _GETITEM and ins
                                                            and kind[ins[0]] == _HIGHER_ORDER):
                _mark_tokens(gm, node, i, k, ins, value, inputs, function)
            if ins:
                j0 = ins[0]
                first_input[i] = j0
                if k == _VIEW or (k == _GETITEM and kind[j0] == _VIEW):
                    base[i] = base[j0]
                src += ins
                dst += [i] * len(ins)

        memory_budget, budget_conflict = one_budget(budgets)
        fwd_output = np.zeros(n, dtype=bool)
        bwd_output = np.zeros(n, dtype=bool)
        if output_node is not None:
            for pos, o in enumerate(flat_args(output_node.args)):
                j = index.get(o) if isinstance(o, fx.Node) else None
                if j is not None:
                    (fwd_output if pos < num_fwd_outputs else bwd_output)[j] = True

        edge_src = np.asarray(src, dtype=np.int64)
        edge_dst = np.asarray(dst, dtype=np.int64)
        order = np.lexsort((edge_dst, edge_src))
        edge_src = edge_src[order]
        edge_dst = edge_dst[order]
        user_ptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(edge_src, minlength=n), out=user_ptr[1:])
        kind_arr = np.asarray(kind, dtype=np.int8)
        symbolic = np.zeros(n, dtype=bool)
        symbolic[symbolic_idx] = True
        role = _roles(nodes, kind, inputs, fwd_output, bwd_output, partitioner_tags)
        late = np.flatnonzero(fwd_output & (role >= Role.TANGENT) & (role <= Role.BWD_SEED)
                              | fwd_output & (role == Role.BACKWARD))
        if late.size:
            raise ValueError(f"{function}: forward output {nodes[late[0]].name!r} is or "
                             f"depends on a tangent (a backward input), so the forward cannot "
                             f"compute it; the first num_fwd_outputs = {num_fwd_outputs} "
                             f"outputs must be forward values")
        return cls(
            gm=gm, nodes=nodes, index=index, kind=kind_arr, role=role,
            value=np.asarray(value, dtype=np.int8), numel=_numel_array(numel, nodes, function),
            itemsize=np.asarray(itemsize, dtype=np.int64), symbolic=symbolic,
            base=np.asarray(base, dtype=np.int64),
            first_input=np.asarray(first_input, dtype=np.int64), fwd_output=fwd_output,
            bwd_output=bwd_output, edge_src=edge_src, edge_dst=edge_dst, user_ptr=user_ptr,
            inputs=inputs, num_fwd_outputs=num_fwd_outputs, unsupported=unsupported,
            annotated=annotated, memory_budget=memory_budget, budget_conflict=budget_conflict,
        )


_HALF = (torch.bfloat16, torch.float16)


def _device_type(node: fx.Node) -> str:
    return getattr(getattr(node.meta.get("val"), "device", None), "type", "cpu")


_ORIGIN: dict = {}


def _device_origin(target) -> bool:
    """Whether a call of ``target`` may place its outputs on a device other than its inputs':
    an ATen or prims operator that takes a device (``_to_copy``, ``device_put``, a factory),
    or any other callable but ``operator.getitem`` (cached per target)."""
    found = _ORIGIN.get(target)
    if found is None:
        if getattr(target, "namespace", None) in ("aten", "prims"):
            schema = getattr(target, "_schema", None)
            found = schema is None or any("Device" in str(a.type) for a in schema.arguments)
        else:
            found = target is not operator.getitem
        _ORIGIN[target] = found
    return found


# Plain ints for the per-node loops: IntEnum member access costs a metaclass lookup.
_VIEW = int(OpKind.VIEW)
_GETITEM = int(OpKind.GETITEM)
_PLACEHOLDER = int(OpKind.PLACEHOLDER)
_GET_ATTR = int(OpKind.GET_ATTR)
_MUTATING = int(OpKind.MUTATING)
_RANDOM = int(OpKind.RANDOM)
_TENSOR = int(Value.TENSOR)
_MULTI = int(Value.MULTI)
_MISSING = int(Value.MISSING)
_NONE = int(Value.NONE)
_HIGHER_ORDER = int(OpKind.HIGHER_ORDER)
_OPAQUE = int(Value.OPAQUE)
_TOKEN = int(Value.TOKEN)


class _Absent:
    pass


_ABSENT = _Absent()
_ABSENT_TYPE = _Absent


def _mark_tokens(gm, node, i, k, ins, value, inputs, function) -> None:
    """Effect tokens as ``Value.TOKEN``: the token inputs, what ``with_effects`` consumes,
    and output 0 of a HOP that has effects (``with_effects``, or a HOP fed a token). Checks
    that an invoke_subgraph call matches its subgraph."""
    if k == _PLACEHOLDER:
        if hops.is_token_placeholder(node):
            value[i] = _TOKEN
    elif k == _HIGHER_ORDER:
        hops.check_call(gm, node, function)
        token = hops.token_argument(node)
        if token is not None:
            value[ins[node.all_input_nodes.index(token)]] = _TOKEN
    elif hops.is_token_getitem(node):
        producer = ins[0]
        if hops.is_effectful(node.all_input_nodes[0].target,
                             any(value[j] == _TOKEN for j in inputs[producer])):
            value[i] = _TOKEN


def _numel_array(numel: list[int], nodes: list[fx.Node], function: str) -> np.ndarray:
    """int64 element counts; a count int64 cannot hold (a tuple of huge meta tensors, an absurd
    size hint) is a ValueError naming the node, not an OverflowError from numpy."""
    try:
        return np.asarray(numel, dtype=np.int64)
    except OverflowError:
        i = next(k for k, x in enumerate(numel) if not -2**63 <= x < 2**63)
        raise ValueError(f"{function}: node {nodes[i].name!r} holds about "
                         f"2**{abs(numel[i]).bit_length() - 1} elements; element counts must "
                         f"be below 2**63") from None


def _kind_mask(kind: np.ndarray, kinds: frozenset) -> np.ndarray:
    table = np.zeros(len(OpKind), dtype=bool)
    for k in kinds:
        table[k] = True
    return table[kind]


def _roles(nodes, kind, inputs, fwd_output, bwd_output, partitioner_tags) -> np.ndarray:
    """Forward pass: the tangent closure. Reverse pass: what the forward outputs need, and
    what any output or effect needs (the rest is dead)."""
    n = len(nodes)
    role = [int(Role.UNCLAIMED)] * n
    in_bw = [False] * n
    needed = fwd_output.tolist()
    live = (fwd_output | bwd_output).tolist()
    is_input = [False] * n
    placeholder, get_attr, mutating = _PLACEHOLDER, _GET_ATTR, _MUTATING
    effectful = int(OpKind.EFFECTFUL)
    tangent, bwd_seed, constant = int(Role.TANGENT), int(Role.BWD_SEED), int(Role.CONSTANT)
    for i, node in enumerate(nodes):
        k = kind[i]
        if k == placeholder:
            r = role[i] = _placeholder_role(node)
            is_input[i] = True
            in_bw[i] = r == tangent or r == bwd_seed
            continue
        if k == get_attr:
            role[i] = constant
            is_input[i] = True
            continue
        tag = partitioner_tags.get(i)
        if k == effectful:
            live[i] = True
        if tag is not None or k == mutating:
            if tag == "must_be_in_backward" or (tag == "is_backward" and k == mutating):
                in_bw[i] = live[i] = True
                continue
            if tag == "must_be_in_forward" or (k == mutating and tag != "is_backward"):
                needed[i] = live[i] = True
        for j in inputs[i]:
            if in_bw[j]:
                in_bw[i] = True
                break
    forward, backward, dead = int(Role.FORWARD), int(Role.BACKWARD), int(Role.DEAD)
    for i in range(n - 1, -1, -1):
        if not live[i]:
            if not is_input[i]:
                role[i] = dead
            continue
        for j in inputs[i]:
            live[j] = True
        if in_bw[i]:
            if not is_input[i]:
                role[i] = backward
        elif needed[i]:
            if not is_input[i]:
                role[i] = forward
            for j in inputs[i]:
                needed[j] = True
    return np.asarray(role, dtype=np.int8)


def _placeholder_role(node: fx.Node) -> int:
    if _torch_compat.is_tangent()(node):
        return int(Role.TANGENT)
    if _torch_compat.is_bwd_seed_offset()(node):
        return int(Role.BWD_SEED)
    if _torch_compat.is_fwd_seed_offset()(node):
        return int(Role.FWD_SEED)
    return int(Role.PRIMAL)


def unsupported_construct(gm: fx.GraphModule) -> str | None:
    """The first construct fusioncut does not partition itself, named for a warning, or None:
    a higher-order op other than those ``hops.KNOWN_HOPS`` models (its effects are unknown) or
    an object fusioncut cannot size or pass on (``Value.OPAQUE``). ``JointGraph.from_fx``
    finds the same in its own pass (``JointGraph.unsupported``); a malformed graph (a node
    without ``meta["val"]`` included) is ``check_joint_module``'s to refuse."""
    for node in gm.graph.nodes:
        op = node.op
        if op == "call_function" and classify(op, node.target) == OpKind.HIGHER_ORDER:
            reason = hops.unsupported_hop(node)
            if reason is not None:
                return reason
        if op != "output" and "val" in node.meta \
                and _value_kind(node.meta["val"]) == Value.OPAQUE:
            return f"opaque value of type {type(node.meta['val']).__name__} on node {node.name}"
    return None


def check_partitionable(gm: object, num_fwd_outputs: object,
                        static_lifetime_input_indices: object, function: str) -> None:
    """What every entry point but ``partition`` refuses before any work: what
    ``check_joint_module`` refuses, and a graph ``partition`` would hand to PyTorch's
    partitioner (there is no fusioncut decision for it)."""
    check_joint_module(gm, num_fwd_outputs, static_lifetime_input_indices, function)
    reason = unsupported_construct(gm)
    if reason is not None:
        raise fallback_error(function, reason)

