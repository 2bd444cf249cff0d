"""Replay the stored plans under the rules of ``inductor_timeline.patch`` (not in the estimate).

    patch -p1 < bench/experiments/inductor_timeline.patch   # tests/_peak_reference.py
    python bench/experiments/peak_variants.py [--plans FILE] [--models m1 m2 ...]
                                              [--set groups=1 cond=1 ...]
    git checkout tests/_peak_reference.py                    # undo

docs/budget.md, "Inductor's own timeline (2026-11-28, tried, not kept)", says what each rule is
and what it did. The patch turns the numpy reference walk (``tests/_peak_reference.py``) into a
walk with the rules behind switches (``FLAGS`` there): backward groups of stored pointwise
values that share reads (``groups``), placed as one kernel by ``_fused_order`` (``fo``) at one
kernel time (``ktime``), with no output written in place over an input another member reads
(``inplace``), and the values realized on reuse that the group fuses away recorded as phantoms
(``PHANTOM``); ``_fused_order`` schedules its components (``sched``: each placed once what it
reads has run, dissolved only when a member waits on a reader of its own component). This script scores each stored plan with the C++ estimate (``old``) and with the
patched walk (``new``), pooled one of two ways: unconditionally (``_pooled`` in Python, with an
in-place allocation taking one dying input, not all of its size: ``o2o``), or with Inductor's
conditional reuse (``cond``): a freed storage is held for a later allocation of its size only
if that size plus the live bytes in between stays within the phase's peak in Inductor's own
timeline (no output in place, ``indt``; the phantoms counted at their kernel, ``ph``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import warnings
from collections import Counter

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path[:0] = [os.path.join(ROOT, "bench"), os.path.join(ROOT, "tests")]

import _peak_reference as ref  # noqa: E402
from budget_peak import Session  # noqa: E402
from peak_replay import DEFAULT_PLANS  # noqa: E402

from fusioncut.options import Options  # noqa: E402
from fusioncut.peak import phase_events  # noqa: E402

SWITCHES = {"o2o": True, "cond": False, "indt": True, "ph": True}


def _events(ev, one_to_one: bool):
    """A phase's events in time order: (event time, +1 allocation / -1 free, bytes). At one
    time allocations (2t) come before frees (2t + 1), but a free that an in-place allocation of
    its time and size takes comes first (2t - 1): one per such allocation with ``one_to_one``,
    every matching free without (``_core.pooled_peak``)."""
    at, asz = np.asarray(ev.alloc_t).tolist(), np.asarray(ev.alloc_s).tolist()
    ip = np.asarray(ev.in_place, bool).tolist()
    reuse = Counter((t, s) for t, s, x in zip(at, asz, ip) if x)
    out = [(2 * t, 1, s) for t, s in zip(at, asz)]
    for t, s in zip(np.asarray(ev.free_t).tolist(), np.asarray(ev.free_s).tolist()):
        first = reuse.get((t, s), 0) > 0
        if first and one_to_one:
            reuse[(t, s)] -= 1
        out.append((2 * t + (-1 if first else 1), -1, s))
    return sorted(out, key=lambda e: (e[0], -e[1]))


def _with_work(ev, times, totals) -> int:
    """The peak of ``totals`` (live bytes after each event time) and of each workspace on top
    of the storages live after the allocations of its kernel's time."""
    peak = int(max(totals)) if len(totals) else 0
    for w, s in zip(np.asarray(ev.work_t).tolist(), np.asarray(ev.work_s).tolist()):
        k = int(np.searchsorted(times, 2 * w, side="right")) - 1
        peak = max(peak, (int(totals[k]) if k >= 0 else 0) + s)
    return peak


def pooled(ev, one_to_one: bool = True) -> int:
    """``_core.pooled_peak`` in Python: per size, a freed storage is held while a later
    allocation of its size will take it (held count = running maximum - least pool ahead)."""
    events = _events(ev, one_to_one)
    times = sorted({e[0] for e in events})
    delta = Counter()
    for size in {e[2] for e in events}:
        mine = [e for e in events if e[2] == size]
        live = np.cumsum([d for _, d, _ in mine])
        most = np.maximum.accumulate(live)
        least = np.minimum.accumulate((most - live)[::-1])[::-1]
        held = most - least
        for (t, _, _), change in zip(mine, np.diff(np.concatenate([[0], held]))):
            delta[t] += int(change) * size
    totals = np.cumsum([delta[t] for t in times])
    return _with_work(ev, times, totals)


def conditional(ev, phantom=None, one_to_one=True, inductor_timeline=True) -> int:
    """The phase's peak under Inductor's conditional reuse (``AllocateLine.should_reuse_buffer``):
    the latest freed storage of a size is reused by the next allocation of that size only if its
    size plus the peak in between stays within the phase's peak P; held, it raises the levels in
    between. P is taken on Inductor's timeline (``inductor_timeline``: no output in place) with
    the ``phantom`` storages (times, bytes) counted at their kernel."""
    events = _events(ev, one_to_one)
    times = sorted({e[0] for e in events})
    pos = {t: i for i, t in enumerate(times)}
    added, change = np.zeros(len(times), np.int64), np.zeros(len(times), np.int64)
    for t, d, s in events:
        change[pos[t]] += d * s
        if d > 0:
            added[pos[t]] += s
    after = np.cumsum(change)
    level = np.concatenate([[0], after[:-1]]) + added  # live while each time's kernel runs
    timeline = level.copy()
    if inductor_timeline:  # every free after its kernel (2t + 1), none taken in place
        plain = sorted([(2 * t, s) for t, s in zip(np.asarray(ev.alloc_t).tolist(),
                                                   np.asarray(ev.alloc_s).tolist())]
                       + [(2 * t + 1, -s) for t, s in zip(np.asarray(ev.free_t).tolist(),
                                                          np.asarray(ev.free_s).tolist())])
        cur, j = 0, 0
        for i, t in enumerate(times):
            while j < len(plain) and plain[j][0] < t:
                cur += plain[j][1]
                j += 1
            timeline[i] = cur + added[i]
    if phantom is not None:
        for t, s in zip(*phantom):
            k = int(np.searchsorted(times, 2 * int(t), side="right")) - 1
            if k >= 0:
                timeline[k] += int(s)
    limit = timeline.max() if len(times) else 0
    hold = np.zeros(len(times), np.int64)
    freed: dict[int, list[int]] = {}
    for t, d, s in events:
        i = pos[t]
        if d < 0:
            freed.setdefault(s, []).append(i)
            continue
        stack = freed.get(s)
        if stack:
            lo = stack[-1] + 1
            between = int((level[lo:i] + hold[lo:i]).max()) if i > lo else 0
            if s + between <= limit:
                stack.pop()
                hold[lo:i] += s
    return _with_work(ev, times, level + hold)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plans", default=DEFAULT_PLANS)
    parser.add_argument("--models", nargs="*", default=None)
    parser.add_argument("--set", nargs="*", default=[], help="NAME=0|1: a FLAGS or script switch")
    args = parser.parse_args(argv)
    flags = getattr(ref, "FLAGS", None)
    if flags is None:
        print("peak_variants: tests/_peak_reference.py is not patched (see the docstring)",
              file=sys.stderr)
        return 2
    for item in args.set:
        key, value = item.split("=")
        (SWITCHES if key in SWITCHES else flags)[key] = int(value)
    with open(args.plans) as f:
        plans = json.load(f)
    models = args.models or sorted({k.split(":")[0] for k in plans})
    every = []
    for name in models:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            graph = Session(name).plan(Options()).graph
        index = {graph.nodes[i].name: i for i in range(graph.num_nodes)}
        rows = []
        for key, plan in sorted((k, v) for k, v in plans.items() if k.split(":")[0] == name):
            saved = np.array(sorted(index[n] for n in plan["saved"]), dtype=np.int64)
            f, b, _ = phase_events(graph, saved)
            old = max(f.peak(), b.peak())
            f2, b2, _ = ref.phase_events(graph, saved)
            if SWITCHES["cond"]:
                ph = ref.PHANTOM if SWITCHES["ph"] else {}
                new = max(conditional(f2, ph.get("fw"), SWITCHES["o2o"], SWITCHES["indt"]),
                          conditional(b2, ph.get("bw"), SWITCHES["o2o"], SWITCHES["indt"]))
            else:
                new = max(pooled(f2, SWITCHES["o2o"]), pooled(b2, SWITCHES["o2o"]))
            m = plan["measured"]
            rows.append(((old - m) / m, (new - m) / m, key))
        every += rows
        _line(name, rows)
        for a, b_, key in rows:
            if abs(a - b_) > 0.005:
                print(f"      {a:+7.1%} -> {b_:+7.1%}  {key}")
    _line("all", every)
    return 0


def _line(name: str, rows) -> None:
    o, n = np.array([r[0] for r in rows]), np.array([r[1] for r in rows])
    print(f"{name:14s} n={len(rows):3d}  old mean {np.abs(o).mean():5.1%} [{o.min():+6.1%}, "
          f"{o.max():+6.1%}] within 10% {np.mean(np.abs(o) <= .1):4.0%}   new mean "
          f"{np.abs(n).mean():5.1%} [{n.min():+6.1%}, {n.max():+6.1%}] within 10% "
          f"{np.mean(np.abs(n) <= .1):4.0%}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
