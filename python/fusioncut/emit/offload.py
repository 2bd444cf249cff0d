"""The chosen saved values to host memory, through PyTorch's own activation-offloading pass.

``offload_saved`` marks the forward outputs of the values a decision offloads
(``Decision.offloaded``) with ``meta["should_offload"]`` and calls torch's
``enable_activation_offloading`` (``_torch_compat.activation_offloading_pass``), so the graphs
hold what Inductor already compiles::

    forward   x = ...; (last use of x); cpu_offload_x = device_put(x, cpu)  -> saved output
    backward  gpu_reload_x = device_put(cpu_offload_x, x's device)            before first use

With ``activation_offload_separate_stream`` the copies are ``ao.offload`` / ``ao.reload`` and
``ao.wait_tensor`` on a side stream, with torch's ``sink_wait`` and ``prefetch`` reorders when
its config asks: torch's pass reads those settings itself. Only our marks count: marks the
output nodes inherited from the joint graph's metadata are dropped first. Every marked value
must come out offloaded (torch's ``can_offload`` is looser than ``offload.py``), or
``EmitError``.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
import torch.fx as fx

from fusioncut import _torch_compat as tc
from fusioncut.emit.walks import gc_paused

__all__ = ["offload_saved", "side_stream_problem"]

_MARK = "should_offload"


def offload_saved(fw_module: fx.GraphModule, bw_module: fx.GraphModule,
                  offloaded: Sequence[fx.Node], *, num_fwd_outputs: int,
                  error: type[Exception] = ValueError) -> None:
    """Offload the saved values named like the joint-graph nodes ``offloaded`` (edits both
    modules in place). A value the backward does not read is not a saved output and is
    skipped. Raises ``error`` when torch's pass would emit something that cannot run or
    refuses a value."""
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
    with gc_paused():  # as for emission: collections would traverse torch's whole heap
        tc.activation_offloading_pass()(fw_module, bw_module, num_fwd_outputs,
                                        tc.ordered_set([]))
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
    if not offloaded or not tc.offload_settings().separate_stream:
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
