"""The patched reference walk as the partitioner's estimate, measured over a budget sweep.

    patch -p1 < bench/experiments/inductor_timeline.patch
    python bench/experiments/measure_with_prototype.py MODEL [--plans FILE] [--off]
    git checkout tests/_peak_reference.py

A replay (``peak_variants.py``) scores the plans the current estimate picked; a changed estimate
picks other plans, and only they, compiled and profiled, say whether the measured peak is
monotone in the budget. Here the patched reference walk and the conditional peak of
``peak_variants.conditional`` replace ``fusioncut.peak.phase_events`` and
``PhaseEvents.peak`` in this process, and ``memory_budget`` 0, 0.1, ..., 1 is measured as
``bench_peak`` measures it (``budget_peak.Session``; plans in ``--plans`` are not compiled
again). ``--off`` runs the same sweep with the estimate as it is, for the comparison.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path[:0] = [os.path.join(ROOT, "bench"), os.path.join(ROOT, "tests"), HERE]

import _peak_reference as ref  # noqa: E402
import peak_variants  # noqa: E402
from bench_peak import MONOTONE_BUDGETS, _rise, worst_rise  # noqa: E402
from budget_peak import Session  # noqa: E402
from peak_replay import DEFAULT_PLANS  # noqa: E402

import fusioncut.budget_plans as budget_plans  # noqa: E402
import fusioncut.peak as peak  # noqa: E402
from fusioncut.options import Options  # noqa: E402

MIB = 2 ** 20


def _prototype_events(graph, saved, numel=None, split=None, *, offloaded=None):
    forward, backward, kept = ref.phase_events(graph, saved, numel, split, offloaded=offloaded)
    object.__setattr__(forward, "_phantom", ref.PHANTOM.get("fw"))
    object.__setattr__(backward, "_phantom", ref.PHANTOM.get("bw"))
    return forward, backward, kept


def use_prototype() -> None:
    """The partitioner's estimate becomes the patched walk with the conditional reuse."""
    peak.phase_events = budget_plans.phase_events = _prototype_events
    peak.PhaseEvents.peak = lambda self: peak_variants.conditional(
        self, getattr(self, "_phantom", None))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("--plans", default=DEFAULT_PLANS)
    parser.add_argument("--off", action="store_true", help="the estimate as it is")
    args = parser.parse_args(argv)
    if not args.off:
        if getattr(ref, "FLAGS", None) is None:
            print("measure_with_prototype: tests/_peak_reference.py is not patched (see the "
                  "docstring)", file=sys.stderr)
            return 2
        use_prototype()
    with open(args.plans) as f:
        cache = json.load(f)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        session = Session(args.model, cache=cache)
    peaks = []
    for b in MONOTONE_BUDGETS:
        r = session.measure(Options(memory_budget=b))
        peaks.append(r["measured"])
        print(f"  {args.model} b={b:<4} estimate {r['estimate'] / MIB:7.3f} MiB  measured "
              f"{r['measured'] / MIB:7.3f} MiB ({(r['estimate'] - r['measured']) / r['measured']:+.1%})"
              f"  kept {(r['saved_bytes'] or 0) / MIB:6.2f} MiB", flush=True)
    rise = worst_rise(peaks)
    print(f"{args.model}: {'monotone' if rise[0] <= 0 else 'not monotone'} {_rise(rise)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
