"""Minimum cuts: the Python face of the C++ core (`fusioncut._core`).

Everything here validates arguments with vectorised numpy checks, so that bad input raises an
exception naming the function, the argument, the offending index and value and the valid range,
then hands contiguous int64 arrays to C++ in one call::

    min_cut(n, src, dst, capacity, s, t)          edge-capacitated, returns Cut
    min_node_cut(weights, src, dst, source_in=..) node-capacitated (split in C++), returns NodeCut
    NodeCutGraph(n, src, dst, source_in=..)       the same network, built once;
        .solve(weights) -> NodeCut                re-solved for new weights without rebuilding
        .solve_int64(weights) -> NodeCut          the same for an int64 array, no numpy checks
        .solve_components(weights)                ... and every minimum cut (MinCuts)

C++ copies every array into its own memory and validates the copy before it releases the GIL,
so another thread writing to the caller's arrays during a solve changes nothing that is solved:
a call sees the arrays as they were when it started, or raises the error their values deserve.

Capacities and weights are int64 in [0, INF] or floats whose finite values are whole numbers;
``INF`` (== 2**62) or ``float("inf")`` means "can never be cut". The returned cut is canonical:
its sink side is exactly the set of vertices that can reach the sink in the final residual graph
(the minimum cut closest to the sink, as ``networkx.minimum_cut`` returns it), whatever the
algorithm.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Any

import numpy as np

from fusioncut import _core

INF: int = _core.INF
"""Capacity of an edge (or weight of a node) that can never be cut: 2**62."""

UnboundedCutError = _core.UnboundedCutError
"""No finite cut exists (a ``ValueError``); ``.path`` lists one source-to-sink path of infinite
edges (for node cuts: of nodes), source first."""

ALGORITHMS = ("auto", "push_relabel", "boykov_kolmogorov")

_EMPTY = np.zeros(0, dtype=np.int64)
_MAX_VERTICES = 2**31 - 3  # vertex ids are int32 in C++, two more for the merged terminals
_MAX_NODES = (2**31 - 3) // 2  # a node is two vertices
_MAX_EDGES = 2**30 - 1  # an edge is two int32-indexed arcs in C++ (input.h: kMaxEdges)


@dataclass(frozen=True)
class Cut:
    """A minimum s-t cut of an edge-capacitated graph."""

    value: int
    """Total capacity of the cut edges (an exact Python int; may exceed int64)."""
    source_side: np.ndarray
    """bool array over vertices: True on the source side."""
    cut_edges: np.ndarray
    """int64 indices (ascending) of the input edges from the source side to the sink side."""


@dataclass(frozen=True)
class NodeCut:
    """A minimum vertex cut of a node-weighted graph."""

    value: int
    """Total weight of the cut nodes (an exact Python int)."""
    cut_nodes: np.ndarray
    """int64 nodes (ascending) whose input side is on the source side and output side is not."""
    source_side_in: np.ndarray
    """bool array over nodes: the node's input vertex is on the source side."""
    source_side_out: np.ndarray
    """bool array over nodes: the node's output vertex is on the source side."""


@dataclass(frozen=True)
class MinCuts:
    """Every minimum cut of one solve (csrc/residual_components.h): per node side, its residual
    component, -1 (source side of every minimum cut), -2 (sink side) or free in [0, count);
    ``dag_tail[k]`` on the source side forces ``dag_head[k]`` there (ids fall along arcs); the
    minimum cuts are the DAG's closures. ``saturated``: the split arc is full (then, at
    positive weight, ``v`` is cut iff [in-side inside] - [out-side inside] = 1)."""

    component_in: np.ndarray  # int32 (n,)
    component_out: np.ndarray  # int32 (n,)
    saturated: np.ndarray  # bool (n,)
    count: int
    dag_tail: np.ndarray  # int32, with dag_head
    dag_head: np.ndarray


def _integer(function: str, name: str, value: Any) -> int:
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{function}: {name} must be an integer, got bool {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(
            f"{function}: {name} must be an integer, got {type(value).__name__} {value!r}"
        ) from None


def _one_dimensional(function: str, name: str, value: Any) -> np.ndarray:
    array = np.asarray(value)
    if array.ndim != 1:
        raise TypeError(
            f"{function}: {name} must be a one-dimensional array, got shape {array.shape}"
        )
    return array


def _first(function: str, name: str, array: np.ndarray, bad: Any) -> tuple[int, Any]:
    """The first index where ``bad(array)`` holds, and the value there, both read from one
    private snapshot: another thread may be writing to the caller's array, and then the entry
    a check found may be gone by the time it is reported."""
    snapshot = array.copy()
    hits = np.flatnonzero(bad(snapshot))
    if hits.size == 0:
        raise ValueError(
            f"{function}: {name} changed while being validated (another thread is writing to it)"
        )
    i = int(hits[0])
    return i, snapshot[i].item()


def _object_integers(function: str, name: str, array: np.ndarray) -> list[int]:
    """The entries of an object array (what numpy makes of Python ints beyond int64) as one
    snapshot list; raises TypeError naming the first entry that is not an integer."""
    values = array.tolist()
    for i, x in enumerate(values):
        if isinstance(x, bool) or not isinstance(x, int):
            raise TypeError(
                f"{function}: {name} must be an integer array, got {type(x).__name__} "
                f"{x!r} at index {i}"
            )
    return values


def _index_array(function: str, name: str, value: Any, end: int) -> np.ndarray:
    """An int64 copy (or view) of an index array whose entries lie in [0, end)."""
    array = _one_dimensional(function, name, value)
    if array.size == 0:
        return _EMPTY
    if array.dtype == object:
        values = _object_integers(function, name, array)
        for i, x in enumerate(values):
            if not 0 <= x < end:
                raise IndexError(f"{function}: {name}[{i}] = {x} is out of range [0, {end})")
        array = np.array(values, dtype=np.int64)
    if array.dtype.kind not in "iu":
        raise TypeError(f"{function}: {name} must be an integer array, got dtype {array.dtype}")
    low, high = array.min(), array.max()
    if low < 0 or high >= end:
        i, x = _first(function, name, array, lambda a: (a < 0) | (a >= end))
        raise IndexError(f"{function}: {name}[{i}] = {x} is out of range [0, {end})")
    return np.ascontiguousarray(array, dtype=np.int64)


def _capacity_array(function: str, name: str, value: Any) -> np.ndarray:
    """An int64 array of capacities in [0, INF] from an int or whole-valued float array."""
    array = _one_dimensional(function, name, value)
    if array.size == 0:
        return _EMPTY
    if array.dtype == object:
        values = _object_integers(function, name, array)
        for i, x in enumerate(values):
            if not 0 <= x <= INF:
                raise ValueError(
                    f"{function}: {name}[{i}] = {x} is out of range [0, 2**62] "
                    f"(2**62 = fusioncut.INF: never cut)"
                )
        array = np.array(values, dtype=np.int64)
    kind = array.dtype.kind
    if kind in "iu":
        low, high = array.min(), array.max()
        if low < 0:
            i, x = _first(function, name, array, lambda a: a < 0)
            raise ValueError(
                f"{function}: {name}[{i}] = {x} is negative; valid range is "
                f"[0, 2**62] (2**62 = fusioncut.INF: never cut)"
            )
        if high > INF:
            i, x = _first(function, name, array, lambda a: a > INF)
            raise ValueError(
                f"{function}: {name}[{i}] = {x} is out of range [0, 2**62] "
                f"(2**62 = fusioncut.INF: never cut)"
            )
        return np.ascontiguousarray(array, dtype=np.int64)
    if kind == "f":
        # One private float64 snapshot: the checks below and the conversion read it many times.
        array = np.array(array, dtype=np.float64)
        nan = np.isnan(array)
        if nan.any():
            i = int(np.flatnonzero(nan)[0])
            raise ValueError(f"{function}: {name}[{i}] = nan is not a number")
        if array.min() < 0:
            i = int(np.flatnonzero(array < 0)[0])
            raise ValueError(
                f"{function}: {name}[{i}] = {array[i].item()} is negative; valid range is "
                f"[0, 2**62] or inf"
            )
        infinite = np.isinf(array)
        finite = np.where(infinite, 0.0, array)
        fractional = finite != np.floor(finite)
        if fractional.any():
            i = int(np.flatnonzero(fractional)[0])
            raise ValueError(
                f"{function}: {name}[{i}] = {array[i].item()!r} is not a whole number; "
                f"capacities are integers in [0, 2**62] or inf"
            )
        if finite.max() > INF:
            i = int(np.flatnonzero(finite > INF)[0])
            raise ValueError(
                f"{function}: {name}[{i}] = {array[i].item()!r} is out of range [0, 2**62] "
                f"(inf or 2**62 = fusioncut.INF: never cut)"
            )
        # float(INF) == 2**62 exactly, so INF survives a trip through a float array.
        result = finite.astype(np.int64)
        result[infinite] = INF
        return result
    raise TypeError(
        f"{function}: {name} must be an int64 or float array, got dtype {array.dtype}"
    )


def _algorithm(function: str, algorithm: Any) -> str:
    if algorithm not in ALGORITHMS:
        raise ValueError(
            f"{function}: algorithm = {algorithm!r} is not one of "
            + ", ".join(repr(a) for a in ALGORITHMS)
        )
    return algorithm


def _same_length(function: str, name: str, array: np.ndarray, reference: np.ndarray) -> None:
    if array.shape[0] != reference.shape[0]:
        raise ValueError(
            f"{function}: {name} has length {array.shape[0]} but src has length "
            f"{reference.shape[0]}"
        )


def _edges(function: str, num_nodes: int, src: Any, dst: Any) -> tuple[np.ndarray, np.ndarray]:
    src_array = _one_dimensional(function, "src", src)
    dst_array = _one_dimensional(function, "dst", dst)
    _same_length(function, "dst", dst_array, src_array)
    if src_array.shape[0] > _MAX_EDGES:  # before any conversion allocates
        raise ValueError(
            f"{function}: src has length {src_array.shape[0]}; at most {_MAX_EDGES} edges are "
            f"supported"
        )
    return (
        _index_array(function, "src", src_array, num_nodes),
        _index_array(function, "dst", dst_array, num_nodes),
    )


def min_cut(
    num_nodes: int,
    src: Any,
    dst: Any,
    capacity: Any,
    source: int,
    sink: int,
    *,
    algorithm: str = "auto",
    check: bool = False,
) -> Cut:
    """Minimum ``source``-``sink`` cut of the directed graph with edges ``src[i] -> dst[i]``.

    ``capacity[i]`` is an int in [0, INF] or a whole-valued float (``inf`` = never cut).
    Parallel edges, self-loops, isolated vertices and no edges at all are fine. ``algorithm``
    is ``"push_relabel"``, ``"boykov_kolmogorov"`` or ``"auto"``; all return the same cut.
    ``check=True`` certifies the result in C++ (max-flow = min-cut, no augmenting path).
    Safe to call from several threads, and while other threads write to the arrays (the call
    solves its own copy).

    Accepts: ``num_nodes``, ``source``, ``sink``: Python or numpy integers (not bool).
    ``src``, ``dst``: one-dimensional integer arrays or sequences of the same length, any
    integer dtype, byte order or strides (Python ints beyond int64 included, as object arrays).
    ``capacity``: the same length, integer or float.

    Raises:
        TypeError: a scalar that is not an integer; ``src``/``dst`` not one-dimensional or not
            of an integer dtype; ``capacity`` not one-dimensional or neither integer nor float;
            an object array holding a non-integer (the message names its index).
        ValueError: ``num_nodes`` outside [0, 2**31 - 3]; ``source == sink``; ``dst`` or
            ``capacity`` not as long as ``src``; more than 2**30 - 1 edges; a capacity that is
            negative, NaN, fractional or above 2**62 (INF); ``algorithm`` not one of
            ``ALGORITHMS``; ``UnboundedCutError`` (a ValueError) if infinite edges join
            source to sink.
        IndexError: ``source``, ``sink``, or an entry of ``src``/``dst`` outside
            [0, num_nodes).
        MemoryError: the solve would need more than the machine's physical memory (about 72
            bytes a vertex and 128 an edge); refused before anything large is allocated.
        RuntimeError: ``check=True`` found the result wrong (a bug in fusioncut).

    Every message names the function, the argument, the offending index and value, and the
    valid range: ``min_cut: src[3] = 9 is out of range [0, 5)``.
    """
    function = "min_cut"
    n = _integer(function, "num_nodes", num_nodes)
    if not 0 <= n <= _MAX_VERTICES:
        raise ValueError(f"{function}: num_nodes = {n} is out of range [0, {_MAX_VERTICES}]")
    s = _integer(function, "source", source)
    t = _integer(function, "sink", sink)
    if not 0 <= s < n:
        raise IndexError(f"{function}: source = {s} is out of range [0, {n})")
    if not 0 <= t < n:
        raise IndexError(f"{function}: sink = {t} is out of range [0, {n})")
    if s == t:
        raise ValueError(f"{function}: source and sink are both {s}; they must differ")
    name = _algorithm(function, algorithm)
    if type(src) is np.ndarray and type(dst) is np.ndarray and type(capacity) is np.ndarray:
        # Arrays that are already what _core takes (one-dimensional, C-contiguous, int64) go
        # straight to it: it checks lengths and values itself, in the same order and with the
        # same messages, so numpy's passes here would only repeat them (and each numpy call
        # costs ~10 us when the caches are cold, as in a compiler between other work). Any
        # other array makes pybind11 raise TypeError before anything runs: then convert.
        try:
            result = _core.min_cut(n, src, dst, capacity, s, t, name, bool(check))
            return Cut(result.value, result.source_side, result.cut_edges)
        except TypeError:
            pass
    src_array, dst_array = _edges(function, n, src, dst)
    capacity_array = _capacity_array(function, "capacity", capacity)
    if capacity_array.shape[0] != src_array.shape[0]:
        raise ValueError(
            f"{function}: capacity has length {capacity_array.shape[0]} but src has length "
            f"{src_array.shape[0]}"
        )
    result = _core.min_cut(n, src_array, dst_array, capacity_array, s, t, name, bool(check))
    return Cut(result.value, result.source_side, result.cut_edges)


def _terminal(function: str, name: str, value: Any, num_nodes: int) -> np.ndarray:
    array = _one_dimensional(function, name, value)
    if array.dtype.kind == "b":
        if array.shape[0] != num_nodes:
            raise ValueError(
                f"{function}: {name} is a bool mask of length {array.shape[0]} but the graph "
                f"has {num_nodes} nodes"
            )
        return np.flatnonzero(array).astype(np.int64)
    return _index_array(function, name, array, num_nodes)


class NodeCutGraph:
    """The node-split network of a node-weighted graph, built once and re-solved cheaply.

    Node ``v`` becomes ``v_in -> v_out`` (capacity: its weight), dependency ``u -> v`` becomes
    ``u_out -> v_in`` (infinite), and ``source_in`` / ``source_out`` / ``sink_in`` /
    ``sink_out`` (index arrays, or bool masks over nodes) attach nodes to a terminal at their
    input or output side with infinite edges. The splitting happens in C++, on its own copy of
    the arrays. ``solve`` may be called from several threads (calls on one graph take turns).

    Construction raises:
        TypeError: ``num_nodes`` not an integer; ``src``/``dst`` or a terminal list not
            one-dimensional or not of an integer dtype (a terminal list may also be bool).
        ValueError: ``num_nodes`` outside [0, (2**31 - 3) // 2]; ``dst`` not as long as
            ``src``; more than 2**30 - 1 edges (``src``, or nodes + dependencies + terminal
            entries together); a bool mask whose length is not ``num_nodes``.
        IndexError: an entry of ``src``, ``dst`` or a terminal list outside [0, num_nodes).
        MemoryError: the network and a solve would need more than the machine's physical
            memory (about 224 bytes a node and 136 an edge); refused before allocating.
    """

    def __init__(
        self,
        num_nodes: int,
        src: Any,
        dst: Any,
        *,
        source_in: Any = (),
        source_out: Any = (),
        sink_in: Any = (),
        sink_out: Any = (),
        _function: str = "NodeCutGraph",
    ) -> None:
        function = _function
        n = _integer(function, "num_nodes", num_nodes)
        if not 0 <= n <= _MAX_NODES:
            raise ValueError(f"{function}: num_nodes = {n} is out of range [0, {_MAX_NODES}]")
        src_array, dst_array = _edges(function, n, src, dst)
        self._function = function
        self._num_nodes = n
        self._graph = _core.NodeCutGraph(
            n,
            src_array,
            dst_array,
            _terminal(function, "source_in", source_in, n),
            _terminal(function, "source_out", source_out, n),
            _terminal(function, "sink_in", sink_in, n),
            _terminal(function, "sink_out", sink_out, n),
        )

    @property
    def num_nodes(self) -> int:
        return self._num_nodes

    def solve(self, weights: Any, *, algorithm: str = "auto", check: bool = False) -> NodeCut:
        """Minimum node cut for ``weights``: one per node, ints in [0, INF] or whole-valued
        floats (``inf`` = never cut), any dtype, byte order or strides.

        Raises TypeError (not one-dimensional, neither integer nor float, an object array
        holding a non-integer), ValueError (a length other than ``num_nodes``; a weight that
        is negative, NaN, fractional or above 2**62; ``algorithm`` not one of ``ALGORITHMS``),
        UnboundedCutError (a ValueError; ``.path`` lists nodes) if no finite cut exists, and
        RuntimeError if ``check=True`` finds the result wrong."""
        function = self._solve_name()
        weight_array = _capacity_array(function, "weights", weights)
        if weight_array.shape[0] != self._num_nodes:
            raise ValueError(
                f"{function}: weights has length {weight_array.shape[0]} but the graph has "
                f"{self._num_nodes} nodes"
            )
        name = _algorithm(function, algorithm)
        result = self._graph.solve(weight_array, name, bool(check), function)
        return NodeCut(result.value, result.cut_nodes, result.source_side_in,
                       result.source_side_out)

    def solve_int64(
        self,
        weights: np.ndarray,
        *,
        algorithm: str = "auto",
        check: bool = False,
        function: str = "NodeCutGraph.solve",
    ) -> NodeCut:
        """``solve`` for callers that already hold a one-dimensional C-contiguous ``int64``
        array of weights (fusioncut's own dynamic-shape plans): skips the numpy checks and
        conversions (a few microseconds a call). C++ still copies and validates the values,
        so a bad weight raises the same ValueError as ``solve``, with ``function`` (the
        caller's public name) in the message. Any other array raises TypeError, nothing is
        converted."""
        result = self._int64("solve", weights, algorithm, check, function)
        return NodeCut(result.value, result.cut_nodes, result.source_side_in,
                       result.source_side_out)

    def _solve_between(self, weights: np.ndarray, lower: NodeCut, upper: NodeCut, *,
                       algorithm: str = "auto", check: bool = False,
                       function: str = "NodeCutGraph.solve", max_band_share: int = 4
                       ) -> NodeCut:
        """``solve_int64`` inside a parametric sweep's bracket: ``lower`` and ``upper`` are
        this graph's cuts for two earlier weights that differ from ``weights`` only on nodes
        attached to the source at their input (``source_in``), each such weight here no lower
        than in ``lower``'s and no higher than in ``upper``'s. The canonical cuts then nest
        (Gallo, Grigoriadis and Tarjan): what is on the source side for ``lower`` and on the
        sink side for ``upper`` stays there, and the max flow runs on the band between them
        alone when at most ``1 / max_band_share`` of the split network lies in it (a wider
        band built anew costs more than the whole network solved in place; 1: always). The
        cut is ``solve_int64``'s, to the node. Internal (``BudgetNetwork.solve``,
        whose brackets hold by construction): a bracket that breaks the rule is not
        detected and gives a wrong cut; ValueError when ``lower``'s source side is not inside
        ``upper``'s."""
        result = self._int64("solve_between", weights, algorithm, check, function,
                             lower.source_side_in, lower.source_side_out, upper.source_side_in,
                             upper.source_side_out, int(max_band_share))
        return NodeCut(result.value, result.cut_nodes, result.source_side_in,
                       result.source_side_out)

    def solve_components(self, weights: np.ndarray, *, algorithm: str = "auto",
                         check: bool = False, function: str = "NodeCutGraph.solve_components"
                         ) -> tuple[NodeCut, MinCuts]:
        """``solve_int64`` (same arguments and errors), and every minimum cut for the same
        weights (``MinCuts``: the residual graph's strongly connected components)."""
        r, c = self._int64("solve_components", weights, algorithm, check, function)
        return (NodeCut(r.value, r.cut_nodes, r.source_side_in, r.source_side_out),
                MinCuts(c.component_in, c.component_out, c.saturated, c.count, c.dag_tail,
                        c.dag_head))

    def _int64(self, method: str, weights: Any, algorithm: str, check: bool, function: str,
               *between: Any):
        """``_core.NodeCutGraph.<method>(weights, *between, algorithm, check, function)``,
        with a TypeError about ``weights`` said in the caller's terms."""
        try:
            return getattr(self._graph, method)(weights, *between, algorithm, bool(check),
                                                function)
        except TypeError:
            if isinstance(weights, np.ndarray) and weights.dtype == np.int64 \
                    and weights.flags.c_contiguous:
                raise  # about another argument, or C++'s own message (the dimensions)
            raise TypeError(
                f"{function}: weights must be a C-contiguous int64 numpy array for solve_int64 "
                f"(solve() converts anything else), got {_describe(weights)}"
            ) from None

    def _solve_name(self) -> str:
        return "NodeCutGraph.solve" if self._function == "NodeCutGraph" else self._function


def _describe(value: Any) -> str:
    if isinstance(value, np.ndarray):
        order = "C-contiguous" if value.flags.c_contiguous else "non-contiguous"
        return f"a {order} {value.dtype} array of shape {value.shape}"
    return type(value).__name__


def min_node_cut(
    weights: Any,
    src: Any,
    dst: Any,
    *,
    source_in: Any = (),
    source_out: Any = (),
    sink_in: Any = (),
    sink_out: Any = (),
    algorithm: str = "auto",
    check: bool = False,
) -> NodeCut:
    """Minimum-weight set of nodes separating the source from the sink (see NodeCutGraph);
    ``len(weights)`` is the number of nodes. Raises what ``NodeCutGraph(...)`` and its
    ``solve`` raise, with ``min_node_cut`` in the messages."""
    function = "min_node_cut"
    weight_array = _capacity_array(function, "weights", weights)
    graph = NodeCutGraph(
        weight_array.shape[0],
        src,
        dst,
        source_in=source_in,
        source_out=source_out,
        sink_in=sink_in,
        sink_out=sink_out,
        _function=function,
    )
    return graph.solve(weight_array, algorithm=algorithm, check=check)
