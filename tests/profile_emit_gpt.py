"""Profile: torch's full partitioner vs fusioncut on a 48-layer GPT joint graph (~7.5k nodes).

    python tests/profile_emit_gpt.py [--layers 48] [--repeat 3]

Prints a table and JSON: median seconds of torch's ``min_cut_rematerialization_partition``,
``fusioncut.partition`` end to end, and emission alone (``build_modules`` fast path vs
``build_modules_reference`` = torch's extraction + post-processing) on the same saved set.
Asserts that the fast and reference emissions agree (placeholders, outputs, node order).
"""

from __future__ import annotations

import argparse
import copy
import json
import statistics
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
warnings.filterwarnings("ignore", category=FutureWarning)

import torch  # noqa: E402
from torch._functorch.partitioners import min_cut_rematerialization_partition  # noqa: E402

import fusioncut  # noqa: E402
from fusioncut import emit  # noqa: E402
from models import GPT, GPTConfig, capture_joint, gpt_inputs  # noqa: E402
from _partitioners import split_saved  # noqa: E402


CPU = {}


def _median_time(fn, make_args, repeat):
    """Median wall seconds; the median CPU seconds of the process go to ``CPU[fn]`` (the
    machine may be shared: CPU time is the steadier number)."""
    times, cpu, result = [], [], None
    for _ in range(repeat):
        args = make_args()
        t0, c0 = time.perf_counter(), time.process_time()
        result = fn(*args)
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    _median_time.last_cpu = statistics.median(cpu)
    return statistics.median(times), result


def _saved_of(fw, num_fwd_outputs, joint):
    by_name = {n.name: n for n in joint.graph.nodes}
    outs = list(fw.graph.find_nodes(op="output")[0].args[0])[num_fwd_outputs:]
    return split_saved([by_name[o.name] for o in outs if o.name in by_name])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--layers", type=int, default=48)
    parser.add_argument("--repeat", type=int, default=3)
    a = parser.parse_args()
    cfg = GPTConfig(vocab=64, block_size=16, d_model=64, n_head=4, n_layer=a.layers)
    torch.manual_seed(0)
    cap = capture_joint(None, *gpt_inputs(cfg), module=GPT(cfg))
    n = cap.num_fwd_outputs
    nodes = len(cap.joint_module.graph.nodes)

    def fresh():
        return (copy.deepcopy(cap.joint_module),)

    t_torch, (fw_t, _) = _median_time(
        lambda jm: min_cut_rematerialization_partition(jm, cap.joint_inputs, num_fwd_outputs=n),
        fresh, a.repeat)
    c_torch = _median_time.last_cpu
    t_fc, (fw_f, _) = _median_time(
        lambda jm: fusioncut.partition(jm, cap.joint_inputs, num_fwd_outputs=n), fresh, a.repeat)
    c_fc = _median_time.last_cpu

    # Emission alone, on fusioncut's saved set, on one prepared joint graph.
    from _partitioners import prepare_joint

    joint = prepare_joint(copy.deepcopy(cap.joint_module))
    saved, syms = _saved_of(fw_f, n, joint)
    t_fast, (f1, b1) = _median_time(
        lambda: emit.build_modules(joint, list(saved), list(syms), num_fwd_outputs=n),
        lambda: (), a.repeat)
    c_fast = _median_time.last_cpu
    t_ref, (f2, b2) = _median_time(
        lambda: emit.build_modules_reference(joint, list(saved), list(syms), num_fwd_outputs=n),
        lambda: (), a.repeat)
    c_ref = _median_time.last_cpu
    assert [x.name for x in f1.graph.nodes] == [x.name for x in f2.graph.nodes]
    assert [x.name for x in b1.graph.nodes] == [x.name for x in b2.graph.nodes]

    result = {
        "layers": a.layers, "joint_nodes": nodes, "saved_tensors": len(saved),
        "torch_min_cut_partition_s": t_torch, "fusioncut_partition_s": t_fc,
        "emit_fast_s": t_fast, "emit_reference_s": t_ref,
        "speedup_partition": t_torch / t_fc, "speedup_emit": t_ref / t_fast,
        "cpu_s": {"torch_min_cut_partition": c_torch, "fusioncut_partition": c_fc,
                  "emit_fast": c_fast, "emit_reference": c_ref},
    }
    print(f"{a.layers}-layer GPT joint graph: {nodes} nodes, {len(saved)} saved tensors "
          f"(median of {a.repeat})")
    print("                                              wall s    cpu s   (speedup, cpu)")
    print(f"  torch min_cut_rematerialization_partition  {t_torch:8.3f} {c_torch:8.3f}")
    print(f"  fusioncut.partition                        {t_fc:8.3f} {c_fc:8.3f}   "
          f"({c_torch / c_fc:.1f}x)")
    print(f"  emission, torch extraction + post-passes   {t_ref:8.3f} {c_ref:8.3f}")
    print(f"  emission, fusioncut build_modules          {t_fast:8.3f} {c_fast:8.3f}   "
          f"({c_ref / c_fast:.1f}x)")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
