"""Record the flow networks PyTorch's own partitioner builds for GPT-style models.

Torch's ``min_cut_rematerialization_partition`` builds a networkx ``DiGraph`` inside
``solve_min_cut`` and hands it to a ``minimum_cut(G, "source", "sink")``: networkx's up to
torch 2.14, its own pure-Python Dinic (``torch._functorch._activation_checkpointing.min_cut``)
from 2.15. This script traces a small GPT with ``functorch.compile.aot_module`` using that
partitioner, wraps whichever ``minimum_cut`` the installed torch calls for the duration of
the trace, and saves the graph it is given::

    bench/data/gpt{L}.npz
        num_nodes  int64 scalar       vertices, "source" and "sink" included
        src, dst   int32 (num_edges,) edge endpoints, vertex ids in networkx insertion order
        capacity   int64 (num_edges,) 'capacity' attribute; missing or math.inf -> INF = 2**62
        source     int64 scalar       id of "source"
        sink       int64 scalar       id of "sink"
        cut_value  int64 scalar       the value torch's solver returned (re-checked)
        nx_seconds float64 scalar     how long torch's minimum_cut call took
        solver     str scalar         which solver that was, and torch's version
        names      str (num_nodes,)   vertex names ("add_3_in", ...), for debugging

Capacities torch writes are integers (bytes times a distance heuristic) or floats holding an
integer (SymInt sizes, 0.0 for opaque objects); anything else is an error. Torch's finite
"don't save" constant ``INT_INF = 1e6`` stays the finite 10**6 it is to networkx, so the
recorded problem has the same min-cut value as the one torch solved.

Model: ``fusioncut.models.GPT`` in its "record" style (no weight tying): token + position
embedding, N blocks of [LayerNorm, causal self-attention (separate q, k, v Linears, masked
softmax, output Linear, dropout), residual, LayerNorm, MLP (Linear, tanh-GeLU, Linear,
dropout), residual], final LayerNorm, LM head, cross-entropy. Hidden size 32, 2 heads,
sequence 16, vocab 64, batch 2, residual dropout 0.1 (none on the attention probabilities). Separate q/k/v and the two residual dropouts are what
bring the 48-layer network to about 13.8k vertices and 17.4k edges;
a fused qkv Linear without dropout gives 11.4k / 14.4k. The network's size does not depend
on the hidden size, so tracing stays quick on CPU (96 layers in well under a minute).

Usage: python bench/record_torch_networks.py [--layers 12 48 96] [--out bench/data]
"""

from __future__ import annotations

import argparse
import importlib
import math
import os
import time

import networkx
import numpy as np
import torch

from fusioncut._torch_compat import torch_min_cut_solver
from fusioncut.models import GPT, GPTConfig, gpt_config

# fusioncut.INF, spelled out: the recorded data do not depend on the solver's constants.
INF = 2**62


# Sizes of the recorded model (the zoo GPT in its "record" style: LayerNorm,
# F.gelu(approximate="tanh"), separate q/k/v, a causal-mask buffer, residual dropout after
# attention and MLP, untied head).
HIDDEN, HEADS, SEQ, VOCAB, BATCH, DROPOUT = 32, 2, 16, 64, 2, 0.1


def model_config(layers: int) -> GPTConfig:
    return gpt_config("record", n_layer=layers, d_model=HIDDEN, n_head=HEADS, block_size=SEQ,
                      vocab=VOCAB, dropout=DROPOUT)


def _to_capacity(value: object, edge: tuple[str, str]) -> int:
    if value == math.inf:
        return INF
    as_float = float(value)  # type: ignore[arg-type]
    if not as_float.is_integer() or as_float < 0 or as_float >= INF:
        raise ValueError(f"edge {edge}: capacity {value!r} is not an integer in [0, 2**62)")
    return int(value)  # type: ignore[call-overload]


def network_to_arrays(graph: networkx.DiGraph) -> dict[str, np.ndarray]:
    """Number the vertices in insertion order and flatten the edges to numpy arrays."""
    names = list(graph.nodes)
    index = {name: i for i, name in enumerate(names)}
    edges = list(graph.edges(data="capacity", default=math.inf))
    src = np.fromiter((index[u] for u, _, _ in edges), dtype=np.int32, count=len(edges))
    dst = np.fromiter((index[v] for _, v, _ in edges), dtype=np.int32, count=len(edges))
    capacity = np.fromiter(
        (_to_capacity(c, (u, v)) for u, v, c in edges), dtype=np.int64, count=len(edges)
    )
    return {
        "num_nodes": np.int64(len(names)),
        "src": src,
        "dst": dst,
        "capacity": capacity,
        "source": np.int64(index["source"]),
        "sink": np.int64(index["sink"]),
        "names": np.array(names),
    }


def record(layers: int) -> tuple[dict[str, np.ndarray], GPTConfig]:
    """Trace a GPT of ``layers`` blocks and return the network torch's partitioner solved."""
    from functorch.compile import aot_module, min_cut_rematerialization_partition, nop

    cfg = model_config(layers)
    torch.manual_seed(0)
    model = GPT(cfg)
    idx = torch.randint(0, cfg.vocab, (BATCH, cfg.block_size))
    targets = torch.randint(0, cfg.vocab, (BATCH, cfg.block_size))

    calls: list[tuple[networkx.DiGraph, float, float]] = []
    owner = _minimum_cut_owner()
    original = owner.minimum_cut

    def recording_minimum_cut(graph, s, t, *args, **kwargs):
        if (s, t) != ("source", "sink") or args or kwargs:
            raise RuntimeError(f"unexpected minimum_cut call: {s!r}, {t!r}, {args}, {kwargs}")
        start = time.perf_counter()
        value, partition = original(graph, s, t)
        calls.append((graph.copy(), value, time.perf_counter() - start))
        return value, partition

    owner.minimum_cut = recording_minimum_cut
    try:
        compiled = aot_module(
            model,
            fw_compiler=nop,
            bw_compiler=nop,
            partition_fn=min_cut_rematerialization_partition,
        )
        compiled(idx, targets).backward()
    finally:
        owner.minimum_cut = original

    if len(calls) != 1:
        raise RuntimeError(f"expected one minimum_cut call for {layers} layers, got {len(calls)}")
    graph, value, seconds = calls[0]
    arrays = network_to_arrays(graph)
    arrays["cut_value"] = np.int64(_to_capacity(value, ("source", "sink")))
    arrays["nx_seconds"] = np.float64(seconds)
    arrays["solver"] = np.array(f"{torch_min_cut_solver()}, torch {torch.__version__}")
    return arrays, cfg


def _minimum_cut_owner():
    """The module whose ``minimum_cut`` torch's partitioner calls: torch 2.15+ imports its
    own into ``torch._functorch.partitioners``; earlier releases call ``networkx``'s."""
    partitioners = importlib.import_module("torch._functorch.partitioners")
    return partitioners if hasattr(partitioners, "minimum_cut") else networkx


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--layers", type=int, nargs="+", default=[12, 48, 96])
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "data"))
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for layers in args.layers:
        start = time.perf_counter()
        arrays, cfg = record(layers)
        trace_seconds = time.perf_counter() - start
        path = os.path.join(args.out, f"gpt{layers}.npz")
        np.savez_compressed(path, **arrays)
        finite = arrays["capacity"][arrays["capacity"] < INF]
        print(
            f"{path}: {cfg}\n"
            f"  {int(arrays['num_nodes'])} vertices, {arrays['src'].size} edges "
            f"({finite.size} finite, max finite capacity {finite.max()}), "
            f"cut value {int(arrays['cut_value'])}, {arrays['solver']}: "
            f"{float(arrays['nx_seconds']) * 1e3:.1f} ms, traced in {trace_seconds:.1f} s, "
            f"{os.path.getsize(path) / 1024:.1f} KiB"
        )


if __name__ == "__main__":
    main()
