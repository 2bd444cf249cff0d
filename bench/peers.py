"""One adapter per max-flow tool: numpy arrays in, minimum cut out.

Every adapter is a ``Peer`` whose ``solve(num_nodes, src, dst, capacity, source, sink)`` takes
the benchmark's canonical arrays (``int64``, ``capacity == INF`` for edges that can never be
cut, see graphs.py) and returns ``(cut value, source-side mask or None)``. The timed region is
the whole call: converting the arrays to what the tool accepts, building its graph, solving,
and reading the cut back. Where a tool can report which side of the cut each vertex is on, the
adapter asks for it, because the partitioner needs the sides, not just the value.

How each tool is given INF (fusioncut.INF = 2**62):

- fusioncut: as is.
- networkx: ``float("inf")``, which networkx supports (it substitutes its own large value).
- OR-tools, PyMaxflow, igraph, scipy: ``BIG = (sum of finite capacities) + 1``. Every cut that
  avoids INF edges costs less than BIG, so the minimum cut is the same and its value is
  unchanged whenever it is finite (a value >= BIG means no finite cut exists). OR-tools and
  PyMaxflow store int64; igraph stores doubles, exact only below 2**53; scipy casts to int32.

Limits, reported as skips rather than wrong answers:

- scipy's ``maximum_flow`` truncates capacities to int32, so it is skipped when BIG (and with
  it the flow value) does not fit in int32. It returns the value only.
- igraph is skipped when BIG >= 2**53 (doubles stop being exact integers).
- networkx is skipped above ``NX_MAX_VERTICES`` vertices (too slow: seconds at 30k vertices),
  its boykov_kolmogorov above ``NX_BK_MAX_EDGES`` edges (minutes on a 60k-edge grid).
- PyMaxflow has built-in terminals: edges out of the source become source t-links, edges into
  the sink become sink t-links, edges into the source or out of the sink are dropped (they
  carry no s-t flow), and a direct source->sink edge is added to the value.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

INF = 2**62
INT32_MAX = 2**31 - 1
DOUBLE_EXACT = 2**53
NX_MAX_VERTICES = 30_000
NX_BK_MAX_EDGES = 20_000  # networkx's boykov_kolmogorov: 80 s on a 60k-edge grid

Result = tuple[int, "np.ndarray | None"]
SolveFn = Callable[[int, np.ndarray, np.ndarray, np.ndarray, int, int], Result]


@dataclass(frozen=True)
class Peer:
    name: str
    module: str  # what must import for the peer to be available
    solve: SolveFn
    # Returns why the peer cannot or should not run on this graph, or None.
    skip_reason: Callable[[int, int, np.ndarray], str | None] = field(
        default=lambda num_nodes, num_edges, capacity: None
    )

    def available(self) -> bool:
        return importlib.util.find_spec(self.module) is not None


def big_capacity(capacity: np.ndarray) -> int:
    """A finite stand-in for INF: larger than every finite cut (see module docstring)."""
    finite = capacity < INF
    return int(np.sum(capacity, where=finite, dtype=np.int64)) + 1


def _replace_inf(capacity: np.ndarray) -> tuple[np.ndarray, int]:
    big = big_capacity(capacity)
    return np.where(capacity >= INF, big, capacity), big


def _mask(num_nodes: int, vertices) -> np.ndarray:
    side = np.zeros(num_nodes, dtype=bool)
    side[np.asarray(vertices, dtype=np.int64)] = True
    return side


# fusioncut ---------------------------------------------------------------------------------


def _fusioncut(algorithm: str) -> SolveFn:
    def solve(num_nodes, src, dst, capacity, source, sink) -> Result:
        import fusioncut

        cut = fusioncut.min_cut(
            num_nodes, src, dst, capacity, source, sink, algorithm=algorithm
        )
        return int(cut.value), cut.source_side

    return solve


def fusioncut_available() -> bool:
    try:
        import fusioncut
    except ImportError:
        return False
    return hasattr(fusioncut, "min_cut")


# OR-tools ----------------------------------------------------------------------------------


def _ortools(num_nodes, src, dst, capacity, source, sink) -> Result:
    from ortools.graph.python import max_flow

    cap, _ = _replace_inf(capacity)
    solver = max_flow.SimpleMaxFlow()
    solver.add_arcs_with_capacity(src.astype(np.int32), dst.astype(np.int32), cap)
    status = solver.solve(int(source), int(sink))
    if status != solver.OPTIMAL:
        raise RuntimeError(f"OR-tools SimpleMaxFlow.solve returned status {status}")
    return int(solver.optimal_flow()), _mask(num_nodes, solver.get_source_side_min_cut())


# PyMaxflow (used through its Python API only) ----------------------------------------------


def _pymaxflow(num_nodes, src, dst, capacity, source, sink) -> Result:
    import maxflow

    cap, _ = _replace_inf(capacity)
    from_source = src == source
    to_sink = dst == sink
    inner = ~(from_source | to_sink | (dst == source) | (src == sink))
    direct = int(cap[from_source & to_sink].sum())
    graph = maxflow.GraphInt(num_nodes, int(inner.sum()))
    graph.add_nodes(num_nodes)  # source and sink become isolated nodes; terminals are built in
    graph.add_edges(src[inner], dst[inner], cap[inner], np.zeros(int(inner.sum()), np.int64))
    s_links = from_source & ~to_sink
    t_links = to_sink & ~from_source
    nodes = np.concatenate([dst[s_links], src[t_links]])
    zeros_s = np.zeros(int(s_links.sum()), np.int64)
    zeros_t = np.zeros(int(t_links.sum()), np.int64)
    graph.add_grid_tedges(
        nodes, np.concatenate([cap[s_links], zeros_t]), np.concatenate([zeros_s, cap[t_links]])
    )
    value = int(graph.maxflow()) + direct
    side = ~graph.get_grid_segments(np.arange(num_nodes))  # True = sink segment
    side[source], side[sink] = True, False
    return value, side


# igraph ------------------------------------------------------------------------------------


def _igraph(num_nodes, src, dst, capacity, source, sink) -> Result:
    import igraph

    cap, _ = _replace_inf(capacity)
    graph = igraph.Graph(n=num_nodes, edges=np.column_stack([src, dst]), directed=True)
    cut = graph.mincut(int(source), int(sink), capacity=cap.astype(np.float64).tolist())
    return int(round(cut.value)), _mask(num_nodes, cut.partition[0])


def _igraph_skip(num_nodes, num_edges, capacity) -> str | None:
    if big_capacity(capacity) >= DOUBLE_EXACT:
        return "skipped (capacities not exact as doubles)"
    return None


# scipy -------------------------------------------------------------------------------------


def _scipy(num_nodes, src, dst, capacity, source, sink) -> Result:
    from scipy.sparse import csr_array
    from scipy.sparse.csgraph import maximum_flow

    cap, _ = _replace_inf(capacity)
    matrix = csr_array((cap.astype(np.int32), (src, dst)), shape=(num_nodes, num_nodes))
    return int(maximum_flow(matrix, int(source), int(sink), method="dinic").flow_value), None


def _scipy_skip(num_nodes, num_edges, capacity) -> str | None:
    if big_capacity(capacity) > INT32_MAX:
        return "skipped (int32 capacities)"
    return None


# networkx ----------------------------------------------------------------------------------


def _networkx(flow_func_name: str) -> SolveFn:
    def solve(num_nodes, src, dst, capacity, source, sink) -> Result:
        import networkx as nx
        from networkx.algorithms import flow

        caps = np.where(capacity >= INF, np.inf, capacity.astype(np.float64)).tolist()
        graph = nx.DiGraph()
        graph.add_nodes_from(range(num_nodes))
        graph.add_edges_from(
            (u, v, {"capacity": c if c == np.inf else int(c)})
            for u, v, c in zip(src.tolist(), dst.tolist(), caps)
        )
        value, (source_side, _) = nx.minimum_cut(
            graph, int(source), int(sink), flow_func=getattr(flow, flow_func_name)
        )
        return int(value), _mask(num_nodes, list(source_side))

    return solve


def _networkx_skip(num_nodes, num_edges, capacity) -> str | None:
    if num_nodes > NX_MAX_VERTICES:
        return f"skipped (too slow above {NX_MAX_VERTICES:,} vertices)"
    return None


def _networkx_bk_skip(num_nodes, num_edges, capacity) -> str | None:
    if num_edges > NX_BK_MAX_EDGES:
        return f"skipped (too slow above {NX_BK_MAX_EDGES:,} edges)"
    return None


FUSIONCUT = "fusioncut"
ORTOOLS = "ortools"
NX_PREFLOW = "nx_preflow_push"

PEERS: dict[str, Peer] = {
    peer.name: peer
    for peer in [
        Peer(FUSIONCUT, "fusioncut", _fusioncut("auto")),
        Peer("fusioncut_pr", "fusioncut", _fusioncut("push_relabel")),
        Peer("fusioncut_bk", "fusioncut", _fusioncut("boykov_kolmogorov")),
        Peer(ORTOOLS, "ortools", _ortools),
        Peer("pymaxflow", "maxflow", _pymaxflow),
        Peer("igraph", "igraph", _igraph, _igraph_skip),
        Peer("scipy_dinic", "scipy", _scipy, _scipy_skip),
        Peer(NX_PREFLOW, "networkx", _networkx("preflow_push"), _networkx_skip),
        Peer(
            "nx_boykov_kolmogorov", "networkx", _networkx("boykov_kolmogorov"), _networkx_bk_skip
        ),
    ]
}


def available_peers() -> list[str]:
    """Peers that can run here; the fusioncut rows only once fusioncut.min_cut exists."""
    names = []
    for name, peer in PEERS.items():
        if peer.module == "fusioncut":
            if fusioncut_available():
                names.append(name)
        elif peer.available():
            names.append(name)
    return names


def cut_capacity(src, dst, capacity, source_side: np.ndarray) -> int:
    """Capacity of the edges leaving ``source_side`` (INF counts as INF): checks a returned side."""
    crossing = source_side[src] & ~source_side[dst]
    if np.any(capacity[crossing] >= INF):
        return INF
    return int(capacity[crossing].sum(dtype=np.int64))
