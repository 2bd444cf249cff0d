"""What kind of op an FX node runs, as far as recomputation is concerned.

One ``OpKind`` per call target, decided once per process and cached (``classify``)::

    kind               fuses as producer  fuses as consumer  recomputable in mode
                                                              runtime     memory
    VIEW  (aliasing)          yes               yes            yes         yes
    POINTWISE                 yes               yes            yes         yes
    REDUCTION                 no (written)      yes            yes         yes
    CAT                       no (written)      yes            yes         yes
    RANDOM                    yes               yes            no          no
    COMPUTE_INTENSIVE         no                no             no          no
    OTHER  (e.g. layer norm)  no                no             no          yes
    OPAQUE (custom op)        no                no             no          no
    COLLECTIVE                no                no             no          no
    MUTATING / EFFECTFUL      no                no             never       never
    GETITEM / SYMBOLIC        (inherit / n.a.)                 yes         yes
    HIGHER_ORDER (HOP)        no                no             no (*)      no (*)

(*) A higher-order op (``invoke_subgraph``, ``cond``, ``flex_attention``, ``with_effects``,
...) is one opaque call, as Inductor runs it; ``hops.py`` says which HOPs fusioncut models,
which have effects, and when an annotation may have one recomputed. Its getitems inherit
its kind (written, never fused). Unknown HOPs make fusioncut fall back.

Fusion follows Inductor: pointwise ops and views fuse into anything fusible; reductions and
``cat`` fuse their producers in but write their own output; aliasing ops (``detach``,
``view``, ``t``, ``permute``, ``expand``, ...) never break a chain. Aliasing is read from the
op schema (the first return aliases an input and is not written), so new view ops need no
list. Random ops are recognised by torch's ``nondeterministic_seeded`` tag.
"""

from __future__ import annotations

import enum
import operator

import torch

from fusioncut import _torch_compat


class OpKind(enum.IntEnum):
    PLACEHOLDER = 0
    GET_ATTR = 1
    VIEW = 2
    POINTWISE = 3
    REDUCTION = 4
    CAT = 5
    RANDOM = 6
    COMPUTE_INTENSIVE = 7
    OTHER = 8
    OPAQUE = 9
    COLLECTIVE = 10
    MUTATING = 11
    EFFECTFUL = 12
    GETITEM = 13
    SYMBOLIC = 14
    HIGHER_ORDER = 15


PRODUCER_FUSIBLE = frozenset({OpKind.VIEW, OpKind.POINTWISE, OpKind.RANDOM})
CONSUMER_FUSIBLE = frozenset(
    {OpKind.VIEW, OpKind.POINTWISE, OpKind.REDUCTION, OpKind.CAT, OpKind.RANDOM}
)
RUNTIME_RECOMPUTABLE = frozenset(
    {OpKind.VIEW, OpKind.POINTWISE, OpKind.REDUCTION, OpKind.CAT, OpKind.GETITEM,
     OpKind.SYMBOLIC}
)

# Overload packets (by aten name) that do most of their work in arithmetic, not memory
# traffic: recomputing them is never free (paper section 3.1, assumption 3).
COMPUTE_INTENSIVE_NAMES = frozenset({
    "mm", "bmm", "addmm", "baddbmm", "addbmm", "addmv", "mv", "dot", "matmul", "linear",
    "einsum", "_int_mm", "_scaled_mm", "_scaled_grouped_mm", "_grouped_mm",
    "_weight_int8pack_mm", "_weight_int4pack_mm",
    "convolution", "_convolution", "convolution_backward", "conv1d", "conv2d", "conv3d",
    "cudnn_convolution", "cudnn_convolution_transpose", "mkldnn_convolution",
    "_scaled_dot_product_flash_attention", "_scaled_dot_product_flash_attention_for_cpu",
    "_scaled_dot_product_efficient_attention", "_scaled_dot_product_cudnn_attention",
    "_scaled_dot_product_fused_attention_overrideable", "_flash_attention_forward",
    "_efficient_attention_forward", "upsample_bilinear2d",
})

# Ops Inductor generates inside a pointwise kernel although torch does not tag them
# ``pointwise``: copies, casts, constant and index-based fills, and gathers by index.
EXTRA_POINTWISE_NAMES = frozenset({
    "_to_copy", "to", "clone", "type_as", "lift_fresh_copy", "contiguous",
    "full", "full_like", "zeros", "zeros_like", "ones", "ones_like", "empty", "empty_like",
    "new_zeros", "new_ones", "new_full", "new_empty", "scalar_tensor", "arange", "iota",
    "tril", "triu", "index", "gather", "embedding", "constant_pad_nd", "masked_fill",
    "convert_element_type", "broadcast_in_dim", "_unsafe_index", "index_select",
    "fill", "where", "select_scatter", "slice_scatter",
    "_low_memory_max_pool_offsets_to_indices",
})

# Ops that do not alias by schema but are free reshapes Inductor treats like views.
EXTRA_VIEW_NAMES = frozenset({"_unsafe_view", "reshape", "view_of"})

# Fused normalisations Inductor lowers as reductions (persistent or looped).
EXTRA_REDUCTION_NAMES = frozenset({
    "_softmax", "_log_softmax", "_softmax_backward_data", "_log_softmax_backward_data",
    "softmax", "log_softmax", "sum", "xor_sum", "prod", "prepare_softmax_online",
})

# Random ops of Inductor's RNG lowering that carry no ``nondeterministic_seeded`` tag.
EXTRA_RANDOM_NAMES = frozenset({"inductor_random", "inductor_randint"})

COLLECTIVE_NAMESPACES = frozenset({"_c10d_functional", "c10d_functional",
                                   "_c10d_functional_autograd", "_dtensor"})
# Namespaces whose ops fusioncut understands; ops from any other namespace (custom ops) are
# opaque: never fused, never recomputed.
KNOWN_NAMESPACES = frozenset({"aten", "prims", "inductor_prims", "_inductor_test"})

_codes: dict[object, int] = {}
_dropout_args: dict[object, tuple[int, object, int]] = {}
"""Seeded targets with a ``dropout_p`` argument (the SDPA family): target -> (its schema
position, its default, the kind the op has when it draws nothing). Filled by
``_classify_target`` where torch's partitioner has the rule (torch 2.14+)."""


def classify(node_op: str, target: object) -> OpKind:
    """The ``OpKind`` of an FX node with ``node.op == node_op`` and ``node.target == target``."""
    return OpKind(kind_code(node_op, target))


def kind_code(node_op: str, target: object) -> int:
    """``int(classify(node_op, target))``, cached per call target (the per-node fast path)."""
    if node_op == "call_function":
        code = _codes.get(target)
        if code is None:
            code = int(_classify_target(target))
            _codes[target] = code
        return code
    if node_op == "placeholder":
        return _PLACEHOLDER_CODE
    if node_op == "get_attr":
        return _GET_ATTR_CODE
    return _HIGHER_ORDER_CODE  # call_module / call_method: not an aten joint graph


_PLACEHOLDER_CODE = int(OpKind.PLACEHOLDER)
_GET_ATTR_CODE = int(OpKind.GET_ATTR)
_HIGHER_ORDER_CODE = int(OpKind.HIGHER_ORDER)
_names: dict[object, str] = {}


def op_name(target: object) -> str:
    """``aten.mm`` for an OpOverload, ``torch.ops.higher_order.cond`` for a HOP, else a name."""
    name = _names.get(target)
    if name is None:
        name = _names[target] = _op_name(target)
    return name


def _op_name(target: object) -> str:
    packet = getattr(target, "overloadpacket", None)
    if packet is not None:
        return f"{target.namespace}.{packet.__name__}"
    if getattr(target, "namespace", None) == "higher_order":
        return f"torch.ops.higher_order.{getattr(target, '__name__', target)}"
    return getattr(target, "__name__", str(target))


def _classify_target(target: object) -> OpKind:
    if target is operator.getitem:
        return OpKind.GETITEM
    schema = getattr(target, "_schema", None)
    packet = getattr(target, "overloadpacket", None)
    if schema is None or packet is None:
        # Not an OpOverload. Duck typing keeps torch._ops (private) out of this module.
        if getattr(target, "namespace", None) == "higher_order":
            return OpKind.HIGHER_ORDER
        if getattr(target, "__module__", None) in ("_operator", "operator", "math",
                                                   "builtins", "torch", "torch.sym_node") \
                or getattr(target, "__module__", "").startswith("torch.fx.experimental"):
            return OpKind.SYMBOLIC  # SymInt arithmetic: operator.mul, sym_sum, sym_max, ...
        return OpKind.OPAQUE
    namespace = target.namespace
    name = packet.__name__
    tags = target.tags
    if namespace in COLLECTIVE_NAMESPACES:
        return OpKind.COLLECTIVE
    if schema.is_mutable:
        return OpKind.MUTATING
    if len(schema.returns) == 0:
        return OpKind.EFFECTFUL  # asserts, prints: run for their effect
    if torch.Tag.nondeterministic_seeded in tags or name in EXTRA_RANDOM_NAMES:
        if _torch_compat.follows_sdpa_dropout_rule():
            position = _dropout_position(schema)
            if position is not None:
                default = schema.arguments[position].default_value
                _dropout_args[target] = (position, default,
                                         int(_classify_unseeded(namespace, name, schema, tags)))
        return OpKind.RANDOM
    if name.startswith("sym_") and namespace == "aten":
        return OpKind.SYMBOLIC  # aten.sym_size / sym_numel / sym_stride
    return _classify_unseeded(namespace, name, schema, tags)


def _classify_unseeded(namespace: str, name: str, schema, tags) -> OpKind:
    """The kind of an op that draws no random numbers (the rules after the RANDOM one)."""
    if namespace not in KNOWN_NAMESPACES:
        return OpKind.OPAQUE
    if name in COMPUTE_INTENSIVE_NAMES:
        return OpKind.COMPUTE_INTENSIVE
    first = schema.returns[0]
    if name in EXTRA_VIEW_NAMES or (
        first.alias_info is not None and not first.alias_info.is_write
    ):
        return OpKind.VIEW
    if name == "cat":
        return OpKind.CAT
    if torch.Tag.reduction in tags or name in EXTRA_REDUCTION_NAMES:
        return OpKind.REDUCTION
    if torch.Tag.pointwise in tags or name in EXTRA_POINTWISE_NAMES:
        return OpKind.POINTWISE
    return OpKind.OTHER


def _dropout_position(schema) -> int | None:
    for k, arg in enumerate(schema.arguments):
        if arg.name == "dropout_p":
            return k
    return None


def node_kind_code(node) -> int:
    """``kind_code`` of an FX node: the target's kind, except that an SDPA-family op whose
    ``dropout_p`` is statically 0 is not RANDOM (torch 2.14+'s ``is_rng_op``; a symbolic or
    missing ``dropout_p`` stays random)."""
    code = kind_code(node.op, node.target)
    if code == _RANDOM_CODE and node.target in _dropout_args:
        position, default, unseeded = _dropout_args[node.target]
        if len(node.args) > position:
            p = node.args[position]
        else:
            p = node.kwargs.get("dropout_p", default)
        if type(p) in (int, float) and p == 0:
            return unseeded
    return code


def is_random_node(node) -> bool:
    """Whether running ``node`` draws random numbers (so running it twice needs its RNG
    state): the one rule the decision and the emitted graphs share."""
    return node.op == "call_function" and node_kind_code(node) == _RANDOM_CODE


_RANDOM_CODE = int(OpKind.RANDOM)
