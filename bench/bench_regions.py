"""Repeated ``invoke_subgraph`` regions: one analysis for N identical layers.

    python bench/bench_regions.py [--layers 12] [--repeats 5] [--json out.json]

Model: ``--layers`` pre-norm transformer layers (LayerNorm, single-head attention written
out, LayerNorm, GeLU MLP), d_model 64, batch 2 x 16 tokens, each layer a
``torch.compiler.nested_compile_region``. Three builds of it:

- ``one``: a single layer (``inline_single_use_invoke_subgraph`` off, so it stays a region);
- ``shared``: ``--layers`` layers calling one region function (AOTAutograd partitions the
  region once per backward variant, then the outer graph);
- ``distinct``: ``--layers`` layers, each its own function with the same body: AOTAutograd
  sees ``--layers`` region identifiers and calls the partitioner for every one of them.

Each build is compiled once (``torch.compile``, AOTAutograd with no-op compilers and
fusioncut as the partition_fn) and its gradients are checked against eager. Every call
AOTAutograd made to the partitioner is recorded (the region joint graphs, then the outer
graph) and replayed, timed: fusioncut with its region cache cleared first (a cold compile),
fusioncut with the cache emptied before every call (no reuse: each region analysed), and
torch's ``min_cut_rematerialization_partition`` on a fresh copy of each graph (copying
untimed), median (and best) over ``--repeats`` rounds that interleave builds and methods,
garbage collector off. The figure is the sum over all calls of one build: what partitioning
costs that compile.

Checked: every region call of ``distinct`` gets the same saved set from fusioncut (by node
name; the regions are identical), and that set is the one ``fusioncut.decide`` chooses for
each region afresh (the cache reuses decisions, it does not change them).
Results: a table on stdout and JSON (default bench/results/regions.json).
"""

from __future__ import annotations

import argparse
import copy
import datetime
import gc
import json
import os
import platform
import statistics
import sys
import time
import types
import warnings

import torch

DEFAULT_JSON = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", "regions.json")
D_MODEL = 64
TARGET_RATIO = 2.0


def layer(x, w1, w2, g):
    h = torch.nn.functional.layer_norm(x, (x.shape[-1],), g)
    a = torch.softmax(h @ h.transpose(-1, -2) * 0.125, -1) @ h
    x = x + a
    h = torch.nn.functional.layer_norm(x, (x.shape[-1],), g)
    return x + torch.nn.functional.gelu(h @ w1) @ w2


def regions(n: int, distinct: bool) -> list:
    """``n`` region functions: one shared, or ``n`` distinct code objects with one body
    (AOTAutograd keys regions by their code)."""
    if not distinct:
        return [torch.compiler.nested_compile_region(layer)] * n
    out = []
    for i in range(n):
        code = layer.__code__.replace(co_name=f"layer{i}")
        out.append(torch.compiler.nested_compile_region(
            types.FunctionType(code, layer.__globals__, f"layer{i}")))
    return out


def inputs(n: int, seed: int = 0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(2, 16, D_MODEL, generator=g, requires_grad=True)
    ws = [(torch.randn(D_MODEL, 4 * D_MODEL, generator=g).mul_(0.1).requires_grad_(),
           torch.randn(4 * D_MODEL, D_MODEL, generator=g).mul_(0.1).requires_grad_(),
           torch.randn(D_MODEL, generator=g).requires_grad_()) for _ in range(n)]
    return x, ws


def build(n: int, distinct: bool):
    fns = regions(n, distinct)

    def model(x, ws):
        for fn, (w1, w2, g) in zip(fns, ws):
            x = fn(x, w1, w2, g)
        return x.sum()

    return model


def capture(n: int, distinct: bool):
    """Compile once with fusioncut; return the recorded partitioner calls and the gradients'
    largest difference from eager."""
    import fusioncut
    from fusioncut import regions as regions_mod
    from functorch.compile import make_boxed_func
    from torch._dynamo.backends.common import aot_autograd

    calls = []

    def record(gm, joint_inputs, **kwargs):
        fw, bw = fusioncut.partition(gm, joint_inputs, **kwargs)
        calls.append((gm, joint_inputs, kwargs, fw))
        return fw, bw

    def boxed(gm, _):
        return make_boxed_func(gm.forward)

    model = build(n, distinct)
    torch._dynamo.reset()
    regions_mod.clear_cache()
    backend = aot_autograd(fw_compiler=boxed, bw_compiler=boxed, partition_fn=record)
    x, ws = inputs(n)
    with torch._dynamo.config.patch(inline_single_use_invoke_subgraph=False), \
            warnings.catch_warnings():
        warnings.simplefilter("error", fusioncut.FallbackWarning)
        warnings.filterwarnings("ignore", message=".*multiple backward graphs.*")
        torch.compile(model, backend=backend, fullgraph=True)(x, ws).backward()
    got = [x.grad, *(p.grad for w in ws for p in w)]
    rx, rws = inputs(n)
    model(rx, rws).backward()
    want = [rx.grad, *(p.grad for w in rws for p in w)]
    err = max(float((a - b).abs().max()) for a, b in zip(got, want))
    return calls, err


def saved_names(fw: torch.fx.GraphModule, num_fwd_outputs: int) -> list[str]:
    out = fw.graph.find_nodes(op="output")[0].args[0]
    return [o.name for o in out[num_fwd_outputs:] if isinstance(o, torch.fx.Node)]


def time_fusioncut(calls, reuse: bool = True) -> float:
    """All calls from a cold region cache; ``reuse=False`` empties it before every call (each
    region analysed on its own, as without the cache)."""
    import fusioncut
    from fusioncut import regions as regions_mod

    regions_mod.clear_cache()
    gc.collect()
    gc.disable()
    try:
        total = 0.0
        for gm, joint_inputs, kwargs, _ in calls:
            if not reuse:
                regions_mod.clear_cache()
            start = time.perf_counter()
            fusioncut.partition(gm, joint_inputs, **kwargs)
            total += time.perf_counter() - start
        return total
    finally:
        gc.enable()


def time_torch(calls) -> float:
    from torch._functorch.partitioners import min_cut_rematerialization_partition

    copies = [copy.deepcopy(gm) for gm, *_ in calls]
    gc.collect()
    gc.disable()
    try:
        total = 0.0
        for gm, (_, joint_inputs, kwargs, _) in zip(copies, calls):
            start = time.perf_counter()
            min_cut_rematerialization_partition(gm, joint_inputs, **kwargs)
            total += time.perf_counter() - start
        return total
    finally:
        gc.enable()


def check_regions(calls) -> list[str]:
    """The one saved set every region call got; raises if calls differ or if it is not what
    ``fusioncut.decide`` chooses for each region on its own."""
    import fusioncut
    from fusioncut import regions as regions_mod

    sets = []
    for gm, joint_inputs, kwargs, fw in calls:
        if not regions_mod.is_region_call(gm, joint_inputs):
            continue
        n = kwargs["num_fwd_outputs"]
        got = saved_names(fw, n)
        fresh = fusioncut.decide(gm, num_fwd_outputs=n)
        want = [node.name for node in (*fresh.saved_values, *fresh.saved_sym_nodes)]
        if sorted(got) != sorted(want):
            raise AssertionError(f"region {gm}: cached saved set {got} != fresh decision {want}")
        sets.append(sorted(got))
    if any(s != sets[0] for s in sets):
        raise AssertionError(f"region calls saved different sets: {sets}")
    return sets[0]


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--layers", type=int, default=12)
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--json", default=DEFAULT_JSON)
    args = parser.parse_args(argv)
    if args.layers < 1 or args.repeats < 1:
        parser.error("--layers and --repeats must be >= 1")

    cases = {"one": (1, True), "shared": (args.layers, False), "distinct": (args.layers, True)}
    captured = {}
    for name, (n, distinct) in cases.items():
        calls, err = capture(n, distinct)
        if err > 1e-4:
            raise AssertionError(f"{name}: gradients differ from eager by {err:g}")
        captured[name] = calls
    saved = check_regions(captured["distinct"])

    # Rounds interleave every build and method, so load on the machine hits all alike.
    runs = {name: {"fusioncut": [], "no_reuse": [], "torch": []} for name in captured}
    for _ in range(args.repeats):
        for name, calls in captured.items():
            runs[name]["fusioncut"].append(time_fusioncut(calls))
            runs[name]["no_reuse"].append(time_fusioncut(calls, reuse=False))
            runs[name]["torch"].append(time_torch(calls))
    results = {}
    for name, calls in captured.items():
        r = runs[name]
        region_calls = sum(fusioncut_region(gm, ji) for gm, ji, _, _ in calls)
        results[name] = {"calls": len(calls), "region_calls": region_calls,
                         "nodes": [len(gm.graph.nodes) for gm, *_ in calls],
                         "fusioncut_s": statistics.median(r["fusioncut"]),
                         "fusioncut_no_reuse_s": statistics.median(r["no_reuse"]),
                         "torch_s": statistics.median(r["torch"]),
                         "fusioncut_min_s": min(r["fusioncut"]),
                         "fusioncut_no_reuse_min_s": min(r["no_reuse"]),
                         "torch_min_s": min(r["torch"]),
                         "fusioncut_runs_s": r["fusioncut"],
                         "fusioncut_no_reuse_runs_s": r["no_reuse"], "torch_runs_s": r["torch"]}
    one, shared, dist = results["one"], results["shared"], results["distinct"]
    summary = {
        "fusioncut_distinct_over_one": dist["fusioncut_s"] / one["fusioncut_s"],
        "fusioncut_distinct_over_shared": dist["fusioncut_s"] / shared["fusioncut_s"],
        "fusioncut_no_reuse_distinct_over_shared":
            dist["fusioncut_no_reuse_s"] / shared["fusioncut_no_reuse_s"],
        "torch_distinct_over_one": dist["torch_s"] / one["torch_s"],
        "torch_distinct_over_shared": dist["torch_s"] / shared["torch_s"],
        "torch_over_fusioncut_distinct": dist["torch_s"] / dist["fusioncut_s"],
        "fusioncut_distinct_over_shared_best": dist["fusioncut_min_s"] / shared["fusioncut_min_s"],
        "fusioncut_no_reuse_distinct_over_shared_best":
            dist["fusioncut_no_reuse_min_s"] / shared["fusioncut_no_reuse_min_s"],
        "torch_distinct_over_shared_best": dist["torch_min_s"] / shared["torch_min_s"],
        "fusioncut_distinct_over_one_best": dist["fusioncut_min_s"] / one["fusioncut_min_s"],
        "torch_distinct_over_one_best": dist["torch_min_s"] / one["torch_min_s"],
        "region_saved_set": saved,
    }

    def cell(r, key):
        return f"{r[key + '_min_s'] * 1e3:.1f} ({r[key + '_s'] * 1e3:.1f}) ms"

    print(f"{args.layers} layers, d_model {D_MODEL}; partitioner time per compile, all calls "
          f"summed: best (median) of {args.repeats} interleaved rounds")
    print("| build | partitioner calls (regions) | fusioncut | fusioncut, no reuse "
          "| torch min-cut | torch / fusioncut (best) |")
    print("|---|---|---|---|---|---|")
    for name, r in results.items():
        print(f"| {name} | {r['calls']} ({r['region_calls']}) | {cell(r, 'fusioncut')} "
              f"| {cell(r, 'fusioncut_no_reuse')} | {cell(r, 'torch')} "
              f"| {r['torch_min_s'] / r['fusioncut_min_s']:.1f}x |")
    print(f"distinct / shared, best: fusioncut "
          f"{summary['fusioncut_distinct_over_shared_best']:.2f}x (no reuse "
          f"{summary['fusioncut_no_reuse_distinct_over_shared_best']:.2f}x), torch "
          f"{summary['torch_distinct_over_shared_best']:.2f}x; distinct / one, best: fusioncut "
          f"{summary['fusioncut_distinct_over_one_best']:.2f}x, torch "
          f"{summary['torch_distinct_over_one_best']:.2f}x")
    print(f"every region call saved {saved}")

    out = {"date": datetime.datetime.now().isoformat(timespec="seconds"),
           "machine": {"python": sys.version.split()[0], "torch": torch.__version__,
                       "platform": platform.platform(), "cpus": os.cpu_count()},
           "layers": args.layers, "repeats": args.repeats, "results": results,
           "summary": summary}
    if args.json:
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return out


def fusioncut_region(gm, joint_inputs) -> bool:
    from fusioncut import regions as regions_mod

    return regions_mod.is_region_call(gm, joint_inputs)


if __name__ == "__main__":
    main()
