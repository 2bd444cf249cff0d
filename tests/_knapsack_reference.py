"""The numpy programme ``_core.gap_knapsack`` replaced (fusioncut.budget_reach before it moved to
C++, csrc/knapsack.h), kept as the reference the C++ one is checked against
(tests/test_budget_reach.py): the same totals, closures and steps, to the index."""

from __future__ import annotations

import numpy as np


def gap_knapsack(value: np.ndarray, tail: np.ndarray, head: np.ndarray, max_closures: int,
                 max_totals: int):
    """``(totals, options, parents, option_index)`` as ``_core.gap_knapsack`` returns them."""
    count = len(value)
    parent = list(range(count))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for t, h in zip(tail.tolist(), head.tolist()):
        a, b = find(t), find(h)
        if a != b:
            parent[max(a, b)] = min(a, b)
    groups: dict[int, list[int]] = {}
    for c in range(count):
        groups.setdefault(find(c), []).append(c)
    succ: dict[int, list[int]] = {}
    for t, h in zip(tail.tolist(), head.tolist()):
        succ.setdefault(t, []).append(h)
    values = value.tolist()
    totals = np.zeros(1, dtype=np.int64)
    options, parents, picks = [], [], []
    for members in groups.values():
        if not any(values[c] for c in members):
            continue
        closures = _closures(members, succ, values, max_closures)
        vals = np.array([sum(values[c] for c in cl) for cl in closures], dtype=np.int64)
        cand = (totals[:, None] + vals[None, :]).ravel()
        uniq, idx = np.unique(cand, return_index=True)
        if len(uniq) > max_totals:
            keep = _thin(uniq, max_totals)
            uniq, idx = uniq[keep], idx[keep]
        options.append(closures)
        parents.append(idx // len(vals))
        picks.append(idx % len(vals))
        totals = uniq
    return totals, options, parents, picks


def _closures(members, succ, values, max_closures):
    out: dict[int, list[int]] = {0: []}
    chosen: set[int] = set()
    visited = 0 if len(members) <= max_closures else max_closures

    def walk(i: int, total: int) -> None:
        nonlocal visited
        if visited >= max_closures:
            return
        if i == len(members):
            visited += 1
            out.setdefault(total, sorted(chosen))
            return
        c = members[i]
        walk(i + 1, total)
        if all(h in chosen for h in succ.get(c, ())):
            chosen.add(c)
            walk(i + 1, total + values[c])
            chosen.discard(c)

    walk(0, 0)
    if visited >= max_closures:
        total = 0
        for j, c in enumerate(members):
            total += values[c]
            out.setdefault(total, members[:j + 1])
    return list(out.values())


def _thin(totals: np.ndarray, max_totals: int) -> np.ndarray:
    span = int(totals[-1] - totals[0]) + 1
    bins = (totals - totals[0]).astype(np.float64) * (max_totals / span)
    _, first = np.unique(bins.astype(np.int64), return_index=True)
    return np.union1d(first, [len(totals) - 1])
