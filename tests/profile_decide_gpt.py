"""Time fusioncut's decision (analysis + solve) and its end-to-end partition against torch's
on the 48-layer GPT joint graph. Not a test; run ``python tests/profile_decide_gpt.py``.

Reports wall and process CPU time (the development machine is shared: CPU time is the
stabler number). Usage: ``python tests/profile_decide_gpt.py [layers] [--e2e]``.
"""

from __future__ import annotations

import copy
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402

import fusioncut  # noqa: E402
import models  # noqa: E402
from fusioncut import cost  # noqa: E402
from fusioncut.graph import JointGraph  # noqa: E402
from fusioncut.options import Options  # noqa: E402
from fusioncut.policy import analyze  # noqa: E402


def timed(fn, reps):
    wall, cpu = [], []
    for _ in range(reps):
        t, c = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    med = reps // 2
    return 1e3 * sorted(wall)[med], 1e3 * sorted(cpu)[med]


def main() -> None:
    layers = int(next((a for a in sys.argv[1:] if a.isdigit()), 48))
    cfg = models.GPTConfig(vocab=64, block_size=16, d_model=32, n_head=2, n_layer=layers)
    torch.manual_seed(0)
    cap = models.capture_joint(None, *models.gpt_inputs(cfg), module=models.GPT(cfg))
    gm, n = cap.joint_module, cap.num_fwd_outputs
    static = cap.static_lifetime_input_indices
    print(f"GPT {layers} layers: {len(gm.graph.nodes)} joint-graph nodes (median of runs)")
    opts = Options()
    graph = JointGraph.from_fx(gm, n)
    policy = analyze(graph, opts)
    rows = [
        ("JointGraph.from_fx", lambda: JointGraph.from_fx(gm, n), 9),
        ("policy.analyze", lambda: analyze(graph, opts), 9),
        ("cost.weights", lambda: cost.weights(graph, policy, opts), 9),
        ("decide (analysis + solve)",
         lambda: fusioncut.decide(gm, num_fwd_outputs=n, static_lifetime_input_indices=static),
         9),
    ]
    if "--e2e" in sys.argv:
        from functorch.compile import min_cut_rematerialization_partition

        def end_to_end(part, reps):
            copies = [copy.deepcopy(gm) for _ in range(reps)]  # partitioners may edit theirs
            return lambda: part(copies.pop(), None, num_fwd_outputs=n,
                                static_lifetime_input_indices=static)

        rows.append(("fusioncut.partition", end_to_end(fusioncut.partition, 3), 3))
        rows.append(("torch min_cut_rematerialization_partition",
                     end_to_end(min_cut_rematerialization_partition, 1), 1))
    for name, fn, reps in rows:
        wall, cpu = timed(fn, reps)
        print(f"  {name:60s} wall {wall:8.1f} ms   cpu {cpu:8.1f} ms")


if __name__ == "__main__":
    main()
