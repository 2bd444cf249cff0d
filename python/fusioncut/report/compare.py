"""PyTorch's partitioners on the same joint graph, at the same setting, value by value.

    torch min-cut       ``min_cut_rematerialization_partition`` under the configuration that
                        matches the ``Options``: ``activation_memory_budget`` = the memory
                        budget (1 without one; PyTorch has no byte or peak target),
                        ``aggressive_recomputation`` for mode="memory",
                        ``treat_parameters_as_free_to_save`` = static_inputs_free_to_save;
                        annotations are in the graph, so both read the same ones
    default_partition   no recomputation at all

Each runs on its own deep copy (torch's partitioners edit the joint graph). Its fate for
every joint node is read from the modules it produced: saved = the forward's outputs after
the forward's own, recomputed = a forward node that its backward computes.
"""

from __future__ import annotations

import copy
import time
from typing import Any

import torch.fx as fx

from fusioncut import _torch_compat
from fusioncut.graph import Role
from fusioncut.options import Options
from fusioncut.report.build import measure, saved_outputs
from fusioncut.report.model import Difference, Fate, MethodSummary, Report
from fusioncut.report.text import format_bytes

__all__ = ["NOT_USED", "compare_methods", "torch_extras", "torch_setting"]

NOT_USED = "not used"
"""The fate of a forward value a partition's backward neither reads nor recomputes."""

_MAX_DIFFERENCES = 200  # per graph; sorted by bytes, the largest first


def torch_setting(options: Options) -> tuple[dict, str]:
    """The ``torch._functorch.config`` patch that puts PyTorch's min-cut partitioner at the
    setting of ``options``, and its description."""
    budget = options.memory_budget if options.memory_budget is not None else 1.0
    patch = {"activation_memory_budget": float(budget),
             "aggressive_recomputation": options.mode == "memory",
             "treat_parameters_as_free_to_save": options.static_inputs_free_to_save}
    text = f"activation_memory_budget={budget:g}"
    if options.memory_budget_bytes is not None or options.peak_memory_bytes is not None:
        text += " (PyTorch has no byte or peak target)"
    return patch, ", ".join([text] + torch_extras(options))


def torch_extras(options: Options) -> list[str]:
    """What PyTorch's configuration says besides the budget, where it is not its default."""
    out = []
    if options.mode == "memory":
        out.append("aggressive_recomputation=True")
    if not options.static_inputs_free_to_save:
        out.append("treat_parameters_as_free_to_save=False")
    return out


def compare_methods(report: Report, joint_module: fx.GraphModule, joint_inputs: Any,
                    num_fwd_outputs: int, static: list[int] | None, options: Options) -> None:
    """Run PyTorch's partitioners on copies of ``joint_module`` and add their totals to
    ``report`` (one graph, fusioncut's), with PyTorch's fate per value and the differences."""
    graph_summary = report.graphs[0]
    decision = graph_summary.decision
    patch, setting = torch_setting(options)
    runs = (("torch min-cut", _torch_compat.min_cut_rematerialization_partition(), patch,
             setting), ("default_partition", _torch_compat.default_partition(), {}, ""))
    for name, fn, config, text in runs:
        summary, modules = _run(name, fn, config, joint_module, joint_inputs, num_fwd_outputs,
                                static, decision)
        summary.setting = text
        graph_summary.methods.append(summary)
        report.methods.append(copy.copy(summary))
        if name == "torch min-cut" and modules is not None:
            _per_value(report, decision, *modules)


def _run(name, fn, config, joint_module, joint_inputs, num_fwd_outputs, static, decision):
    with _torch_compat.quiet_copies():
        jm = copy.deepcopy(joint_module)  # torch's partitioners mutate the joint graph
        t0 = time.perf_counter()
        try:
            with _torch_compat.functorch_config().patch(**config):
                fw, bw = fn(jm, joint_inputs, num_fwd_outputs=num_fwd_outputs,
                            static_lifetime_input_indices=static)
        except Exception as e:  # a peer failing is a result to report, not a reason to stop
            return MethodSummary(method=name, time_s=None, error=(
                f"{type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}")), None
    elapsed = time.perf_counter() - t0
    return measure(name, fw, decision.graph, decision.costs, decision.static_inputs,
                   elapsed), (fw, bw)


def fates(graph, fw: fx.GraphModule, bw: fx.GraphModule) -> dict[str, str]:
    """Joint node name -> ``saved`` / ``recomputed`` for one partition's modules."""
    out = {nd.name: Fate.SAVED.value for nd in saved_outputs(fw, graph.num_fwd_outputs)}
    forward = {graph.nodes[i].name for i in range(graph.num_nodes)
               if graph.role[i] == Role.FORWARD}
    for nd in bw.graph.nodes:
        if nd.op == "call_function" and nd.name in forward and nd.name not in out:
            out[nd.name] = Fate.RECOMPUTED.value
    return out


def sources(bw: fx.GraphModule, name: str, limit: int = 3) -> list[str]:
    """The backward module's inputs (saved values) that node ``name`` is computed from."""
    nodes = {nd.name: nd for nd in bw.graph.nodes}
    start = nodes.get(name)
    if start is None:
        return []
    found: list[str] = []
    stack, seen = [start], {start}
    while stack:
        nd = stack.pop()
        for a in nd.all_input_nodes:
            if a in seen:
                continue
            seen.add(a)
            if a.op == "placeholder":
                found.append(a.name)
            else:
                stack.append(a)
    # Activations first: parameters and tangents are there in any partition.
    found.sort(key=lambda name: name.startswith(("primals_", "tangents_")))
    return found[:limit]


def _per_value(report: Report, decision, torch_fw, torch_bw) -> None:
    graph = decision.graph
    summary = report.graphs[0]
    ours = fates(graph, summary.fw_module, summary.bw_module)
    theirs = fates(graph, torch_fw, torch_bw)
    for v in report.values:
        v.torch = theirs.get(v.name, NOT_USED)
    index = {nd.name: i for i, nd in enumerate(graph.nodes)}
    diffs: list[Difference] = []
    for name in sorted(set(ours) | set(theirs)):
        mine, peer = ours.get(name, NOT_USED), theirs.get(name, NOT_USED)
        i = index.get(name)
        if mine == peer or Fate.SAVED.value not in (mine, peer) or i is None \
                or graph.role[graph.base[i]] <= Role.CONSTANT \
                or decision.static_inputs[graph.base[i]] or int(graph.nbytes[i]) == 0 \
                or graph.base[i] != i:
            continue  # the same fate; a consequence of a saved value's difference; inputs,
            # parameters, SymInts and views (their base is compared)
        diffs.append(Difference(
            name=name, op=graph.op_name(i), nbytes=int(graph.nbytes[i]), fusioncut=mine,
            torch=peer, text=_text(name, int(graph.nbytes[i]), mine, peer,
                                   summary.bw_module, torch_bw)))
    diffs.sort(key=lambda d: (-d.nbytes, d.name))
    report.differences = diffs[:_MAX_DIFFERENCES]


def _text(name: str, nbytes: int, mine: str, peer: str, our_bw, their_bw) -> str:
    def clause(who: str, fate: str, bw) -> str:
        if fate == Fate.SAVED.value:
            return f"{who} saves {name} ({format_bytes(nbytes)})"
        if fate == Fate.RECOMPUTED.value:
            src = sources(bw, name)
            return f"{who} recomputes it" + (f" from {', '.join(src)}" if src else "")
        return f"{who} neither saves nor recomputes it"

    first, second = (("PyTorch", peer, their_bw), ("fusioncut", mine, our_bw)) \
        if peer == Fate.SAVED.value else (("fusioncut", mine, our_bw), ("PyTorch", peer, their_bw))
    head = clause(*first)
    if first[1] != Fate.SAVED.value:  # neither saves it: name it in the first clause
        head = head.replace(" it", f" {name}", 1)
    return f"{head}; {clause(*second)}"
