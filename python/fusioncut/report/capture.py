"""``capture``: the joint graphs a model hands a partitioner, the way ``torch.compile`` sees it.

    fn_or_module(*args, **kwargs)
        via="dynamo" (default)  torch.compile with a recording backend: Dynamo (keyword inputs,
                                dict and cache outputs, masks, graph breaks) -> AOTAutograd ->
                                one Joint per graph that has a backward
        via="aot"               aot_function / aot_module: positional inputs, one Joint

Each ``Joint`` is a private deep copy of what AOTAutograd passed to its ``partition_fn``
(taken outside the compile's fake mode: joint graphs may hold real tensor constants); the
compile itself is finished by ``default_partition``. Like ``torch._dynamo.explain``, the
Dynamo path resets Dynamo's caches before and after, so that every call traces afresh (no
cached graph, no recompile limit, no sizes made dynamic by an earlier call) and leaves no
compiled code behind; models compiled before recompile on their next call.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

import torch
import torch.fx as fx

from fusioncut import _torch_compat
from fusioncut._validate import shown

__all__ = ["VIAS", "Captured", "Joint", "capture", "trace"]

VIAS = ("dynamo", "aot")


@dataclass
class Joint:
    """One joint graph as AOTAutograd hands it to a partitioner (a private deep copy)."""

    joint_module: fx.GraphModule
    joint_inputs: Any
    num_fwd_outputs: int
    static_lifetime_input_indices: list[int] | None
    kwargs: dict = field(default_factory=dict)
    """The partitioner's other keyword arguments (e.g. ``compiler``)."""


@dataclass
class Captured:
    """Every joint graph of one call of a model, in the order AOTAutograd made them.

    With one joint graph (no graph break, or ``via="aot"``), ``joint_module``,
    ``joint_inputs``, ``num_fwd_outputs``, ``static_lifetime_input_indices`` and ``kwargs``
    are that graph's; with several they raise ``ValueError``: pick one from ``graphs``."""

    graphs: list[Joint]
    via: str = "dynamo"
    num_dynamo_graphs: int = 0  # graphs Dynamo compiled (some may have no backward)
    graph_breaks: list[str] = field(default_factory=list)  # Dynamo's reasons, one line each

    def only(self) -> Joint:
        if len(self.graphs) != 1:
            breaks = f" (graph breaks: {'; '.join(self.graph_breaks)})" \
                if self.graph_breaks else ""
            raise ValueError(f"capture: the model compiled into {len(self.graphs)} joint "
                             f"graphs{breaks}; pick one from Captured.graphs")
        return self.graphs[0]

    joint_module = property(lambda self: self.only().joint_module)
    joint_inputs = property(lambda self: self.only().joint_inputs)
    num_fwd_outputs = property(lambda self: self.only().num_fwd_outputs)
    static_lifetime_input_indices = property(
        lambda self: self.only().static_lifetime_input_indices)
    kwargs = property(lambda self: self.only().kwargs)


def capture(fn_or_module: Any, *args: Any, via: str = "dynamo", dynamic: bool = False,
            **kwargs: Any) -> Captured:
    """Call ``fn_or_module(*args, **kwargs)`` under ``torch.compile`` and return the joint
    graphs AOTAutograd hands its partitioner.

    ``via="dynamo"`` (default) traces as ``torch.compile`` does: keyword inputs, outputs of
    any structure (dicts, ``ModelOutput``, caches), graph breaks (one joint graph per compiled
    graph with a backward; ``Captured.graph_breaks`` says why Dynamo broke). ``via="aot"``
    traces with ``aot_module`` / ``aot_function``: positional tensor inputs only, one graph;
    an ``nn.Module``'s parameters and buffers are marked static-lifetime inputs, as under
    ``torch.compile``. ``dynamic=True`` marks sizes symbolic (Dynamo's ``dynamic=True``): the
    joint graphs then hold SymInts, for ``fusioncut.plan`` (docs/dynamic.md).

    A ``torch.compile``'d model or function is traced as what it wraps.

    Rejects: ``fn_or_module`` that is neither an ``nn.Module`` nor callable, or is a module
    class rather than an instance (``TypeError``); an unknown ``via``, keyword inputs with
    ``via="aot"`` or a ``dynamic`` that is not a bool (``ValueError``); a call made while
    ``torch.compile`` is compiling (inside a compiled function, a backend or a partitioner:
    tracing would reset the running compile) and a call from which no backward follows
    (``ValueError``: no input or parameter requires grad, no tensor output depends on one,
    grad mode is off, or Dynamo compiled no graph of it and ran it eagerly, saying why).
    Errors the model raises propagate.
    """
    return trace("capture", fn_or_module, args, kwargs, via=via, dynamic=dynamic)


def trace(function: str, fn_or_module: Any, args: tuple, kwargs: dict, *, via: str = "dynamo",
          dynamic: bool = False) -> Captured:
    """``capture``, with errors named after ``function`` (``explain``, ``pareto``). A
    ``Captured`` is returned as it is: explaining it again traces nothing."""
    if isinstance(fn_or_module, Captured):
        if args or kwargs:
            raise ValueError(f"{function}: a Captured call takes no inputs (it holds its joint "
                             "graphs already)")
        graphs = fn_or_module.graphs
        if not isinstance(graphs, list) or not graphs or not all(
                isinstance(j, Joint) for j in graphs):
            raise ValueError(f"{function}: the Captured holds no joint graph (its graphs must "
                             f"be a non-empty list of Joint, as capture returns), got "
                             f"{shown(graphs)}")
        return fn_or_module
    if isinstance(fn_or_module, type) and issubclass(fn_or_module, torch.nn.Module):
        raise TypeError(f"{function}: fn_or_module is the class {fn_or_module.__name__}, not a "
                        f"model: pass an instance, {fn_or_module.__name__}(...)")
    if not isinstance(fn_or_module, torch.nn.Module) and not callable(fn_or_module):
        raise TypeError(f"{function}: fn_or_module must be an nn.Module or a callable, got "
                        f"{type(fn_or_module).__name__}")
    if not isinstance(via, str) or via not in VIAS:
        raise ValueError(f"{function}: via = {shown(via)} is invalid; expected one of "
                         + ", ".join(map(repr, VIAS)))
    if not isinstance(dynamic, bool):
        raise ValueError(f"{function}: dynamic = {shown(dynamic)} is invalid; expected True or "
                         "False")
    if via == "aot" and (kwargs or dynamic):
        what = "keyword inputs" if kwargs else "dynamic=True"
        raise ValueError(f"{function}: {what} need via='dynamo' (aot_module and aot_function "
                         "take positional tensors at static sizes)")
    if torch.compiler.is_compiling():
        raise ValueError(f"{function}: called while torch.compile is compiling (inside a "
                         "compiled function, a Dynamo backend or a partitioner): tracing the "
                         "model is a compile of its own, which would reset the running one; "
                         "call it outside any compile")
    if not torch.is_grad_enabled():
        raise ValueError(f"{function}: grad mode is off (torch.no_grad or inference_mode, or "
                         "inside AOTAutograd's partitioner): there is no backward to partition")
    # A torch.compile'd module or function: trace what it wraps, as torch.compile would.
    fn_or_module = getattr(fn_or_module, "_orig_mod", fn_or_module)
    joints: list[Joint] = []
    record = _recorder(joints)
    if via == "aot":
        _trace_aot(fn_or_module, args, record)
        captured = Captured(joints, via="aot")
    else:
        num_graphs, breaks = _trace_dynamo(fn_or_module, args, kwargs, record, dynamic)
        captured = Captured(joints, via="dynamo", num_dynamo_graphs=num_graphs,
                            graph_breaks=breaks)
    if not joints and captured.num_dynamo_graphs == 0 and captured.graph_breaks:
        raise ValueError(f"{function}: Dynamo compiled no graph of the call and ran it eagerly "
                         f"(graph breaks: {'; '.join(captured.graph_breaks[:3])}); via='aot' "
                         "traces it without Dynamo")
    if not joints:
        raise ValueError(f"{function}: AOTAutograd produced no joint graph: no input or "
                         "parameter requires grad, or no output that is a tensor depends on "
                         "one")
    if via == "aot" and isinstance(fn_or_module, torch.nn.Module):
        _mark_parameters_static(joints[0], args)
    return captured


def _recorder(joints: list[Joint]):
    """A ``partition_fn`` that keeps a private copy of each joint graph, then partitions with
    ``default_partition`` (the fastest: the compiled result only has to run once)."""
    default_partition = _torch_compat.default_partition()

    def record(joint_module, joint_inputs, *, num_fwd_outputs, **kw):
        static = kw.pop("static_lifetime_input_indices", None)
        # Real constants must not become fake copies; the copy's pytree warning is torch's.
        with _torch_compat.no_fake_mode(), _torch_compat.quiet_copies():
            private = copy.deepcopy(joint_module)
        joints.append(Joint(private, joint_inputs, num_fwd_outputs,
                            list(static) if static is not None else None, kw))
        return default_partition(joint_module, joint_inputs, num_fwd_outputs=num_fwd_outputs,
                                 static_lifetime_input_indices=static)

    return record


def _boxed(gm, _example_inputs):
    from functorch.compile import make_boxed_func

    return make_boxed_func(gm)


def _trace_dynamo(fn_or_module, args, kwargs, record, dynamic: bool) -> tuple[int, list[str]]:
    """Run the call under torch.compile with a backend that counts Dynamo's graphs and hands
    each to AOTAutograd with ``record`` as its partitioner: (graphs, graph-break reasons)."""
    aot = _torch_compat.aot_autograd_backend(fw_compiler=_boxed, bw_compiler=_boxed,
                                             partition_fn=record)
    num_graphs = 0

    def backend(gm, example_inputs):
        nonlocal num_graphs
        num_graphs += 1
        return aot(gm, example_inputs)

    torch.compiler.reset()
    before = {name: _torch_compat.dynamo_counter(name) for name in _BREAK_COUNTERS}
    try:
        with _torch_compat.quiet_copies():
            torch.compile(fn_or_module, backend=backend, dynamic=dynamic)(*args, **kwargs)
        breaks = _new_reasons("graph_break", before)
        if num_graphs == 0 and not breaks:  # a skipped frame counts its reasons apart
            breaks = _new_reasons("unimplemented", before)
    except Exception:
        # Dynamo reports a model's own error (a shape mismatch met on fake tensors) wrapped
        # in its own; the eager call raises it as the user knows it. When eager succeeds,
        # the failure is Dynamo's and propagates as it came.
        torch.compiler.reset()
        try:
            fn_or_module(*args, **kwargs)
        except Exception as own:
            raise own from None
        raise
    finally:
        torch.compiler.reset()
    return num_graphs, breaks


_BREAK_COUNTERS = ("graph_break", "unimplemented")


def _new_reasons(name: str, before: dict) -> list[str]:
    """The first lines of the reasons Dynamo counted under ``name`` since ``before`` (its
    counters outlive ``torch.compiler.reset``), each once, in order."""
    seen = before[name]
    lines = [reason.strip().splitlines()[0] for reason, count
             in _torch_compat.dynamo_counter(name).items()
             if count > seen.get(reason, 0) and reason.strip()]
    return list(dict.fromkeys(lines))


def _trace_aot(fn_or_module, args, record) -> None:
    from functorch.compile import aot_function, aot_module, nop

    make = aot_module if isinstance(fn_or_module, torch.nn.Module) else aot_function
    with _torch_compat.quiet_copies():
        make(fn_or_module, fw_compiler=nop, bw_compiler=nop, partition_fn=record)(*args)


def _mark_parameters_static(joint: Joint, args: tuple) -> None:
    """``aot_module`` passes no static-lifetime indices: its leading primals are the module's
    parameters and buffers, the user's tensors follow."""
    if joint.static_lifetime_input_indices:
        return
    primals = [n for n in joint.joint_module.graph.find_nodes(op="placeholder")
               if n.name.startswith("primals_")]
    user = sum(isinstance(x, torch.Tensor) for x in _torch_compat.tree_leaves(list(args)))
    joint.static_lifetime_input_indices = list(range(max(0, len(primals) - user)))
