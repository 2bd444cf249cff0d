"""Partition functions the emission and integration tests run AOTAutograd with.

Until the decision layer (``fusioncut.partition``) exists, emission is exercised with saved sets
chosen by simple rules:

- ``torch_choice``: the saved set torch's ``min_cut_rematerialization_partition`` chooses (run
  on a copy), emitted by ``fusioncut.build_modules``;
- ``save_all``: every forward value the backward reads is saved, nothing is recomputed.
"""

from __future__ import annotations

import copy
import operator

import torch.fx as fx
from torch._functorch.partitioners import classify_nodes, min_cut_rematerialization_partition
from torch.fx.experimental.proxy_tensor import is_sym_node

from fusioncut import emit


def prepare_joint(joint_module):
    """What torch's min-cut partitioner does to the joint graph first: DCE, then CSE."""
    from torch._functorch.compile_utils import fx_graph_cse

    joint_module.graph.eliminate_dead_code()
    joint_module.graph = fx_graph_cse(joint_module.graph)
    return joint_module


def torch_saved_names(joint_module, joint_inputs, num_fwd_outputs, static=None):
    jm = copy.deepcopy(joint_module)
    fw, _ = min_cut_rematerialization_partition(
        jm, joint_inputs, num_fwd_outputs=num_fwd_outputs, static_lifetime_input_indices=static
    )
    outs = list(fw.graph.find_nodes(op="output")[0].args[0])[num_fwd_outputs:]
    return [o.name for o in outs if isinstance(o, fx.Node)]


def split_saved(nodes):
    return [n for n in nodes if not is_sym_node(n)], [n for n in nodes if is_sym_node(n)]


def torch_choice_saved(joint_module, joint_inputs, num_fwd_outputs, static=None):
    by_name = {n.name: n for n in joint_module.graph.nodes}
    names = torch_saved_names(joint_module, joint_inputs, num_fwd_outputs, static)
    # Names torch made up (RNG states of functionalized random ops) are not joint nodes.
    return split_saved([by_name[x] for x in names if x in by_name])


def save_all_saved(joint_module, joint_inputs, num_fwd_outputs, static=None):
    """Save every forward-computable value a backward node reads: nothing is recomputed.

    Forward-computable: does not depend on a tangent. A tuple-valued node is never saved; its
    getitems are (as torch's default_partition does).
    """
    info = classify_nodes(joint_module, list(static or ()), num_fwd_outputs)
    backward = info.tangents_closure | info.required_bw_nodes
    saved = []
    for node in joint_module.graph.nodes:
        if node.op == "output" or node in backward or node.name.startswith("tangents"):
            continue
        users = [u for u in node.users if u.op != "output"]
        if users and all(u.target is operator.getitem for u in users):
            continue
        if any(u in backward for u in users):
            saved.append(node)
    return split_saved(saved)


RULES = {"torch_choice": torch_choice_saved, "save_all": save_all_saved}


def make_partition_fn(rule: str, fast: bool = True):
    choose = RULES[rule]
    build = emit.build_modules if fast else emit.build_modules_reference

    def partition_fn(joint_module, joint_inputs, *, num_fwd_outputs, **kwargs):
        static = kwargs.get("static_lifetime_input_indices")
        joint_module = prepare_joint(joint_module)
        saved, syms = choose(joint_module, joint_inputs, num_fwd_outputs, static)
        return build(
            joint_module, saved, syms, num_fwd_outputs=num_fwd_outputs,
            static_lifetime_input_indices=static,
        )

    partition_fn.__name__ = f"emit_{rule}"
    return partition_fn
