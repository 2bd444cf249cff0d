"""A ``Schedule`` by node position, replayed on a structurally identical joint graph.

``fusioncut.regions`` partitions one ``invoke_subgraph`` region and reuses the decision for
every identical region. Reusing only the saved set would still redo the emission walks
(validity, liveness, autograd-engine order) for each region, although their answer is the
same list of positions every time. A ``Template`` records those positions once::

    fw: inputs, body order, saved outputs (tensors with a version check, without, SymInts)
    bw: inputs (saved SymInts, saved tensors, tangents, seeds), body order
        + the random ops both graphs compute (for RNG functionalization)
        + the saved values offloaded to host memory and where the forward waits for each
          copy (``emit.offload``)

``replay`` copies the other graph's nodes in that order: node metadata, names, forward and
backward outputs and their descriptors all come from the graph being partitioned. The caller
guarantees the two graphs are structurally identical (``regions`` keys them by structure).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import torch.fx as fx

from fusioncut.emit.modules import EmitError, Schedule, _outputs_and_descs, postprocess
from fusioncut.emit.offload import offload_saved
from fusioncut.emit.walks import emit_graph, gc_paused, make_module

__all__ = ["Template"]


@dataclass(frozen=True)
class Template:
    """Positions in ``list(joint_module.graph.nodes)`` (see the module docstring)."""

    num_fwd_outputs: int
    fw_inputs: tuple[int, ...]
    fw_order: tuple[int, ...]
    saved: tuple[int, ...]  # forward outputs after the joint's own: tensors, then SymInts
    saved_descs: tuple[Any, ...]
    num_saved_sym_nodes: int
    bw_inputs: tuple[int, ...]
    bw_order: tuple[int, ...]
    rng_twice: tuple[int, ...]
    offloaded: tuple[int, ...] = ()
    waits: tuple[tuple[int, int], ...] = ()  # (offloaded, node its wait precedes or -1: end)

    @classmethod
    def from_schedule(cls, sched: Schedule, num_fwd_outputs: int,
                      offloaded: Sequence[fx.Node] = (),
                      waits: Mapping[str, str | None] | None = None) -> Template:
        index = sched.index
        named = {node.name: i for node, i in index.items()} if waits else {}
        saved = (*sched.saved_values, *sched.saved_sym_nodes)
        return cls(
            num_fwd_outputs=num_fwd_outputs,
            fw_inputs=tuple(index[x] for x in sched.fw_inputs),
            fw_order=tuple(sched.fw_order),
            saved=tuple(index[x] for x in saved),
            saved_descs=tuple(sched.fw_descs[num_fwd_outputs:]),
            num_saved_sym_nodes=len(sched.saved_sym_nodes),
            bw_inputs=tuple(index[x] for x in sched.bw_inputs),
            bw_order=tuple(sched.bw_order),
            rng_twice=tuple(index[x] for x in sched.rng_twice),
            offloaded=tuple(index[x] for x in offloaded),
            waits=tuple((named[value], -1 if at is None else named[at])
                        for value, at in (waits or {}).items()
                        if value in named and (at is None or at in named)),
        )

    def replay(self, joint_module: fx.GraphModule, nodes: list[fx.Node]
               ) -> tuple[fx.GraphModule, fx.GraphModule]:
        """The forward and backward modules of ``joint_module`` (whose nodes, in graph order,
        are ``nodes``) under this schedule."""
        fwd_outputs, bwd_outputs, fwd_descs, bwd_descs = _outputs_and_descs(
            joint_module, self.num_fwd_outputs)
        with gc_paused():
            fw_graph = emit_graph(
                nodes, {}, [nodes[i] for i in self.fw_inputs], list(self.fw_order),
                [*fwd_outputs, *(nodes[i] for i in self.saved)],
                [*fwd_descs, *self.saved_descs], backward=False)
            bw_graph = emit_graph(
                nodes, {}, [nodes[i] for i in self.bw_inputs], list(self.bw_order),
                bwd_outputs, bwd_descs, backward=True)
            fw_module = make_module(joint_module, fw_graph)
            bw_module = make_module(joint_module, bw_graph)
        fw_module, bw_module = postprocess(joint_module, fw_module, bw_module,
                                           self.num_saved_sym_nodes,
                                           [nodes[i] for i in self.rng_twice])
        waits = {nodes[v].name: None if at < 0 else nodes[at].name for v, at in self.waits}
        offload_saved(fw_module, bw_module, [nodes[i] for i in self.offloaded],
                      num_fwd_outputs=self.num_fwd_outputs, error=EmitError, waits=waits)
        return fw_module, bw_module
