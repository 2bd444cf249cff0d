"""Benchmark inputs: the recorded torch networks and seeded synthetic families.

Every graph is a ``Network``: the arrays ``fusioncut.min_cut`` takes, all ``int64``::

    num_nodes            vertices 0 .. num_nodes-1
    src[e] -> dst[e]     directed edge e, no self-loops, no duplicate (src, dst) pairs
    capacity[e]          in [0, INF); INF = 2**62 marks an edge that can never be cut
    source, sink         terminal vertex ids

No duplicate pairs because networkx's DiGraph would silently keep only the last one.

Families (``FAMILIES``, each a function ``(size, seed) -> Network``; ``size`` is the
approximate vertex count, from 1k to 1M):

- ``layered``: transformer-like node-split DAGs shaped like the networks torch's partitioner
  builds. Each forward op ``v`` is two vertices ``v_in -> v_out`` with a finite capacity
  (its output bytes); each data dependency ``u -> v`` is ``u_out -> v_in`` with capacity INF.
  Per layer: ``width`` branches of [banned matmul (``source -> in`` INF), ``depth`` pointwise
  ops], a residual add joining them; primal weights are banned (``source -> in`` INF).
  Backward consumers are single vertices ``g_in`` with ``g_in -> sink`` INF fed by INF edges
  from the forward values they read, as torch builds them.
- ``random_dag``: random sparse DAG, 3 edges per vertex to mostly-nearby later vertices,
  finite capacities; the first 5% of vertices are fed from the source and the last 5% drain
  to the sink.
- ``grid``: 2D 4-connected grid with random capacities both ways and terminal edges on every
  pixel, the segmentation-style graph Boykov-Kolmogorov was designed for.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

# fusioncut.INF, spelled out so the generators work without the extension.
INF = 2**62
DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
RECORDED = ("gpt12", "gpt48", "gpt96")


@dataclass(frozen=True)
class Network:
    name: str
    family: str
    num_nodes: int
    src: np.ndarray
    dst: np.ndarray
    capacity: np.ndarray
    source: int
    sink: int
    expected_value: int | None = None  # known min-cut value (recorded networks: networkx's)

    @property
    def num_edges(self) -> int:
        return int(self.src.size)

    def finite_capacity_sum(self) -> int:
        finite = self.capacity[self.capacity < INF]
        return int(finite.sum(dtype=np.int64))


def _finish(
    name: str, family: str, num_nodes: int, src, dst, capacity, source: int, sink: int
) -> Network:
    """Merge duplicate (src, dst) pairs by summing (saturating at INF), drop self-loops."""
    src = np.asarray(src, dtype=np.int64)
    dst = np.asarray(dst, dtype=np.int64)
    capacity = np.asarray(capacity, dtype=np.int64)
    keep = src != dst
    src, dst, capacity = src[keep], dst[keep], capacity[keep]
    key = src * num_nodes + dst
    order = np.argsort(key, kind="stable")
    key, capacity = key[order], capacity[order]
    first = np.ones(key.size, dtype=bool)
    first[1:] = key[1:] != key[:-1]
    starts = np.flatnonzero(first)
    is_inf = np.logical_or.reduceat(capacity >= INF, starts) if key.size else first
    finite = np.add.reduceat(np.where(capacity >= INF, 0, capacity), starts) if key.size else key
    merged = np.where(is_inf | (finite >= INF), INF, finite).astype(np.int64)
    key = key[starts]
    return Network(
        name, family, num_nodes, key // num_nodes, key % num_nodes, merged, source, sink
    )


def load_recorded(name: str) -> Network:
    """A network recorded by record_torch_networks.py (``name`` in RECORDED)."""
    with np.load(os.path.join(DATA_DIR, f"{name}.npz")) as data:
        return Network(
            name,
            "torch",
            int(data["num_nodes"]),
            data["src"].astype(np.int64),
            data["dst"].astype(np.int64),
            data["capacity"].astype(np.int64),
            int(data["source"]),
            int(data["sink"]),
            expected_value=int(data["cut_value"]),
        )


def recorded_nx_seconds(name: str) -> float:
    """How long torch's own networkx.minimum_cut call took when the network was recorded."""
    with np.load(os.path.join(DATA_DIR, f"{name}.npz")) as data:
        return float(data["nx_seconds"])


# Tensor sizes in bytes a layer's values take (hidden, 3x, 4x hidden, attention scores), the
# spread the recorded networks show; the partitioner scales them by 1.1**distance.
_LAYERED_BYTES = np.array([4096, 12288, 16384, 8192, 2048], dtype=np.int64)
_LAYERED_BACKWARD_READS = 0.6  # chance a forward value is read by a backward op


def layered(size: int, seed: int, *, width: int = 3, depth: int = 4) -> Network:
    """Transformer-like node-split DAG with about ``size`` vertices (see module docstring).

    Forward op ``k`` owns vertices ``2 + 2k`` (in) and ``3 + 2k`` (out); op 0 is the embedding,
    then each layer's ops in the order: ``width`` weights, ``width`` matmuls, ``depth`` levels
    of ``width`` pointwise ops, one residual add. Backward vertices come after all of them.
    """
    rng = np.random.default_rng(seed)
    per_layer = width * (depth + 2) + 1
    vertices_per_layer = (2 + _LAYERED_BACKWARD_READS) * per_layer
    layers = max(1, round((size - 4) / vertices_per_layer))
    num_ops = 1 + layers * per_layer

    def v_in(op):
        return 2 + 2 * np.asarray(op, dtype=np.int64)

    def v_out(op):
        return 3 + 2 * np.asarray(op, dtype=np.int64)

    base = 1 + per_layer * np.arange(layers, dtype=np.int64)[:, None]  # (layers, 1)
    lane = np.arange(width, dtype=np.int64)[None, :]
    weights = base + lane
    matmuls = base + width + lane
    levels = [base + (2 + k) * width + lane for k in range(depth)]
    adds = base[:, 0] + per_layer - 1
    x_prev = np.concatenate([[0], adds[:-1]])[:, None]  # residual stream entering each layer

    src, dst, cap = [], [], []

    def add(u, v, c) -> None:
        u, v = np.broadcast_arrays(u, v)
        src.append(u.ravel())
        dst.append(v.ravel())
        cap.append(np.broadcast_to(np.asarray(c, np.int64), u.shape).ravel())

    ops = np.arange(num_ops, dtype=np.int64)
    nbytes = rng.choice(_LAYERED_BYTES, num_ops) * rng.uniform(1.0, 2.0, num_ops)
    add(v_in(ops), v_out(ops), nbytes.astype(np.int64))  # save op's output: its bytes
    banned = np.concatenate([[0], weights.ravel(), matmuls.ravel()])
    add(0, v_in(banned), INF)  # primals, weights and matmuls are never recomputed
    add(v_out(x_prev), v_in(matmuls), INF)  # data dependencies from here on
    add(v_out(weights), v_in(matmuls), INF)
    add(v_out(matmuls), v_in(levels[0]), INF)
    for k in range(1, depth):
        add(v_out(levels[k - 1]), v_in(levels[k]), INF)
        skip = rng.random(levels[k].shape) < 0.5  # skip connection inside the branch
        add(v_out(matmuls[skip]), v_in(levels[k][skip]), INF)
    add(v_out(levels[-1]), v_in(adds[:, None]), INF)
    add(v_out(x_prev[:, 0]), v_in(adds), INF)
    read = ops[rng.random(num_ops) < _LAYERED_BACKWARD_READS]
    backward = 2 + 2 * num_ops + np.arange(read.size, dtype=np.int64)
    add(v_out(read), backward, INF)  # backward ops read forward values ...
    add(backward, 1, INF)  # ... and must run in the backward
    num_nodes = 2 + 2 * num_ops + read.size
    return _finish(
        f"layered-{_size_label(size)}",
        "layered",
        num_nodes,
        np.concatenate(src),
        np.concatenate(dst),
        np.concatenate(cap),
        0,
        1,
    )


def random_dag(size: int, seed: int, *, degree: int = 3) -> Network:
    """Random sparse DAG with ``size`` vertices (see module docstring)."""
    rng = np.random.default_rng(seed)
    n = max(size, 20)
    m = degree * n
    u = rng.integers(2, n - 1, m)
    v = np.minimum(u + 1 + rng.geometric(0.05, m), n - 1)
    cap = rng.integers(1, 1000, m)
    ends = max(1, n // 20)
    src = np.concatenate([u, np.zeros(ends, np.int64), np.arange(n - ends, n)])
    dst = np.concatenate([v, np.arange(2, 2 + ends), np.ones(ends, np.int64)])
    cap = np.concatenate([cap, rng.integers(500, 5000, 2 * ends)])
    return _finish(f"random_dag-{_size_label(size)}", "random_dag", n, src, dst, cap, 0, 1)


def grid(size: int, seed: int) -> Network:
    """2D 4-connected grid of about ``size`` pixels (see module docstring)."""
    rng = np.random.default_rng(seed)
    side = max(2, round(math.sqrt(size)))
    pixel = np.arange(side * side, dtype=np.int64).reshape(side, side) + 2
    right = (pixel[:, :-1].ravel(), pixel[:, 1:].ravel())
    down = (pixel[:-1, :].ravel(), pixel[1:, :].ravel())
    u = np.concatenate([right[0], right[1], down[0], down[1]])
    v = np.concatenate([right[1], right[0], down[1], down[0]])
    cap = rng.integers(1, 100, u.size)
    flat = pixel.ravel()
    # Terminal weights that make a blob-shaped foreground, like a segmentation data term.
    yy, xx = np.mgrid[0:side, 0:side] / side
    fg = ((yy - 0.5) ** 2 + (xx - 0.5) ** 2 < 0.1).ravel()
    noise = rng.integers(0, 60, flat.size)
    to_source = np.where(fg, 60 + noise, noise)
    to_sink = np.where(fg, noise, 60 + noise)
    src = np.concatenate([u, np.zeros(flat.size, np.int64), flat])
    dst = np.concatenate([v, flat, np.ones(flat.size, np.int64)])
    cap = np.concatenate([cap, to_source, to_sink])
    return _finish(f"grid-{_size_label(size)}", "grid", side * side + 2, src, dst, cap, 0, 1)


def _size_label(size: int) -> str:
    if size >= 1_000_000 and size % 1_000_000 == 0:
        return f"{size // 1_000_000}M"
    if size >= 1000 and size % 1000 == 0:
        return f"{size // 1000}k"
    return str(size)


FAMILIES: dict[str, Callable[[int, int], Network]] = {
    "layered": layered,
    "random_dag": random_dag,
    "grid": grid,
}
SIZES = (1_000, 10_000, 100_000, 1_000_000)
QUICK_SIZES = (1_000, 10_000)
