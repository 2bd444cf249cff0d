"""A diagnostic: does the three-way frontier miss plans that peak lower within a step limit?

    python bench/offload_greedy.py MODEL OFFLOAD_HIDDEN SLACK      (e.g. llama2k 1.0 0.05)

On the ``"h100"`` preset with ``offload_hidden`` replaced, stream emission (torch's side stream
and prefetch), one of ``bench_budget``'s models: the frontier's least estimated peak among its
plans whose estimated step is at most ``1 + SLACK`` times the runtime plan's, then the least
peak reached by offloading greedily on top of each of those plans (each round, the
offloadable saved value whose offload lowers the peak most while the step stays within the
limit). The sweep weighs the bytes a plan holds between the phases; this weighs the peak.
docs/budget.md, "A link that hides more", gives what it found. ``fusioncut.budget_polish`` is
the bounded form of this search that ``peak_memory_bytes`` runs (docs/budget.md,
"Peak-directed offloading").
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_budget import build  # noqa: E402
from budget_offload import DEVICE, _kwargs, _least, base_seconds  # noqa: E402

import fusioncut  # noqa: E402
from fusioncut import _torch_compat  # noqa: E402
from fusioncut.options import Options  # noqa: E402
from fusioncut.report import capture  # noqa: E402

MIB = 2 ** 20


def greedy(front, step, limit):
    """The plan of least peak reached by offloading greedily on top of each frontier plan
    within ``limit`` seconds of step."""
    evaluate = front.generator.evaluate
    offloadable = set(front.generator.bnet.offload.nodes.tolist())
    best = None
    for start in (p for p in front.points if step(p) <= limit):
        saved, moved, cur = start.saved, set(start.offloaded.tolist()), start
        candidates = [v for v in saved.tolist() if v in offloadable]
        while True:
            pick = None
            for v in candidates:
                if v in moved:
                    continue
                q = evaluate.point(saved, None, np.array(sorted(moved | {v}), dtype=np.int64))
                if step(q) <= limit and q.peak.peak < (pick or (0, cur))[1].peak.peak:
                    pick = (v, q)
            if pick is None:
                break
            moved.add(pick[0])
            cur = pick[1]
        if best is None or cur.peak.peak < best.peak.peak:
            best = cur
    return best


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", help="one of bench_budget's models (llama2k, gpt48, resnet)")
    parser.add_argument("offload_hidden", type=float)
    parser.add_argument("slack", type=float, help="step limit over the runtime plan's (0.05)")
    args = parser.parse_args(argv)
    warnings.filterwarnings("ignore")
    module, inputs = build(args.model, False)
    cap = capture(module, *inputs, via="aot")
    dev = dataclasses.replace(DEVICE, offload_hidden=args.offload_hidden)
    with _torch_compat.functorch_config().patch(activation_offload_separate_stream=True,
                                                activation_reload_prefetch=True):
        front = fusioncut.pareto(cap.joint_module, **_kwargs(cap),
                                 options=Options(device=dev, offload="auto"))
        base = base_seconds(front.graph, dev)

        def step(p) -> float:
            return base + p.step_seconds(dev)

        runtime = step(front.runtime)
        limit = runtime * (1 + args.slack)
        plain = _least(front.points, step, limit)
        found = greedy(front, step, limit)
    for label, p in (("frontier", plain), ("greedy by the peak", found)):
        print(f"{args.model} offload_hidden {args.offload_hidden:g}, step <= "
              f"+{args.slack:.0%}: {label}: {p.peak.peak / MIB:.2f} MiB (offloads "
              f"{p.offloaded_bytes / MIB:.1f} MiB, step {step(p) / runtime - 1:+.1%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
