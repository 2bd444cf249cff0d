"""Higher-order ops (HOPs) in joint graphs: which ones fusioncut models and what they do.

A HOP is a ``call_function`` node whose target is a ``torch.ops.higher_order`` operator. Its
``meta["val"]`` is a container (tuple, list or dict) of outputs read by ``getitem`` nodes;
its subgraphs are ``get_attr`` nodes without ``meta["val"]``. fusioncut treats every HOP as
Inductor does, as one opaque call that fuses with nothing::

    HOP                                     class       ban when the forward needs it
    invoke_subgraph, cond, switch,          PURE        HIGHER_ORDER; a recompute annotation
    while_loop, while_loop_stack_output,                lifts it unless a body draws random
    flex_attention, flex_attention_backward,            numbers, communicates, has effects
    flex_gemm, scan, map_impl                           or mutates (then the ban is hard)
    with_effects, any HOP fed an effect     EFFECTFUL   EFFECTFUL, hard (never recomputed)
      token (an effectful invoke_subgraph)
    control_deps (torch 2.14+)              ORDERING    EFFECTFUL, hard: it orders a stream
                                                        sync and runs once, where it stands
    auto_functionalized(_v2),               MUTATING    MUTATING, hard (an arbitrary kernel
    triton_kernel_wrapper_functional                    that writes memory)
    any other HOP                           --          fusioncut falls back (unknown effects)

``switch`` (torch 2.14+, an n-way ``cond`` with autograd) is modelled as ``cond``: one call
whose branches are searched like any body. ``flex_gemm`` (2.14+: a GEMM with a traced
epilogue, no autograd of its own) is one call whose value may be a single tensor, saved like
any tensor. ``control_deps`` (Inductor's wrapper of a stream sync, ``control_deps(
additional_deps, subgraph, *deps) -> (sync result, *deps)``) passes its ``deps`` through:
its getitems 1.. are those values, saved where the backward reads them, and the sync never
runs again. torch's extraction learnt its rules in 2.14 (a forward sync is dropped from the
backward, a mixed one rebuilt), so graphs holding it are emitted by torch's extraction, and
on earlier torch they fall back.

The HOP node itself is never saved when its value is a container; its ``getitem``s are. Effect
tokens (``with_effects``'s output 0, the forward token inputs, ``tangents_token``) are never
saved: AOTAutograd's ``unlift_tokens`` needs each token chain whole inside one graph.

Duck-typed on ``target.namespace`` and names; the torch version a rule needs comes from
``_torch_compat``.
"""

from __future__ import annotations

import enum
import operator
from typing import Any

import torch
import torch.fx as fx

from fusioncut import _torch_compat
from fusioncut.ops import OpKind, classify, op_name


class HopClass(enum.Enum):
    PURE = "pure"
    EFFECTFUL = "effectful"
    MUTATING = "mutating"
    ORDERING = "ordering"  # control_deps: an effect that threads values, never a token


KNOWN_HOPS: dict[str, HopClass] = {
    "invoke_subgraph": HopClass.PURE,
    "cond": HopClass.PURE,
    "switch": HopClass.PURE,
    "flex_gemm": HopClass.PURE,
    "control_deps": HopClass.ORDERING,
    "while_loop": HopClass.PURE,
    "while_loop_stack_output": HopClass.PURE,
    "flex_attention": HopClass.PURE,
    "flex_attention_backward": HopClass.PURE,
    "map_impl": HopClass.PURE,
    "scan": HopClass.PURE,
    "with_effects": HopClass.EFFECTFUL,
    "auto_functionalized": HopClass.MUTATING,
    "auto_functionalized_v2": HopClass.MUTATING,
    "triton_kernel_wrapper_functional": HopClass.MUTATING,
}
"""The HOPs fusioncut partitions natively, by ``torch.ops.higher_order`` name."""

# Op kinds inside a HOP body that make re-running the HOP wrong or unsafe: a second draw of
# random numbers, a collective only this rank repeats, an effect or a mutation done twice.
_BODY_HAZARDS = (OpKind.RANDOM, OpKind.COLLECTIVE, OpKind.EFFECTFUL, OpKind.MUTATING)
_TOKEN_DESCS = frozenset({"ForwardTokenAOTInput", "BackwardTokenAOTInput"})


def is_hop(target: object) -> bool:
    return getattr(target, "namespace", None) == "higher_order"


def hop_name(target: object) -> str:
    """``invoke_subgraph`` for ``torch.ops.higher_order.invoke_subgraph``."""
    name = getattr(target, "__name__", None)
    return name if isinstance(name, str) else str(target)


def hop_class(target: object) -> HopClass | None:
    """The class of a HOP fusioncut models, or None (it falls back)."""
    cls = KNOWN_HOPS.get(hop_name(target))
    if cls is HopClass.ORDERING and not _torch_compat.extracts_control_deps():
        return None
    return cls


def needs_torch_extraction(target: object) -> bool:
    """HOPs whose forward and backward graphs torch's own extraction builds (it rewrites
    them per graph): ``control_deps``."""
    return KNOWN_HOPS.get(hop_name(target)) is HopClass.ORDERING


def unsupported_hop(node: fx.Node) -> str | None:
    """Why fusioncut cannot partition a graph holding HOP ``node`` itself, or None."""
    name = op_name(node.target)
    if "val" not in node.meta:
        return f"higher-order op {name} (node {node.name})"
    if hop_class(node.target) is None:
        if hop_name(node.target) in KNOWN_HOPS:
            return (f"higher-order op {name} (node {node.name}), which torch "
                    f"{torch.__version__}'s graph extraction does not split (torch 2.14+ "
                    f"does)")
        return (f"higher-order op {name} (node {node.name}), whose effects fusioncut does not "
                f"model")
    return None


def is_token_placeholder(node: fx.Node) -> bool:
    """AOTAutograd's effect-token inputs: the forward tokens and ``tangents_token``."""
    desc = node.meta.get("desc")
    return type(desc).__name__ in _TOKEN_DESCS or node.name == "tangents_token"


def is_effectful(target: object, has_token_input: bool) -> bool:
    """``with_effects``, or a HOP threaded through an effect token (an invoke_subgraph whose
    region has effects: ``invoke_subgraph(subgraph, id, token, *args) -> (token, *out)``)."""
    return hop_class(target) is HopClass.EFFECTFUL or has_token_input


def token_argument(node: fx.Node) -> fx.Node | None:
    """The token a ``with_effects`` node consumes (its first argument), or None."""
    if hop_class(node.target) is HopClass.EFFECTFUL and node.args and isinstance(
            node.args[0], fx.Node):
        return node.args[0]
    return None


def is_token_getitem(node: fx.Node) -> bool:
    """``getitem(hop, 0)``: the output token of an effectful HOP (the caller checks the HOP)."""
    return node.target is operator.getitem and len(node.args) > 1 and node.args[1] == 0


def describe(node: fx.Node) -> str:
    """The HOP with what identifies its work: ``torch.ops.higher_order.with_effects(aten._print)``,
    ``torch.ops.higher_order.invoke_subgraph('subgraph_0')``."""
    name = op_name(node.target)
    short = hop_name(node.target)
    args = node.args
    if short == "with_effects" and len(args) > 1:
        return f"{name}({op_name(args[1])})"
    if short.startswith("auto_functionalized") and args:
        return f"{name}({op_name(args[0])})"
    if short == "invoke_subgraph" and len(args) > 1 and isinstance(args[1], str):
        return f"{name}({args[1]!r})"
    if short == "triton_kernel_wrapper_functional":
        return f"{name}(kernel_idx={node.kwargs.get('kernel_idx')})"
    return name


def subgraphs(gm: fx.GraphModule, node: fx.Node) -> list[fx.GraphModule]:
    """The GraphModules a HOP node calls: its ``get_attr`` arguments, also those inside
    tuples (flex_attention's mask graph sits in its block-mask tuple)."""
    out = []
    for arg in node.all_input_nodes:
        if arg.op == "get_attr":
            module = fetch_attr(gm, arg.target)
            if isinstance(module, fx.GraphModule):
                out.append(module)
    return out


def fetch_attr(gm: torch.nn.Module, target: str) -> Any:
    """``gm.a.b`` for ``target == "a.b"``; None when it does not exist."""
    obj: Any = gm
    for part in str(target).split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


def body_hazard(gm: fx.GraphModule, node: fx.Node) -> tuple[OpKind, str] | None:
    """The first op in HOP ``node``'s bodies (searched recursively) that makes running the HOP
    twice unsafe, as ``(kind, op name)``, or None."""
    seen: set[int] = set()
    pending = subgraphs(gm, node)
    while pending:
        body = pending.pop()
        if id(body) in seen:
            continue
        seen.add(id(body))
        for inner in body.graph.nodes:
            if inner.op != "call_function":
                continue
            if is_hop(inner.target):
                cls = hop_class(inner.target)
                if cls is HopClass.EFFECTFUL or cls is HopClass.ORDERING:
                    return OpKind.EFFECTFUL, describe(inner)
                if cls is HopClass.MUTATING or cls is None:
                    return OpKind.MUTATING, describe(inner)
                pending.extend(subgraphs(body, inner))
                continue
            kind = classify("call_function", inner.target)
            if kind in _BODY_HAZARDS:
                return kind, op_name(inner.target)
    return None


def hop_ban(gm: fx.GraphModule, node: fx.Node, has_token_input: bool,
            lift_requested: bool) -> tuple[OpKind, str, bool]:
    """The ban on recomputing HOP ``node``: ``(rule, detail, hard)``.

    ``rule`` is the op kind whose reason applies (EFFECTFUL, MUTATING, RANDOM, COLLECTIVE or
    HIGHER_ORDER); ``hard`` says that no annotation may lift it. ``lift_requested``: a
    recompute annotation asks to lift the ban, so the HOP's bodies are searched for hazards
    (only then: the search walks every body).
    """
    detail = describe(node)
    cls = hop_class(node.target)
    if is_effectful(node.target, has_token_input) or cls is HopClass.ORDERING:
        return OpKind.EFFECTFUL, detail, True
    if cls is HopClass.MUTATING or cls is None:
        return OpKind.MUTATING, detail, True
    if lift_requested:
        hazard = body_hazard(gm, node)
        if hazard is not None:
            kind, inner = hazard
            return kind, f"{detail}, whose body calls {inner}", True
    return OpKind.HIGHER_ORDER, detail, False


def check_call(gm: fx.GraphModule, node: fx.Node, function: str) -> None:
    """An ``invoke_subgraph(subgraph, identifier, *operands)`` call must match its subgraph:
    ``subgraph`` a get_attr node of a GraphModule that ``gm`` holds, ``identifier`` a string or
    None, one operand per subgraph input, each of its input's kind (``_operand_problem``).
    Raises ``ValueError`` naming the node, the operand and what the subgraph takes; a mismatch
    would make any partition wrong (the emitted forward fails when it runs)."""
    if hop_name(node.target) != "invoke_subgraph":
        return
    where = f"{function}: invoke_subgraph node {node.name!r}"
    if len(node.args) < 2:
        raise ValueError(f"{where} has {len(node.args)} arguments; it takes (subgraph, "
                         f"identifier, *operands)")
    sub, identifier = node.args[0], node.args[1]
    if not isinstance(sub, fx.Node) or sub.op != "get_attr":
        got = f"node {sub.name!r} (a {sub.op})" if isinstance(sub, fx.Node) else repr(sub)
        raise ValueError(f"{where} takes its subgraph from a get_attr node; its first "
                         f"argument is {got}")
    module = fetch_attr(gm, sub.target)
    if not isinstance(module, fx.GraphModule):
        raise ValueError(f"{where} calls {sub.target!r}, which is a {type(module).__name__}, "
                         f"not a subgraph (a torch.fx.GraphModule)")
    if identifier is not None and not isinstance(identifier, str):
        raise ValueError(f"{where}: identifier = {identifier!r} is invalid; expected a "
                         f"string or None")
    # Graph-safe RNG states (CUDA) are placeholders the call sites get only after
    # partitioning (torch's thread_graphsafe_rng_from_hops): not operands yet.
    params = [p for p in module.graph.find_nodes(op="placeholder")
              if "rng_state" not in p.name]
    operands = node.args[2:]
    if len(params) != len(operands):
        raise ValueError(f"{where} passes {len(operands)} operands to subgraph "
                         f"{sub.target!r}, which takes {len(params)} inputs")
    for k, (param, arg) in enumerate(zip(params, operands)):
        want = param.meta.get("val", _NO_VAL)
        got = _operand_value(gm, arg)
        problem = _operand_problem(want, arg, got)
        if problem is not None:
            name = f" ({arg.name!r})" if isinstance(arg, fx.Node) else ""
            raise ValueError(f"{where} calls subgraph {sub.target!r} with operand {k}{name} "
                             f"{problem}; the subgraph's input {param.name!r} is "
                             f"{_describe(want)} (a region's calls must agree with it)")


_NO_VAL = object()
# What a call may pass (torch's invoke_subgraph check): tensors, ints and SymInts, generators
# and opaque objects (as nodes), None. A Python constant can only be an int or None.
_CONSTANT_OPERANDS = (int, type(None))


def _operand_value(gm: fx.GraphModule, arg: Any) -> Any:
    """What an operand holds: a node's ``meta["val"]`` (a get_attr's attribute), else the
    constant itself."""
    if not isinstance(arg, fx.Node):
        return arg
    if arg.op == "get_attr" and "val" not in arg.meta:
        return fetch_attr(gm, arg.target)
    return arg.meta.get("val", _NO_VAL)


def _operand_problem(want: Any, arg: Any, got: Any) -> str | None:
    """Why an operand holding ``got`` cannot feed a subgraph input holding ``want``."""
    if not isinstance(arg, fx.Node) and not isinstance(arg, _CONSTANT_OPERANDS):
        return (f"= {arg!r} ({type(arg).__name__}), which no subgraph input takes (operands "
                f"are tensors, ints, SymInts, generators, opaque objects or None)")
    if want is _NO_VAL or got is _NO_VAL:
        return None  # a subgraph input without meta["val"]: nothing to compare with
    if isinstance(want, torch.Tensor):
        if not isinstance(got, torch.Tensor):
            return f"= {_describe(got)}, not a tensor"
        if want.dtype != got.dtype or want.dim() != got.dim() or any(
                type(a) is int and type(b) is int and a != b
                for a, b in zip(want.shape, got.shape)):
            return f"of shape {tuple(got.shape)} {got.dtype}"
        return None
    if isinstance(want, (int, torch.SymInt)):
        ok = isinstance(got, (int, torch.SymInt))
        return None if ok else f"= {_describe(got)}, not an int or SymInt"
    if want is None:
        return None if got is None else f"= {_describe(got)}, not None"
    return None if isinstance(arg, fx.Node) else f"= {_describe(got)}"


def _describe(val: Any) -> str:
    if val is _NO_VAL:
        return "without meta['val']"
    if isinstance(val, torch.Tensor):
        return f"{tuple(val.shape)} {val.dtype}"
    return f"{val!r} ({type(val).__name__})" if val is None or isinstance(
        val, (int, float, str)) else f"a {type(val).__name__}"
