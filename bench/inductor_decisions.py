"""What Inductor decided about memory while compiling one measured plan.

    python bench/inductor_decisions.py KEY [--plans bench/recorded/peak-cpu-2026-11-27-plans.json]

``KEY`` names a stored plan, or a unique prefix of its key (``peak_replay.py --rows`` lists
them). The plan is compiled as stored (``peak_diff.compile_plan``), and two of Inductor's
decisions are recorded on the way, per generated graph (forward, then backward):

- ``reorder_for_peak_memory``: the peak its own estimate gives the scheduler's order after
  fusion ("baseline") and each reordering it tries (LPMF, BFS, DFS); it keeps the lowest;
- ``AllocateLine.should_reuse_buffer``: for each allocation that finds a freed buffer of its
  size in the pool, the two scheduler-node indices, the bytes, the largest bytes its estimate
  holds between them, its overall peak and whether it reused the buffer (adjacent nodes
  always do; otherwise only when the bytes on top of the peak between stay within the overall
  peak, and a rejected buffer waits for a later allocation or is freed where it died).

These are the facts ``fusioncut.peak`` approximates (docs/budget.md, "What the estimate
misses"). The recording wraps two functions of ``torch._inductor`` for the length of the
compile; on a torch without them the script says so and exits with 2.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import warnings
from dataclasses import dataclass, field

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from budget_peak import Session  # noqa: E402
from peak_diff import compile_plan  # noqa: E402
from peak_replay import DEFAULT_PLANS, stored_plan  # noqa: E402

__all__ = ["Decisions", "recorded", "main"]

MIB = 2 ** 20


@dataclass
class Decisions:
    """Inductor's memory decisions of one compile, graph by graph in compile order."""

    reorders: list[dict] = field(default_factory=list)  # {"baseline": bytes, ...} per graph
    reuses: list[list[dict]] = field(default_factory=list)  # the reuse decisions per graph


def _hooks():
    """(memory module, wrapper module) of torch._inductor, or None where they are missing."""
    try:
        import torch._inductor.codegen.wrapper as wrapper
        import torch._inductor.memory as memory
    except ImportError:
        return None
    if not (hasattr(memory, "signpost_event") and hasattr(wrapper, "AllocateLine") and
            hasattr(wrapper.AllocateLine, "should_reuse_buffer")):
        return None
    return memory, wrapper


@contextlib.contextmanager
def recorded():
    """Records the decisions of the compiles run inside it (``Decisions``); RuntimeError on a
    torch whose Inductor lacks the two functions."""
    hooks = _hooks()
    if hooks is None:
        raise RuntimeError("inductor_decisions: this torch's Inductor has no "
                           "reorder_for_peak_memory signpost or should_reuse_buffer")
    memory, wrapper = hooks
    out = Decisions()
    signpost, should_reuse = memory.signpost_event, wrapper.AllocateLine.should_reuse_buffer
    seen_estimates: set[int] = set()

    def signpost_recorder(category, name, parameters):
        if name == "memory" and "orm" in parameters:
            out.reorders.append(dict(parameters["orm"]))
        return signpost(category, name, parameters)

    def reuse_recorder(self, free_line, size):
        decision = should_reuse(self, free_line, size)
        estimate = self.wrapper.estimate_peak
        if id(estimate) not in seen_estimates:  # one estimate per generated graph
            seen_estimates.add(id(estimate))
            out.reuses.append([])
        adjacent = free_line.scheduler_node_index + 1 == self.scheduler_node_index
        out.reuses[-1].append({
            "allocation": self.node.get_name(), "pooled": free_line.node.get_name(),
            "bytes": int(size), "freed_at": int(free_line.scheduler_node_index),
            "allocated_at": int(self.scheduler_node_index),
            "peak_between": None if adjacent else int(estimate.peak_between(free_line, self)),
            "overall": int(estimate.overall_peak_memory), "reused": bool(decision)})
        return decision

    memory.signpost_event = signpost_recorder
    wrapper.AllocateLine.should_reuse_buffer = reuse_recorder
    try:
        yield out
    finally:
        memory.signpost_event = signpost
        wrapper.AllocateLine.should_reuse_buffer = should_reuse


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("key")
    parser.add_argument("--plans", default=DEFAULT_PLANS)
    args = parser.parse_args(argv)
    found = stored_plan(args.plans, args.key, "inductor_decisions")
    if found is None:
        return 2
    if _hooks() is None:
        print("inductor_decisions: this torch's Inductor has no reorder_for_peak_memory "
              "signpost or should_reuse_buffer", file=sys.stderr)
        return 2
    key, plan = found
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        session = Session(key.split(":")[0])
    with recorded() as decisions:
        compile_plan(session, plan["saved"])
    print(key)
    for g, orders in enumerate(decisions.reorders):
        best = min(orders, key=orders.get)
        shown = ", ".join(f"{m.replace('topological_sort_', '')} {b / MIB:.3f}"
                          for m, b in orders.items())
        print(f"graph {g}: reorder_for_peak_memory estimates (MiB) {shown}; kept {best}")
    for g, rows in enumerate(decisions.reuses):
        print(f"\ngraph {g}: {len(rows)} pooled-buffer decisions "
              f"({sum(not r['reused'] for r in rows)} rejected); overall "
              f"{rows[0]['overall'] / MIB:.3f} MiB")
        for r in rows:
            between = "adjacent" if r["peak_between"] is None else \
                f"peak between {r['peak_between'] / MIB:.3f}"
            print(f"  {r['allocation']:>7} <- {r['pooled']:<7} {r['bytes'] / MIB:7.3f} MiB  "
                  f"nodes {r['freed_at']}->{r['allocated_at']}  {between}  "
                  f"{'reused' if r['reused'] else 'new'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
