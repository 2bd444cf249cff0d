"""The budget frontier against the exact optimum of the same problem.

    python bench/bench_exact.py [--models lstm8 gpt-demo ...] [--devices h100 cpu]
                                [--json PATH] [--run-check]

For each zoo model (small sizes: the program has one boolean per vertex of the split network)
and each pricing (``Options(device=...)``), the budgets ``B`` are every distinct saved-bytes
level of the frontier's plans, the midpoints between neighbouring levels and 21 evenly spaced
bytes from the least plan to the runtime plan. At each ``B`` the exact plan (``exact_budget``:
least recompute seconds at saved bytes <= B, HiGHS) is compared with

    in reach   the frontier's plan for B (``Frontier.best_within``: the least recompute among
               the plans in reach saving at most B bytes)
    chosen     the plan ``memory_budget_bytes = B`` picks (``Frontier.for_bytes``: since issue
               19 the plan in reach itself; budgets no plan fits are left out of its figures)

gap = (recompute seconds of the plan - exact) / exact, both scored by the frontier's own
evaluator (0 when both are 0). Reported per model and pricing: median, 90th percentile and
worst gap over the budgets. ``--run-check`` emits the exact plans of the small models with
``fusioncut.emit.build_modules`` and trains one step: gradients must equal eager.
"""

from __future__ import annotations

import argparse
import copy
import os
import sys
import time
import warnings

warnings.filterwarnings("ignore", category=FutureWarning)

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from common import environment, markdown_table, write_json  # noqa: E402
from exact_budget import ExactBudget  # noqa: E402

import fusioncut  # noqa: E402
from fusioncut import models  # noqa: E402
from fusioncut.options import Options  # noqa: E402
from fusioncut.report import capture  # noqa: E402

DEFAULT_JSON = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", "exact.json")
DEVICES = ("h100", "cpu")
TARGETS = {"median": 0.001, "p90": 0.05, "worst": 0.15}  # issue 19


def _gpt(style, layers=2, **kw):
    def make():
        cfg = models.gpt_config(style, n_layer=layers, d_model=32, n_head=2, block_size=16,
                                vocab=64, **kw)
        return models.GPT(cfg), models.gpt_inputs(cfg, batch=2)
    return make


def _llama():
    cfg = models.LlamaConfig(n_layer=2, d_model=32, n_head=4, block_size=16, vocab=64)
    return models.Llama(cfg), models.llama_inputs(cfg, batch=2)


def _resnet(layout):
    def make():
        m = models.resnet(layout, num_classes=10, widths=(8, 16, 16, 32), imagenet_stem=False)
        return m, (torch.randn(2, 3, 16, 16, requires_grad=True),)
    return make


MODELS = {
    "gpt-tests": _gpt("tests"),
    "gpt-demo": _gpt("demo", layers=4),
    "gpt-record": _gpt("record"),
    "gpt-gpt2": _gpt("gpt2"),
    "llama": _llama,
    "resnet18": _resnet("resnet18"),
    "resnet50": _resnet("resnet50"),
    "lstm8": lambda: (models.LSTMUnrolled(steps=8), (torch.randn(8, 3, 6),)),
    "mlp": lambda: (models.MLP(), (torch.randn(4, 8),)),
    "evonorm": lambda: (models.EvoNormS0(), (torch.randn(2, 8, 4, 4),)),
    "convbn": lambda: (models.ConvBN(), (torch.randn(2, 3, 8, 8),)),
    "gelu": lambda: (models.GeLU(), (torch.randn(64, 64, requires_grad=True),)),
    "coscos": lambda: (models.CosCos(),
                       tuple(torch.randn(1024, 256, requires_grad=True) for _ in range(4))),
    "encoder": lambda: (models.transformer_encoder(32, 2, 64, 2), (torch.randn(2, 8, 32),)),
}
RUN_CHECK = ("lstm8", "mlp", "evonorm", "gelu", "coscos", "gpt-tests")


def _frontier(cap, device):
    opts = Options(device=device)
    return fusioncut.pareto(cap.joint_module, num_fwd_outputs=cap.num_fwd_outputs,
                            static_lifetime_input_indices=cap.static_lifetime_input_indices,
                            options=opts)


def budgets_of(levels: list[int]) -> list[int]:
    """Every level, the midpoints between neighbours, and 21 evenly spaced bytes."""
    levels = sorted(set(levels))
    lo, hi = levels[0], levels[-1]
    mids = [(a + b) // 2 for a, b in zip(levels, levels[1:])]
    even = [int(lo + k * (hi - lo) / 20) for k in range(21)]
    return sorted(set(levels) | set(mids) | set(even))


def in_reach(front, limit):
    """The frontier's best plan saving at most ``limit`` bytes (any plan in reach)."""
    if hasattr(front, "best_within"):
        return front.best_within(limit)
    fits = [p for p in front.points if p.saved_bytes <= limit]
    return min(fits, key=lambda p: p.recompute_seconds) if fits else None


def gap(r: float, exact: float) -> float:
    if exact <= 1e-15:
        return 0.0 if r <= 1e-15 else float("inf")
    return (r - exact) / exact


def summary(gaps: list[float]) -> dict:
    """Median, 90th percentile (nearest rank) and worst gap."""
    g = sorted(gaps)
    if not g:
        return {"median": 0.0, "p90": 0.0, "worst": 0.0, "budgets": 0}
    rank = lambda q: g[max(0, int(np.ceil(q * len(g))) - 1)]  # noqa: E731
    return {"median": float(np.median(g)) if np.isfinite(g).all() else rank(0.5),
            "p90": rank(0.9), "worst": g[-1], "budgets": len(g)}


def measure(name: str, device: str) -> dict:
    torch.manual_seed(0)
    module, inputs = MODELS[name]()
    cap = capture(module, *inputs)
    t0 = time.perf_counter()
    front = _frontier(cap, device)
    frontier_s = time.perf_counter() - t0
    plans = front.plans if hasattr(front, "plans") else front.points
    gen = front.generator if hasattr(front, "generator") else None
    graph = front.graph
    if gen is None:  # the frontier before issue 19: rebuild its network and evaluator
        bnet, evaluate = _rebuild(cap, device)
    else:
        bnet, evaluate = gen.bnet, gen.evaluate
    exact = ExactBudget(graph, bnet, evaluate.static)
    rows, reach_gaps, chosen_gaps = [], [], []
    t_exact = 0.0
    for limit in budgets_of([p.saved_bytes for p in plans]):
        t1 = time.perf_counter()
        plan = exact.solve(limit)
        t_exact += time.perf_counter() - t1
        if plan is None:
            continue
        best = evaluate.point(plan.saved, None)
        if best.saved_bytes > limit:
            raise AssertionError(f"{name}: exact plan saves {best.saved_bytes} > {limit}")
        mine = in_reach(front, limit)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            chosen, miss = front.for_bytes(limit)
        r_exact = best.recompute_seconds
        g_reach = gap(mine.recompute_seconds, r_exact) if mine is not None else float("inf")
        g_chosen = gap(chosen.recompute_seconds, r_exact) if not miss else float("inf")
        reach_gaps.append(g_reach)
        if not miss:  # a budget no plan in reach fits is a miss, not a gap
            chosen_gaps.append(g_chosen)
        rows.append({"budget": limit, "exact_s": r_exact, "exact_saved": best.saved_bytes,
                     "program_s": plan.objective,
                     "reach_s": None if mine is None else mine.recompute_seconds,
                     "reach_saved": None if mine is None else mine.saved_bytes,
                     "chosen_s": chosen.recompute_seconds, "chosen_saved": chosen.saved_bytes,
                     "gap_reach": g_reach, "gap_chosen": g_chosen})
    return {"model": name, "device": device, "nodes": graph.num_nodes, "plans": len(plans),
            "points": len(front.points), "frontier_s": frontier_s, "exact_s": t_exact,
            "least": front.least.saved_bytes, "runtime": front.runtime.saved_bytes,
            "reach": summary(reach_gaps), "chosen": summary(chosen_gaps), "rows": rows}


def _rebuild(cap, device):
    from fusioncut.budget_plans import Evaluator, budget_network
    from fusioncut.recompute import recompute_model

    opts = Options(device=device)
    d = fusioncut.decide(cap.joint_module, num_fwd_outputs=cap.num_fwd_outputs,
                         static_lifetime_input_indices=cap.static_lifetime_input_indices,
                         options=opts)
    bnet = budget_network(d.graph, d.policy, d.costs, d.network,
                          recompute_model(d.graph, opts.budget_device))
    return bnet, Evaluator(d.graph, bnet, d.costs, d.static_inputs)


def run_check(name: str, device: str, fractions=(0.0, 0.5)) -> int:
    """Emit the exact plans at a few budgets and train one step: gradients equal eager.
    Returns the number of plans checked."""
    from functorch.compile import aot_module, make_boxed_func

    from fusioncut.budget import budget_network
    from fusioncut.decision import frontier_of
    from fusioncut.emit import build_modules
    from fusioncut.recompute import recompute_model

    checked = 0
    for frac in fractions:
        torch.manual_seed(0)
        module, inputs = MODELS[name]()
        eager = copy.deepcopy(module)
        out = eager(*inputs)
        (out if out.dim() == 0 else out.sum()).backward()

        def part(joint, joint_inputs, *, num_fwd_outputs, static_lifetime_input_indices=None,
                 **_):
            opts = Options(device=device)
            d = fusioncut.decide(joint, num_fwd_outputs=num_fwd_outputs,
                                 static_lifetime_input_indices=static_lifetime_input_indices,
                                 options=opts)
            bnet = budget_network(d.graph, d.policy, d.costs, d.network,
                                  recompute_model(d.graph, opts.budget_device))
            front = frontier_of(d, opts)
            lo, hi = front.least.saved_bytes, front.runtime.saved_bytes
            plan = ExactBudget(d.graph, bnet, d.static_inputs).solve(int(lo + frac * (hi - lo)))
            values, syms = d.graph.split_saved(plan.saved)
            return build_modules(joint, values, syms, num_fwd_outputs=num_fwd_outputs,
                                 static_lifetime_input_indices=static_lifetime_input_indices)

        boxed = lambda gm, _: make_boxed_func(gm.forward)  # noqa: E731
        compiled = aot_module(module, fw_compiler=boxed, bw_compiler=boxed, partition_fn=part)
        out2 = compiled(*inputs)
        (out2 if out2.dim() == 0 else out2.sum()).backward()
        for (pname, p), q in zip(module.named_parameters(), eager.parameters()):
            torch.testing.assert_close(p.grad, q.grad, rtol=1e-5, atol=1e-6, msg=pname)
        checked += 1
    return checked


def _pct(x: float) -> str:
    return "inf" if x == float("inf") else f"{100 * x:.3g}%"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", nargs="+", default=list(MODELS), choices=list(MODELS))
    ap.add_argument("--devices", nargs="+", default=list(DEVICES))
    ap.add_argument("--json", default=DEFAULT_JSON)
    ap.add_argument("--run-check", action="store_true")
    args = ap.parse_args(argv)
    torch.set_num_threads(1)
    results = []
    for name in args.models:
        for device in args.devices:
            r = measure(name, device)
            results.append(r)
            print(f"{name:11s} {device:5s} nodes {r['nodes']:5d} plans {r['plans']:4d} "
                  f"budgets {r['reach']['budgets']:3d}  in reach med {_pct(r['reach']['median'])}"
                  f" p90 {_pct(r['reach']['p90'])} worst {_pct(r['reach']['worst'])}  chosen "
                  f"med {_pct(r['chosen']['median'])} p90 {_pct(r['chosen']['p90'])} worst "
                  f"{_pct(r['chosen']['worst'])}  frontier {r['frontier_s']:.2f} s, exact "
                  f"{r['exact_s']:.1f} s", flush=True)
    checks = {}
    if args.run_check:
        for name in RUN_CHECK:
            if name in args.models:
                for device in args.devices:
                    checks[f"{name}/{device}"] = run_check(name, device)
        print(f"exact plans emitted and trained, gradients equal eager: {checks}")
    header = ["model", "pricing", "nodes", "budgets", "in reach: median", "p90", "worst",
              "chosen: median", "p90", "worst"]
    table = [[r["model"], r["device"], str(r["nodes"]), str(r["reach"]["budgets"]),
              _pct(r["reach"]["median"]), _pct(r["reach"]["p90"]), _pct(r["reach"]["worst"]),
              _pct(r["chosen"]["median"]), _pct(r["chosen"]["p90"]),
              _pct(r["chosen"]["worst"])] for r in results]
    print(markdown_table(header, table))
    missed = [f"{r['model']}/{r['device']} {k}" for r in results for k, t in TARGETS.items()
              if r["reach"][k] > t]
    print("targets (in reach): " + ("all met" if not missed else "missed: " + ", ".join(missed)))
    write_json(args.json, {"environment": environment(), "results": results,
                           "run_check": checks})
    return 0


if __name__ == "__main__":
    sys.exit(main())
