"""The chosen saved values to host memory, through PyTorch's own activation-offloading pass.

``offload_saved`` marks the forward outputs of the values a decision offloads
(``Decision.offloaded``) with ``meta["should_offload"]`` and calls torch's
``enable_activation_offloading`` (``_torch_offload.activation_offloading_pass``), so the graphs
hold what Inductor already compiles::

    forward   x = ...; (last use of x); cpu_offload_x = device_put(x, cpu)  -> saved output
    backward  gpu_reload_x = device_put(cpu_offload_x, x's device)            before first use

With ``activation_offload_separate_stream`` the copies are ``ao.offload`` / ``ao.reload`` and
``ao.wait_tensor`` on a side stream, with torch's ``sink_wait`` and ``prefetch`` reorders when
its config asks: torch's pass reads those settings itself. Without ``sink_wait`` torch waits
for each copy right after issuing it, which stalls the forward for the whole transfer;
``pace_waits`` moves each wait to the node the plan names (``Decision.offload_waits``: where
the link has finished that copy), so the copy runs under the compute in between and the device
copy is freed there, not at the forward's end. Only our marks count: marks the
output nodes inherited from the joint graph's metadata are dropped first. Every marked value
must come out offloaded (torch's ``can_offload`` is looser than ``offload.py``), or
``EmitError``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import torch
import torch.fx as fx

from fusioncut import _torch_compat as tc
from fusioncut import _torch_offload
from fusioncut.emit.walks import gc_paused

__all__ = ["offload_saved", "pace_waits", "side_stream_problem"]

_MARK = "should_offload"


def offload_saved(fw_module: fx.GraphModule, bw_module: fx.GraphModule,
                  offloaded: Sequence[fx.Node], *, num_fwd_outputs: int,
                  error: type[Exception] = ValueError,
                  waits: Mapping[str, str | None] | None = None) -> None:
    """Offload the saved values named like the joint-graph nodes ``offloaded`` (edits both
    modules in place). A value the backward does not read is not a saved output and is
    skipped. ``waits``: per offloaded value's name, the node before which the forward waits for
    its copy on a side stream (None: the forward's end; ``pace_waits``). Raises ``error`` when
    torch's pass would emit something that cannot run or refuses a value."""
    if not offloaded:
        return  # marks inherited from the joint graph are inert: torch's pass does not run
    names = {node.name for node in offloaded}
    output = fw_module.graph.find_nodes(op="output")[0]
    saved = [x for x in tc.arg_tree_leaves(*output.args)[num_fwd_outputs:]
             if isinstance(x, fx.Node)]
    for node in saved:
        node.meta.pop(_MARK, None)  # node.meta is this graph's copy: the joint graph keeps it
    marked = [node for node in saved if node.name in names]
    if not marked:
        return
    problem = side_stream_problem(marked)
    if problem is not None:
        raise error(f"build_modules: {problem}")
    for node in marked:
        node.meta[_MARK] = True
    # gc paused as for emission: collections would traverse torch's whole heap
    with gc_paused(), _torch_offload.offload_config_as_planned():
        _torch_offload.activation_offloading_pass()(fw_module, bw_module, num_fwd_outputs,
                                                    tc.ordered_set([]))
    if waits:  # a no-op without side-stream waits, or with torch's already at the end
        pace_waits(fw_module, waits)
    fw_module.recompile()  # code generated before the pass (if any) is stale
    bw_module.recompile()
    refused = [node.name for node in marked if not node.meta.get("saved_for_offloading")]
    if refused:
        raise error(f"build_modules: torch's activation offloading refused {refused}; "
                    "fusioncut.offload allowed them (a torch whose can_offload is stricter)")


def side_stream_problem(offloaded: Sequence[fx.Node]) -> str | None:
    """Why torch's pass cannot offload ``offloaded`` under the current settings, or None:
    ``activation_offload_separate_stream`` emits ``ao.offload``, which needs an accelerator,
    so values on the CPU cannot go that way."""
    if not offloaded or not _torch_offload.offload_settings().separate_stream:
        return None
    on_host = [node.name for node in offloaded
               if isinstance(node.meta.get("val"), torch.Tensor)
               and node.meta["val"].device.type == "cpu"]
    if not on_host:
        return None
    more = f" and {len(on_host) - 8} more" if len(on_host) > 8 else ""
    return ("torch._functorch.config.activation_offload_separate_stream needs an accelerator, "
            f"but the value(s) {on_host[:8]}{more} to offload live on the cpu (torch's "
            "ao.offload fails there at run time); turn the setting off or use "
            "Options(offload='never')")


def pace_waits(fw_module: fx.GraphModule, waits: Mapping[str, str | None]) -> int:
    """Move the wait of each side-stream copy to the host of a value named in ``waits`` to just
    before the node named there (None, or a node not after the wait: the forward's end when
    None, else where torch put it). Only ever later: the wait's inputs stay before it and its
    one user, the graph's output, after it. Edits ``fw_module.graph``; the caller recompiles
    the module. Returns how many waits moved."""
    ops = _torch_offload.side_stream_offload_ops()
    if ops is None or not waits:
        return 0
    copy_op, wait_op = ops
    graph = fw_module.graph
    output = graph.find_nodes(op="output")[0]
    position = {node: i for i, node in enumerate(graph.nodes)}
    by_name = {node.name: node for node in graph.nodes}
    moved = 0
    for wait in list(graph.find_nodes(op="call_function", target=wait_op)):
        copy = wait.args[0]
        if not (isinstance(copy, fx.Node) and copy.target is copy_op
                and isinstance(copy.args[0], fx.Node) and copy.args[0].name in waits):
            continue
        name = waits[copy.args[0].name]
        target = output if name is None else by_name.get(name)
        if target is None or position[target] <= position[wait]:
            continue
        target.prepend(wait)
        moved += 1
    return moved
