"""One measured plan: the peak estimate's backward next to the code Inductor generated for it.

    python bench/peak_diff.py KEY [--plans bench/recorded/peak-cpu-2026-11-27-plans.json]
                                  [--held 24]

``KEY`` names a plan of the stored file, or a unique prefix of its name (``peak_replay.py
--rows`` lists every key with its error). The plan is compiled as stored: its saved nodes, by name, emitted by
``fusioncut.emit.build_modules`` as Inductor's partition. Its backward is then walked twice:

- by the estimate (``fusioncut.peak.phase_events``), one event at a time through Inductor's
  buffer reuse as ``peak.reuse_peak`` counts it, each storage named by the nodes that held it
  (a reused storage passes from one value to the next);
- by ``inductor_walk`` over the generated backward (its allocations, reuses and frees).

Printed: estimate and measurement (forward, kept, backward), the storages each walk holds at
its peak, and a timeline: at each kernel of the generated code (its ``Topologically Sorted
Source Nodes`` comment) the bytes the code holds, next to the bytes the estimate holds at the
latest of those nodes in its own order. The code walk counts only what the code owns (saved
values and tangents, not parameters or the layout copies Inductor hands over), so the two
columns differ by a slowly changing offset; where that offset jumps, the estimate and the code
part. This is the loop behind the rules in docs/budget.md, "What the estimate misses".
"""

from __future__ import annotations

import argparse
import copy
import os
import re
import sys
import warnings
from dataclasses import dataclass, field

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from budget_peak import Session, _compiled_step  # noqa: E402
from inductor_walk import walk  # noqa: E402
from peak_replay import DEFAULT_PLANS, stored_plan  # noqa: E402

from fusioncut.emit import build_modules  # noqa: E402
from fusioncut.graph import JointGraph  # noqa: E402
from fusioncut.options import Options  # noqa: E402
from fusioncut.peak import PeakEstimate, PhaseEvents, phase_events  # noqa: E402

__all__ = ["Storage", "compile_plan", "diff", "reused_storages"]

MIB = 2 ** 20
_SOURCES = re.compile(r"Source Nodes: \[(.*?)\]")


@dataclass
class Storage:
    """One storage of the walk: its bytes, its life in event time (allocation at 2t,
    free at 2t + 1, or 2t - 1 ahead of an in-place allocation of its size) and the values it
    held, in order."""

    size: int
    start: int
    end: int | None = None  # None: held to the end
    nodes: list[int] = field(default_factory=list)

    def live(self, at: int) -> bool:
        return self.start <= at and (self.end is None or self.end > at)


def reused_storages(events: PhaseEvents) -> list[Storage]:
    """The storages of one phase as ``peak.reuse_peak`` counts them: an in-place allocation
    takes one dying input of its time and size; any other allocation takes the storage of its
    size freed most recently when holding it from its free keeps the live bytes in between,
    with the reuses granted so far, within the peak of Inductor's own estimate (every storage
    freed after its last use, nothing in place, the phantoms counted); otherwise a new one."""
    handed: dict[tuple[int, int], int] = {}
    for t, s, p in zip(events.alloc_t.tolist(), events.alloc_s.tolist(),
                       events.in_place.tolist()):
        if p:
            handed[(t, s)] = handed.get((t, s), 0) + 1
    timed = [(2 * t, 0, k, s, n) for k, (t, s, n) in enumerate(zip(
        events.alloc_t.tolist(), events.alloc_s.tolist(), events.alloc_node.tolist()))]
    for k, (t, s, n) in enumerate(zip(events.free_t.tolist(), events.free_s.tolist(),
                                      events.free_node.tolist())):
        first = handed.get((t, s), 0) > 0
        if first:
            handed[(t, s)] -= 1
        timed.append((2 * t - 1 if first else 2 * t + 1, 1, k, s, n))
    timed.sort()
    keys = sorted({e[0] for e in timed})
    index = {key: i for i, key in enumerate(keys)}
    live = [0] * len(keys)  # bytes alive while each key's kernel runs, no reuse held
    running = 0
    for i, key in enumerate(keys):
        live[i] = running + sum(e[3] for e in timed if e[0] == key and e[1] == 0)
        running += sum(e[3] * (1 if e[1] == 0 else -1) for e in timed if e[0] == key)
    inductor = [sum(s for t, s in zip(events.alloc_t.tolist(), events.alloc_s.tolist())
                    if 2 * t <= key)
                - sum(s for t, s in zip(events.free_t.tolist(), events.free_s.tolist())
                      if 2 * t + 1 < key) for key in keys]
    for t, s in zip(events.phantom_t.tolist(), events.phantom_s.tolist()):
        at = [i for i, key in enumerate(keys) if key <= 2 * t]
        if at:
            inductor[at[-1]] += s
    limit = max(inductor, default=0)
    storages: list[Storage] = []
    held_by: dict[int, int] = {}  # node -> its storage
    pool: dict[int, list[tuple[int, int]]] = {}  # size -> (key index of the free, storage)
    for key, kind, _, size, node in timed:
        i = index[key]
        if kind == 1:
            k = held_by[node]
            storages[k].end = key
            pool.setdefault(size, []).append((i, k))
            continue
        stack = pool.get(size)
        if stack:
            lo, k = stack[-1]
            if size + max(live[lo + 1:i], default=0) <= limit:
                stack.pop()
                for j in range(lo + 1, i):
                    live[j] += size
                storages[k].end = None
                storages[k].nodes.append(node)
                held_by[node] = k
                continue
        storages.append(Storage(size, key, None, [node]))
        held_by[node] = len(storages) - 1
    return storages


def _held(storages: list[Storage], at: int) -> list[Storage]:
    return [s for s in storages if s.live(at)]


def _peak(events: PhaseEvents, storages: list[Storage]) -> tuple[int, int]:
    """(bytes, event time) of the phase's peak, workspaces included."""
    work: dict[int, int] = {}
    for t, b in zip(events.work_t, events.work_s):
        work[2 * int(t)] = work.get(2 * int(t), 0) + int(b)
    best = (0, 0)
    for at in sorted({s.start for s in storages} | set(work)):
        total = sum(s.size for s in _held(storages, at)) + work.get(at, 0)
        best = max(best, (total, -at))
    return best[0], -best[1]


def compile_plan(session: Session, saved: list[str]) -> list[str]:
    """Paths of the code Inductor generates for ``session``'s model when the partition saves
    the joint nodes named ``saved`` (compiled afresh, two steps run)."""
    def partition(gm, joint_inputs, **kwargs):
        graph = JointGraph.from_fx(gm, kwargs["num_fwd_outputs"],
                                   static_lifetime_input_indices=kwargs.get(
                                       "static_lifetime_input_indices"))
        index = {graph.nodes[i].name: i for i in range(graph.num_nodes)}
        values, symbols = graph.split_saved(np.array(sorted(index[n] for n in saved)))
        return build_modules(gm, values, symbols, num_fwd_outputs=kwargs["num_fwd_outputs"],
                             static_lifetime_input_indices=kwargs.get(
                                 "static_lifetime_input_indices"))

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, _, code = _compiled_step(copy.deepcopy(session.module), session.inputs, partition)
    return code


def diff(session: Session, saved: list[str], held: int = 24) -> dict:
    """The estimate's backward and the generated backward of the plan saving ``saved``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        graph = session.plan(Options()).graph
    index = {graph.nodes[i].name: i for i in range(graph.num_nodes)}
    missing = [n for n in saved if n not in index]
    if missing:
        raise ValueError(f"peak_diff: the plan saves {missing[:3]}, which the captured graph "
                         f"of {session.name} does not have")
    nodes = np.array(sorted(index[n] for n in saved), dtype=np.int64)
    forward, backward, kept = phase_events(graph, nodes)
    est = PeakEstimate(forward.peak(), backward.peak(), kept)
    storages = reused_storages(backward)
    peak, at = _peak(backward, storages)
    name = lambda ids: ", ".join(graph.nodes[i].name for i in ids[-3:])  # noqa: E731
    estimate_held = [(s.size, name(s.nodes)) for s in
                     sorted(_held(storages, at), key=lambda s: -s.size)[:held]]
    # Bytes the estimate holds at each backward node (after the allocations of its time).
    time = backward.time
    holds = {graph.nodes[i].name: (int(time[i]), sum(s.size for s in _held(storages, 2 * int(
        time[i])))) for i in np.flatnonzero(time >= 0)}
    code = [p for p in compile_plan(session, saved) if "tangents_" in open(p).read()]
    if len(code) != 1:
        raise RuntimeError(f"peak_diff: {len(code)} generated backward modules; one expected")
    generated = walk(code[0])
    timeline = []
    for held_bytes, line in generated.timeline:
        found = _SOURCES.search(line)
        if not found:
            continue
        names = [x.strip() for x in found.group(1).split(",")]
        hits = [(holds[x][0], holds[x][1], x) for x in names if x in holds]
        if hits:
            t, b, x = max(hits)
            timeline.append({"code": held_bytes, "estimate": b, "time": t, "node": x,
                             "sources": len(names)})
    return {"estimate": est, "walk_peak": peak, "walk_agrees": peak == est.backward_peak,
            "estimate_at": graph.nodes[np.flatnonzero(time == at // 2)[0]].name
            if (time == at // 2).any() else None,
            "estimate_held": estimate_held, "code": code[0], "code_peak": generated.peak,
            "code_start": generated.start, "code_peak_line": generated.peak_line.strip(),
            "code_held": generated.held_at_peak[:held], "timeline": timeline}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("key")
    parser.add_argument("--plans", default=DEFAULT_PLANS)
    parser.add_argument("--held", type=int, default=24, help="storages listed at each peak")
    args = parser.parse_args(argv)
    found = stored_plan(args.plans, args.key, "peak_diff")
    if found is None:
        return 2
    key, plan = found
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        session = Session(key.split(":")[0])
    print(key)
    r = diff(session, plan["saved"], args.held)
    est = r["estimate"]
    print(f"estimate  forward {est.forward_peak / MIB:8.3f}  kept {est.kept_bytes / MIB:8.3f}  "
          f"backward {est.backward_peak / MIB:8.3f} MiB")
    print(f"measured  forward {plan['measured_forward'] / MIB:8.3f}  kept "
          f"{plan['measured_kept'] / MIB:8.3f}  backward {plan['measured_backward'] / MIB:8.3f} "
          f"MiB")
    if not r["walk_agrees"]:
        print(f"(the named walk's peak {r['walk_peak']:,} B differs from the estimate's)")
    print(f"\nestimate's backward peak, at {r['estimate_at']}:")
    for size, names in r["estimate_held"]:
        print(f"  {size / MIB:8.3f}  {names}")
    print(f"\ngenerated backward ({r['code']}): peak {r['code_peak'] / MIB:.3f} MiB (owned "
          f"arguments {r['code_start'] / MIB:.3f}) at\n  {r['code_peak_line'][:120]}")
    for name, size in r["code_held"]:
        print(f"  {size / MIB:8.3f}  {name}")
    print("\n    code  estimate   time  node (the latest of the kernel's source nodes)")
    for row in r["timeline"]:
        print(f"{row['code'] / MIB:8.3f}  {row['estimate'] / MIB:8.3f}  {row['time']:5d}  "
              f"{row['node']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
