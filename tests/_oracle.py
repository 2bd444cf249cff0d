"""A networkx reference for ``fusioncut.min_node_cut`` (tests only; networkx is an oracle).

Same signature and the same cut as design.md specifies: node ``v`` is split into
``v_in -> v_out`` with capacity ``weights[v]`` (``>= INF``: uncuttable), each dependency
``u -> v`` is ``u_out -> v_in`` with infinite capacity, and the returned cut's sink side is
exactly the set of vertices that can reach the sink in the final residual graph.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import networkx as nx
import numpy as np

INF = 1 << 62

try:  # the solver's class once it lands, so callers catch one type
    from fusioncut import UnboundedCutError  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - until the solver lands

    class UnboundedCutError(ValueError):
        def __init__(self, message, path):
            super().__init__(message)
            self.path = path


@dataclass
class NodeCut:
    value: int
    cut_nodes: np.ndarray
    source_side_in: np.ndarray
    source_side_out: np.ndarray


def _mask(x, n):
    a = np.asarray(x)
    if a.dtype == bool:
        return a.copy() if a.size else np.zeros(n, dtype=bool)
    m = np.zeros(n, dtype=bool)
    m[a.astype(np.int64)] = True
    return m


def min_node_cut(weights, src, dst, *, source_in=(), source_out=(), sink_in=(), sink_out=(),
                 algorithm="auto"):
    w = [int(x) for x in np.asarray(weights)]
    n = len(w)
    s_in, s_out = _mask(source_in, n), _mask(source_out, n)
    t_in, t_out = _mask(sink_in, n), _mask(sink_out, n)
    g = nx.DiGraph()
    S, T = "s", "t"
    g.add_node(S)
    g.add_node(T)
    for v in range(n):
        if w[v] >= INF:
            g.add_edge(("i", v), ("o", v))
        else:
            g.add_edge(("i", v), ("o", v), capacity=w[v])
    for u, v in zip(np.asarray(src).tolist(), np.asarray(dst).tolist()):
        g.add_edge(("o", u), ("i", v))
    for v in np.flatnonzero(s_in):
        g.add_edge(S, ("i", int(v)))
    for v in np.flatnonzero(s_out):
        g.add_edge(S, ("o", int(v)))
    for v in np.flatnonzero(t_in):
        g.add_edge(("i", int(v)), T)
    for v in np.flatnonzero(t_out):
        g.add_edge(("o", int(v)), T)

    # Infinite s-t path: report it as the solver does (nodes, source first).
    parent = {S: None}
    queue = deque([S])
    while queue:
        x = queue.popleft()
        for y, attrs in g[x].items():
            if "capacity" not in attrs and y not in parent:
                parent[y] = x
                queue.append(y)
    if T in parent:
        path, x = [], parent[T]
        while x != S:
            if not path or path[-1] != x[1]:
                path.append(x[1])
            x = parent[x]
        path.reverse()
        raise UnboundedCutError(f"min_node_cut: no finite cut; infinite path {path}", path)

    r = nx.algorithms.flow.preflow_push(g, S, T)
    value = r.graph["flow_value"]
    # Sink side: vertices that reach T in the residual graph.
    reach = {T}
    queue = deque([T])
    while queue:
        y = queue.popleft()
        for x in r.pred[y]:
            if x not in reach and r[x][y]["capacity"] - r[x][y]["flow"] > 0:
                reach.add(x)
                queue.append(x)
    src_in = np.array([("i", v) not in reach for v in range(n)], dtype=bool)
    src_out = np.array([("o", v) not in reach for v in range(n)], dtype=bool)
    cut = np.flatnonzero(src_in & ~src_out).astype(np.int64)
    return NodeCut(int(value), cut, src_in, src_out)
