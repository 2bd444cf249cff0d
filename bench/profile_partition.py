"""Where fusioncut's partition time goes on a deep GPT joint graph, next to torch's.

    python bench/profile_partition.py [--layers 48] [--repeat 3] [--torch]

Times, median wall and process-CPU milliseconds (the development machine is shared: CPU time
is the steadier number), on the zoo's GPT (``fusioncut.models``, d_model 32, 2 heads):
the phases of ``decide`` (arrays, policy, cost model, solve), ``fusioncut.partition`` end to
end, and emission alone: ``build_modules`` against ``build_modules_reference`` (torch's
extraction and post-processing) on the same saved set, asserting the two agree node for
node. ``--torch`` adds torch's ``min_cut_rematerialization_partition`` (seconds per call).
Not a test; bench_partition.py is the benchmark of record.
"""

from __future__ import annotations

import argparse
import copy
import statistics
import time
import warnings

import torch

import fusioncut
from fusioncut import emit
from fusioncut.cost import cost_model
from fusioncut.graph import JointGraph
from fusioncut.models import GPT, GPTConfig, gpt_inputs
from fusioncut.options import Options
from fusioncut.policy import analyze
from fusioncut.report import capture


def timed(fn, make_args, repeat: int) -> tuple[float, float, object]:
    """(median wall ms, median CPU ms, last result)."""
    wall, cpu, result = [], [], None
    for _ in range(repeat):
        args = make_args()
        t, c = time.perf_counter(), time.process_time()
        result = fn(*args)
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return 1e3 * statistics.median(wall), 1e3 * statistics.median(cpu), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, default=48)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--torch", action="store_true",
                        help="also time torch's min_cut_rematerialization_partition")
    args = parser.parse_args()
    warnings.filterwarnings("ignore", category=FutureWarning)
    cfg = GPTConfig(vocab=64, block_size=16, d_model=32, n_head=2, n_layer=args.layers)
    torch.manual_seed(0)
    cap = capture(GPT(cfg), *gpt_inputs(cfg), via="aot")
    gm, n = cap.joint_module, cap.num_fwd_outputs
    static = cap.static_lifetime_input_indices
    opts = Options()
    graph = JointGraph.from_fx(gm, n)
    policy = analyze(graph, opts)
    none = tuple
    rows = [
        ("JointGraph.from_fx", lambda: JointGraph.from_fx(gm, n), none),
        ("policy.analyze", lambda: analyze(graph, opts), none),
        ("cost.cost_model + weights",
         lambda: cost_model(graph, policy, opts).weights(graph.nbytes), none),
        ("decide (analysis + solve)",
         lambda: fusioncut.decide(gm, num_fwd_outputs=n, static_lifetime_input_indices=static),
         none),
        ("fusioncut.partition (decide + emit)",
         lambda jm: fusioncut.partition(jm, None, num_fwd_outputs=n,
                                        static_lifetime_input_indices=static),
         lambda: (copy.deepcopy(gm),)),
    ]
    decision = fusioncut.decide(gm, num_fwd_outputs=n, static_lifetime_input_indices=static)
    saved, syms = decision.saved_values, decision.saved_sym_nodes
    rows += [
        ("emit: build_modules",
         lambda: emit.build_modules(gm, saved, syms, num_fwd_outputs=n), none),
        ("emit: build_modules_reference (torch's extraction)",
         lambda: emit.build_modules_reference(gm, saved, syms, num_fwd_outputs=n), none),
    ]
    if args.torch:
        partition = fusioncut._torch_compat.min_cut_rematerialization_partition()
        rows.append(("torch min_cut_rematerialization_partition",
                     lambda jm: partition(jm, None, num_fwd_outputs=n,
                                          static_lifetime_input_indices=static),
                     lambda: (copy.deepcopy(gm),)))
    print(f"GPT {args.layers} layers: {len(gm.graph.nodes)} joint-graph nodes, "
          f"{len(saved)} saved tensors (median of {args.repeat})")
    modules = {}
    for name, fn, make_args in rows:
        wall, cpu, result = timed(fn, make_args, args.repeat)
        modules[name] = result
        print(f"  {name:55s} wall {wall:9.1f} ms   cpu {cpu:9.1f} ms")
    f1, b1 = modules["emit: build_modules"]
    f2, b2 = modules["emit: build_modules_reference (torch's extraction)"]
    assert [x.name for x in f1.graph.nodes] == [x.name for x in f2.graph.nodes]
    assert [x.name for x in b1.graph.nodes] == [x.name for x in b2.graph.nodes]


if __name__ == "__main__":
    main()
