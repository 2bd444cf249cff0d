"""Every option set a user may pass, on real models, through ``torch.compile``.

    python bench/option_sweep.py [--models hf-phi3 hf-cohere ...] [--full] [--json PATH]

For each model of ``peak_models`` (small: ``build(name, quick=True)``; ``--full``: the
benchmark's size) and each option set below, one training step is compiled with Inductor and
``fusioncut.InductorPartitioner(options)`` next to an eager copy, with ``FallbackWarning``
raised as an error, and ``fusioncut.explain`` reports the same options on the model's captured
graphs. Printed per (model, options): whether the loss matches eager's, the largest gradient
difference relative to the gradient's largest magnitude, and what ``explain`` says the plan
saves, recomputes and offloads; a failure prints its exception instead. A gradient matches
when its largest difference from eager's, relative to its largest magnitude (at least 1e-4 of
the model's largest gradient: a key projection's bias has a gradient of 1e-11, rounding noise),
is within 1e-4 or within twice the difference of PyTorch's own partitioner's compiled step, run
once per model (Inductor's kernels sum in another order than eager's: a batch norm's weight
gradient in transformers' ResNet differs by 5.8e-4 whatever partitions). A ``+bf16`` model
compiles with ``emulate_precision_casts``: without it Inductor rounds to bfloat16 only what it
stores, which depends on what the partition saves.
Exit status 1 when any pair fails or mismatches.

The option sets: the runtime plan; ``mode="memory"``; ``memory_budget`` 0 and 0.4;
``memory_budget_bytes`` halfway between the least and the runtime plan's saved bytes; a
``peak_memory_bytes`` target 30% of the way up from the least estimated peak (raised by the
margin, so that it is reachable); offloading (``offload="auto"`` with the ``"h100"`` pricing,
whose host link makes the cut consider it; on a CPU the copies are CPU copies) under
``memory_budget=0.3`` and under a peak target 1.6x the least estimated peak with offloading.
The targets come from ``fusioncut.pareto`` of the model's first joint graph.
"""

from __future__ import annotations

import argparse
import copy
import os
import sys
import time
import warnings

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from budget_peak import scalar_loss  # noqa: E402
from common import environment, write_json  # noqa: E402
from peak_models import ALL, UNSEEN_SHAPES, build  # noqa: E402

import fusioncut  # noqa: E402
from fusioncut import FallbackWarning, InductorPartitioner, Options  # noqa: E402
from fusioncut._torch_compat import inductor_config  # noqa: E402
from fusioncut.budget import peak_margin_for  # noqa: E402
from fusioncut.device import PRESETS  # noqa: E402

LOSS_RTOL, LOSS_ATOL = 1e-4, 1e-5
GRAD_TOL = 1e-4  # largest gradient difference, relative to the gradient's largest magnitude
TORCH_SLACK = 2.0  # or up to this many times PyTorch's own compiled step's difference
SCALE_FLOOR = 1e-4  # a gradient's scale: at least this fraction of the model's largest


def option_sets(captured) -> dict[str, Options]:
    """The option sets, their targets placed on the frontier of the first joint graph."""
    joint = captured.graphs[0]
    kw = dict(num_fwd_outputs=joint.num_fwd_outputs,
              static_lifetime_input_indices=joint.static_lifetime_input_indices)
    front = fusioncut.pareto(joint.joint_module, **kw, options=Options())
    least, runtime = front.least, front.runtime
    margin = peak_margin_for(front.graph)  # Options().peak_margin: None, the graph's default
    h100 = PRESETS["h100"]
    with_link = fusioncut.pareto(joint.joint_module, **kw,
                                 options=Options(device=h100, offload="auto"))
    lo = int(least.peak.peak * (1 + margin))
    return {
        "runtime": Options(),
        "memory": Options(mode="memory"),
        "budget 0": Options(memory_budget=0.0),
        "budget 0.4": Options(memory_budget=0.4),
        "budget bytes": Options(memory_budget_bytes=(least.saved_bytes
                                                     + runtime.saved_bytes) // 2),
        "peak target": Options(peak_memory_bytes=lo + int(0.3 * max(
            runtime.peak.peak - least.peak.peak, 0))),
        "offload, budget 0.3": Options(device=h100, memory_budget=0.3, offload="auto"),
        "offload, peak target": Options(device=h100, offload="auto",
                                        peak_memory_bytes=int(with_link.least.peak.peak * 1.6)),
    }


def one_step(name: str, full: bool, options: Options | None) -> dict:
    """One compiled step against eager: the loss's agreement and the worst gradient. ``options``
    None: PyTorch's own partitioner (the reference for Inductor's own rounding)."""
    torch._dynamo.reset()
    model, inputs = build(name, quick=not full)
    eager = copy.deepcopy(model)
    eager_loss = scalar_loss(eager(*inputs))
    eager_loss.backward()
    with warnings.catch_warnings():
        warnings.simplefilter("error", FallbackWarning)
        warnings.simplefilter("ignore", FutureWarning)
        # Under autocast Inductor skips the bfloat16 rounding of values a kernel keeps in
        # registers, so partitions that save different values round differently (T5: a
        # gradient 12% from eager's); emulated, fusioncut's step is PyTorch's to the bit.
        with inductor_config().patch(custom_partitioner_fn=None if options is None
                                     else InductorPartitioner(options),
                                     emulate_precision_casts=name.endswith("+bf16")):
            loss = scalar_loss(torch.compile(model)(*inputs))
            loss.backward()
    torch._dynamo.reset()
    pairs = list(zip(model.named_parameters(), eager.named_parameters()))
    # A gradient zero in exact arithmetic (a key projection's bias: softmax ignores it) is
    # rounding noise of 1e-11: each is compared on the scale of the model's largest gradient.
    floor = SCALE_FLOOR * max((q.grad.abs().max().item() for _, (_, q) in pairs
                               if q.grad is not None), default=1.0)
    worst = 0.0
    for (key, p), (_, q) in pairs:
        if (p.grad is None) != (q.grad is None):
            raise AssertionError(f"{key}: a gradient in one run only")
        if p.grad is not None:
            scale = max(q.grad.abs().max().item(), floor) or 1.0
            worst = max(worst, (p.grad - q.grad).abs().max().item() / scale)
    same = torch.allclose(loss.detach(), eager_loss.detach(), rtol=LOSS_RTOL, atol=LOSS_ATOL)
    return {"loss_matches": bool(same), "worst_grad": worst}


def sweep(name: str, full: bool, log=print) -> list[dict]:
    model, inputs = build(name, quick=not full)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        captured = fusioncut.capture(model, *inputs)
        sets = option_sets(captured)
    # Inductor's kernels round differently from eager (a batch norm's sums): a gradient
    # differs from eager's by what PyTorch's own compiled step differs, whatever partitions.
    reference = one_step(name, full, None)
    tolerance = max(GRAD_TOL, TORCH_SLACK * reference["worst_grad"])
    rows = []
    for label, options in sets.items():
        row = {"model": name, "options": label, "tolerance": tolerance}
        started = time.perf_counter()
        try:
            row.update(one_step(name, full, options))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                report = fusioncut.explain(captured, options=options, compare=False)
            row.update(saved=len(report.saved), recomputed=len(report.recomputed),
                       offloaded=len(report.offloaded or ()))
            ok = row["loss_matches"] and row["worst_grad"] <= tolerance
            row["status"] = "ok" if ok else "MISMATCH"
            text = (f"{'' if ok else 'MISMATCH: '}loss {'=' if row['loss_matches'] else '!='} "
                    f"eager, gradients within {row['worst_grad']:.1e}; explain: "
                    f"{row['saved']} saved, {row['recomputed']} recomputed, "
                    f"{row['offloaded']} offloaded")
        except Exception as exc:  # noqa: BLE001 - every failure is a row of the report
            row["status"] = f"error: {type(exc).__name__}: {exc}"
            text = row["status"][:300]
        row["seconds"] = time.perf_counter() - started
        log(f"{name:14s} {label:22s} {text}")
        rows.append(row)
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="+", default=list(UNSEEN_SHAPES), choices=ALL)
    parser.add_argument("--full", action="store_true", help="the benchmark's sizes")
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)
    rows = []
    for name in args.models:
        rows += sweep(name, args.full)
    bad = [r for r in rows if r["status"] != "ok"]
    print(f"{len(rows) - len(bad)} of {len(rows)} (model, options) pairs ok")
    if args.json:
        write_json(args.json, {"environment": environment(), "results": rows})
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
