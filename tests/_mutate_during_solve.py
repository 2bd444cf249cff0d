"""Solves in a loop while other threads write bad values into the arrays being solved.

Run by tests/test_hostile_solver.py in a subprocess, so that a crash fails that test instead of
killing pytest::

    python tests/_mutate_during_solve.py [--solves-per-mode N] [--seconds S]

Every mutator thread owns one array. It writes an out-of-range index or a negative (or
above-INF) capacity into it, yields the GIL, and writes the original value back, over and over;
the "bulk" mutators swap the whole array with np.copyto, which numpy may run without the GIL.
So at any moment each array holds its original values except for invalid ones, and the only
valid snapshot is the original graph: every solve must return exactly the original cut, or
raise ValueError or IndexError whose message starts with the function's name.

Prints one JSON line of counts per mode and exits 0 iff every solve did one or the other.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time

import numpy as np

import fusioncut
from fusioncut import INF, _core

ALLOWED_ERRORS = (ValueError, IndexError)


def node_split_graph(rng: np.random.Generator, k: int):
    """A dataflow network split the way the partitioner splits it (most edges infinite: the
    live-network route of min_cut), with its node view for NodeCutGraph."""
    dep_src = rng.integers(0, k - 1, 3 * k)
    dep_dst = np.minimum(dep_src + rng.integers(1, 20, 3 * k), k - 1)
    weights = rng.integers(1, 1000, k).astype(np.int64)
    nodes = np.arange(k, dtype=np.int64)
    src = np.concatenate([2 * nodes, 2 * dep_src + 1, [2 * k] * 5, 2 * nodes[-5:] + 1])
    dst = np.concatenate([2 * nodes + 1, 2 * dep_dst, 2 * nodes[:5], [2 * k + 1] * 5])
    capacity = np.concatenate([weights, np.full(3 * k + 10, INF, dtype=np.int64)])
    edges = (2 * k + 2, src.astype(np.int64), dst.astype(np.int64), capacity, 2 * k, 2 * k + 1)
    node_view = (k, dep_src.astype(np.int64), dep_dst.astype(np.int64), weights)
    return edges, node_view


def finite_graph(rng: np.random.Generator, n: int, m: int):
    """Random finite capacities (few infinite edges: the in-place route)."""
    src = rng.integers(0, n, m).astype(np.int64)
    dst = rng.integers(0, n, m).astype(np.int64)
    return n, src, dst, rng.integers(0, 50, m).astype(np.int64), 0, 1


class Mutator(threading.Thread):
    """Writes bad values into one array and restores them, until stopped."""

    def __init__(self, array: np.ndarray, bad_values, seed: int, bulk: bool = False):
        super().__init__(daemon=True)
        self.array, self.bad_values, self.bulk = array, list(bad_values), bulk
        self.original = array.copy()
        self.rng = np.random.default_rng(seed)  # one per thread: Generators are not shared
        self.stop = threading.Event()
        self.writes = 0
        self.good_seconds = 1e-3

    def run(self) -> None:
        array, original = self.array, self.original
        while not self.stop.is_set():
            bad = self.bad_values[self.writes % len(self.bad_values)]
            if self.bulk:
                corrupted = original.copy()
                corrupted[self.rng.integers(0, len(array), 8)] = bad
                np.copyto(array, corrupted)
                time.sleep(0)
                np.copyto(array, original)
            else:
                i = int(self.rng.integers(0, len(array)))
                array[i] = bad
                time.sleep(0)
                array[i] = original[i]
            self.writes += 1
            # Bad for one switch, good for a while: solves see both.
            time.sleep(self.good_seconds)
        np.copyto(array, original)


def same_cut(a, b) -> bool:
    return (a.value == b.value and np.array_equal(a.source_side, b.source_side)
            and np.array_equal(a.cut_edges, b.cut_edges))


def same_node_cut(a, b) -> bool:
    return (a.value == b.value and np.array_equal(a.cut_nodes, b.cut_nodes)
            and np.array_equal(a.source_side_in, b.source_side_in)
            and np.array_equal(a.source_side_out, b.source_side_out))


class Tally:
    def __init__(self) -> None:
        self.counts: dict[str, dict[str, int]] = {}
        self.failures: list[str] = []

    def run(self, mode: str, function: str, solve, matches) -> None:
        counts = self.counts.setdefault(mode, {"solves": 0, "ok": 0, "errors": 0,
                                               "first_error": ""})
        counts["solves"] += 1
        try:
            result = solve()
        except ALLOWED_ERRORS as e:
            if not str(e).startswith(function + ":"):
                self.failures.append(f"{mode}: {type(e).__name__} without the function: {e}")
            counts["errors"] += 1
            counts["first_error"] = counts["first_error"] or f"{type(e).__name__}: {e}"
            return
        except Exception as e:  # noqa: BLE001 - anything else is a failure to report
            self.failures.append(f"{mode}: unexpected {type(e).__name__}: {e}")
            return
        if matches(result):
            counts["ok"] += 1
        else:
            self.failures.append(f"{mode}: a solve returned a cut of no snapshot: {result!r}")


def with_mutators(mutators, body) -> None:
    for m in mutators:
        m.start()
    try:
        body()
    finally:
        for m in mutators:
            m.stop.set()
        for m in mutators:
            m.join()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--solves-per-mode", type=int, default=80)
    parser.add_argument("--seconds", type=float, default=1.5, help="per mode, at most")
    args = parser.parse_args()
    sys.setswitchinterval(1e-5)  # switch threads often: more interleavings per second
    rng = np.random.default_rng(0)
    tally = Tally()

    def loop(mode, function, solve, matches):
        deadline = time.perf_counter() + args.seconds
        for _ in range(args.solves_per_mode):
            tally.run(mode, function, solve, matches)
            if time.perf_counter() > deadline:
                break

    bad_index = [-1, 2**40, -(2**62), 2**31 - 1]
    bad_capacity = [-1, INF + 1, -(2**63), 2**63 - 1]

    # 1. min_cut, live-network route: single-element writes (each holds the GIL).
    edges, node_view = node_split_graph(rng, 3000)
    n, src, dst, cap, s, t = edges
    expected = fusioncut.min_cut(*edges)
    with_mutators(
        [Mutator(src, bad_index, 1), Mutator(dst, bad_index, 2), Mutator(cap, bad_capacity, 3)],
        lambda: loop("min_cut live", "min_cut", lambda: fusioncut.min_cut(n, src, dst, cap, s, t),
                     lambda r: same_cut(r, expected)))

    # 2. _core.min_cut, in-place route: whole-array swaps that numpy may make without the GIL.
    n, src, dst, cap, s, t = finite_graph(rng, 3000, 20000)
    expected = _core.min_cut(n, src, dst, cap, s, t)
    with_mutators(
        [Mutator(src, bad_index, 4, bulk=True), Mutator(dst, bad_index, 5, bulk=True),
         Mutator(cap, bad_capacity, 6, bulk=True)],
        lambda: loop("_core.min_cut in place, bulk", "min_cut",
                     lambda: _core.min_cut(n, src, dst, cap, s, t),
                     lambda r: (r.value == expected.value
                                and np.array_equal(r.source_side, expected.source_side)
                                and np.array_equal(r.cut_edges, expected.cut_edges))))

    # 3. min_cut on int32 arrays: numpy checks them, then converts them: two reads.
    src32, dst32 = src.astype(np.int32), dst.astype(np.int32)
    with_mutators(
        [Mutator(src32, [-1, 2**31 - 1], 7), Mutator(dst32, [-5, 3000], 8)],
        lambda: loop("min_cut int32", "min_cut",
                     lambda: fusioncut.min_cut(n, src32, dst32, cap, s, t),
                     lambda r: same_cut(r, expected)))

    # 4. NodeCutGraph.solve and solve_int64 with the weights mutated.
    k, dep_src, dep_dst, weights = node_view
    graph = fusioncut.NodeCutGraph(k, dep_src, dep_dst, source_in=np.arange(5),
                                   sink_out=np.arange(k - 5, k))
    expected_nodes = graph.solve(weights)
    calls = [graph.solve, graph.solve_int64]
    counter = iter(range(10**9))
    with_mutators(
        [Mutator(weights, bad_capacity, 9)],
        lambda: loop("NodeCutGraph.solve", "NodeCutGraph.solve",
                     lambda: calls[next(counter) % 2](weights),
                     lambda r: same_node_cut(r, expected_nodes)))

    # 5. NodeCutGraph construction with the dependencies and terminals mutated.
    source_in, sink_out = np.arange(5, dtype=np.int64), np.arange(k - 5, k, dtype=np.int64)
    good_weights = weights.copy()

    def construct_and_solve():
        built = fusioncut.NodeCutGraph(k, dep_src, dep_dst, source_in=source_in,
                                       sink_out=sink_out)
        return built.solve_int64(good_weights)

    with_mutators(
        [Mutator(dep_src, bad_index, 10), Mutator(dep_dst, bad_index, 11, bulk=True),
         Mutator(source_in, bad_index, 12), Mutator(sink_out, bad_index, 13)],
        lambda: loop("NodeCutGraph construction", "NodeCutGraph", construct_and_solve,
                     lambda r: same_node_cut(r, expected_nodes)))

    for mode, counts in tally.counts.items():
        print(json.dumps({"mode": mode, **counts}))
    for failure in tally.failures[:20]:
        print("FAILURE:", failure)
    return 1 if tally.failures else 0


if __name__ == "__main__":
    sys.exit(main())
