"""Dynamic shapes: decide once, re-solve per size in microseconds (issue #4).

Under ``torch.compile(dynamic=True)`` / ``aot_function(..., dynamic=True)`` the joint graph's
sizes are sympy expressions in shape symbols (``s0``, ``s1``, ...). Everything but the node
weights is size-independent (roles, op kinds, fusion, bans but one, distances, graph
structure), so ``plan`` does it once and keeps each weight as a polynomial in the symbols::

    plan(joint_module, ...)                      once: JointGraph, Policy, cost probes, network
      │   E = coef @ monomials(sizes)            (symexpr.SizeProgram: int64, no sympy)
      │   w[dyn] = H + bytes_per_elem * E[eid] * scale        (cost.py's formula, exact)
      │   aux[k] = INF if numel_out * ratio <= numel_in        (the reduction ban, per size)
      └─> Plan.solve(sizes) ── NodeCutGraph.solve(w) ──> SizedDecision

The network handed to ``NodeCutGraph`` is ``partition.decide``'s network with the backward
(tangents, backward nodes: infinite weight, in-vertex tied to the sink) contracted into the
sink: a forward node with a backward user gets ``sink_out`` instead. Every minimum cut has
those vertices on the sink side, so the canonical cut (smallest sink side) is unchanged.

Size-dependent ban. ``policy.analyze`` bans recomputing a forward op whose output has
``reduction_ratio`` x fewer elements than its inputs. With symbols the comparison can flip
(``x.sum(0)`` of an ``(s, 8)`` tensor is a reduction only when ``s >= 4``). The check matters
where it bans at the hints or where nothing else bans a bannable forward node; where
``out / in`` is a constant (pointwise ops, a LayerNorm's statistics over a fixed width) the
hints' answer holds at every size. Each remaining node ``v``
gets an auxiliary network node ``a`` tied to the source with the edge ``a -> v``: weight INF
bans ``v`` (``v_in`` joins the source), weight 0 lifts the ban (``a_out`` then sits on ``v_in``'s
side and adds nothing to any cut). Auxiliary nodes never appear in a decision.

Ranges of sizes (``Plan.breakpoints``, ``check_optimal_over_ranges``). For a fixed cut the
weight is linear in the monomial values ``mu = (1, t, t**2, ...)``; the curve ``mu(t)`` for
``t`` in ``[p, q]`` lies in the convex hull of its Bernstein control points (``symexpr.
blossom_values``). A cut that is minimal at every control point is minimal on the whole hull,
hence at every size in ``[p, q]``: for linear sizes the control points are the two ends
(Eisner-Severance probing), for ``s**2`` (attention scores) one more point, solved with the
scaled virtual monomial values. Between cuts that disagree, the crossing of their cost
polynomials is found by integer bisection and the two halves are covered recursively.
"""

from __future__ import annotations

import dataclasses
import math
import operator
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy
import torch
import torch.fx as fx

from fusioncut import cost as _cost
from fusioncut.graph import JointGraph, Role, Value, unsupported_construct, value_size
from fusioncut.ops import OpKind
from fusioncut.options import Options
from fusioncut.policy import ReasonKind, analyze
from fusioncut.partitioner import _static_input_mask
from fusioncut.symexpr import SizeProgram, blossom_values

try:  # the kinds policy.analyze never bans (views, getitems, SymInt arithmetic, inputs)
    from fusioncut.policy import _NEVER_BANNED
except ImportError:  # pragma: no cover - policy.py refactored
    _NEVER_BANNED = frozenset({OpKind.VIEW, OpKind.GETITEM, OpKind.SYMBOLIC,
                               OpKind.PLACEHOLDER, OpKind.GET_ATTR})

__all__ = [
    "Plan",
    "RangeReport",
    "SizeError",
    "SizedDecision",
    "SymbolInfo",
    "UnbackedSizeWarning",
    "check_optimal_over_ranges",
    "partition_for_sizes",
    "plan",
]

INF = _cost.INF


class SizeError(ValueError):
    """Bad sizes for a ``Plan``: an unknown or missing symbol, a negative value, or a value
    outside the symbol's declared range. The message names the symbol and the valid range."""


class UnbackedSizeWarning(UserWarning):
    """A size symbol has no hint (an unbacked SymInt, e.g. from ``.item()`` or
    ``nonzero``): ``Options.unbacked_size_hint`` is assumed for it unless sizes are given."""


@dataclass(frozen=True)
class SymbolInfo:
    """A shape symbol the weights depend on."""

    name: str
    symbol: sympy.Symbol
    hint: int
    """The size seen at trace time, or ``Options.unbacked_size_hint`` (clamped into the
    range) for an unbacked symbol."""
    lo: int
    hi: int | None
    """Declared range ``[lo, hi]`` from the ShapeEnv (``var_to_range``); ``hi=None``: unbounded."""
    unbacked: bool
    sources: tuple[str, ...] = ()
    """Where the size comes from (``L['x'].size()[0]``), when the ShapeEnv recorded it."""

    def range_str(self) -> str:
        return f"[{self.lo}, {'inf' if self.hi is None else self.hi}]"


# --- the plan ---------------------------------------------------------------------------------


def plan(joint_module: fx.GraphModule, joint_inputs: Any = None, *, num_fwd_outputs: int,
         static_lifetime_input_indices: Sequence[int] | None = None,
         options: Options | None = None, **_ignored: Any) -> Plan:
    """Analyse a (dynamic-shape) joint graph once; see ``Plan``.

    Same arguments as ``fusioncut.partition`` (``joint_inputs``, ``compiler`` and unknown
    keywords are accepted and ignored). The graph is not modified. A graph that ``partition``
    would hand to torch's partitioner raises ``ValueError`` naming the construct. Warns
    ``UnbackedSizeWarning`` once per unbacked symbol.
    """
    if options is None:
        options = Options()
    if not isinstance(options, Options):
        raise TypeError(f"plan: options must be a fusioncut.Options, got "
                        f"{type(options).__name__}")
    reason = unsupported_construct(joint_module)
    if reason is not None:
        raise ValueError(f"plan: the joint graph contains {reason}, which fusioncut does not "
                         f"partition itself")
    from fusioncut.partitioner import decide

    # decide() at the hints does the size-independent work (JointGraph, Policy, dropped
    # PREFER_* constraints) and is the reference the plan is checked against.
    reference = decide(joint_module, num_fwd_outputs=num_fwd_outputs,
                       static_lifetime_input_indices=static_lifetime_input_indices,
                       options=options)
    return Plan(reference, options, static_lifetime_input_indices)


@dataclass
class _Network:
    """The reduced flow network: kept joint nodes first, then one auxiliary node per
    size-dependent ban."""

    keep: np.ndarray  # int64 (r,) joint-node index of reduced node k
    pos: np.ndarray  # int64 (n,) reduced index of joint node i, -1 if contracted
    num_nodes: int  # r + number of aux nodes
    solver: Any  # fusioncut.NodeCutGraph


class Plan:
    """A joint graph analysed once, decided per size.

    ``symbols``: ``{name: SymbolInfo}`` in a fixed order (sizes may also be passed as a
    sequence in that order). ``solve(sizes)`` returns a ``SizedDecision`` equal to what
    ``fusioncut.decide`` chooses for the same model traced with those static sizes (up to
    SymInt nodes, which the dynamic graph has and a static one does not; each costs
    ``Options.symint_bytes``). ``partition(sizes)`` emits the (still symbolic) forward and
    backward modules. ``breakpoints`` sweeps one symbol.

    A Plan re-solves one ``NodeCutGraph`` in place: do not share it between threads.
    """

    def __init__(self, reference: Any, options: Options,
                 static_lifetime_input_indices: Sequence[int] | None = None) -> None:
        graph = reference.graph
        self.graph = graph
        self.reference = reference
        self.options = options
        self.num_fwd_outputs = graph.num_fwd_outputs
        self.static_lifetime_input_indices = (list(static_lifetime_input_indices)
                                              if static_lifetime_input_indices else None)
        self.policy = reference.policy
        self._static = _static_input_mask(graph, static_lifetime_input_indices)
        self._names: list[str] | None = None
        self._collect_sizes()
        self._collect_bans()
        self._probe_costs()
        self._build_network()
        self._check_against(reference)

    # -- sizes ---------------------------------------------------------------------------------

    def _collect_sizes(self) -> None:
        """One sympy expression per node with a symbolic element count."""
        graph = self.graph
        n = graph.num_nodes
        exprs: dict[sympy.Expr, int] = {}
        expr_list: list[sympy.Expr] = []
        node_expr = np.full(n, -1, dtype=np.int64)
        const_numel = np.zeros(n, dtype=np.int64)
        shape_env = None
        canonical: dict[sympy.Expr, sympy.Expr] = {}
        for i, node in enumerate(graph.nodes):
            v = graph.value[i]
            if v != Value.TENSOR and v != Value.MULTI:
                continue
            ne, _ = value_size(node.meta.get("val"))
            if isinstance(ne, torch.SymInt):
                sym_node = ne.node
                if shape_env is None:
                    shape_env = sym_node.shape_env
                raw = sym_node.expr
                expr = canonical.get(raw)
                if expr is None:
                    # Apply the ShapeEnv's replacements (s1 -> s0 after an equality guard,
                    # s0 -> 5 after a specialization) so that symbols are independent.
                    expr = raw
                    replace = getattr(shape_env, "replace", None)
                    if replace is not None:
                        try:
                            expr = replace(raw)
                        except Exception:  # noqa: BLE001 (keep the expression as traced)
                            expr = raw
                    expr = canonical[raw] = sympy.expand(sympy.sympify(expr))
                if expr.is_Integer:
                    const_numel[i] = int(expr)
                    continue
                e = exprs.get(expr)
                if e is None:
                    e = exprs[expr] = len(expr_list)
                    expr_list.append(expr)
                node_expr[i] = e
            else:
                const_numel[i] = int(ne)
        free = set()
        for expr in expr_list:
            free |= expr.free_symbols
        symbols = sorted(free, key=lambda s: (str(s)[0], len(str(s)), str(s)))
        self._shape_env = shape_env
        self._sym_list = symbols
        self.symbols: dict[str, SymbolInfo] = {}
        for s in symbols:
            self.symbols[str(s)] = _symbol_info(s, shape_env, self.options)
        self._sym_index = {name: k for k, name in enumerate(self.symbols)}
        self._exprs = expr_list
        self._node_expr = node_expr
        self._const_numel = const_numel

    def hints(self) -> dict[str, int]:
        """``{name: hint}``: the sizes seen at trace time (fallbacks for unbacked symbols)."""
        return {name: info.hint for name, info in self.symbols.items()}

    def _values(self, sizes: Mapping[Any, int] | Sequence[int] | None, function: str
                ) -> tuple[int, ...]:
        """Validated symbol values in ``symbols`` order."""
        infos = self.symbols
        if sizes is None:
            return tuple(info.hint for info in infos.values())
        if not isinstance(sizes, Mapping):
            seq = list(sizes)
            if len(seq) != len(infos):
                raise SizeError(f"{function}: got {len(seq)} sizes for {len(infos)} symbols "
                                f"({', '.join(infos)})")
            sizes = dict(zip(infos, seq))
        given: dict[str, int] = {}
        for key, value in sizes.items():
            name = key if isinstance(key, str) else str(getattr(getattr(key, "node", None),
                                                                "expr", key))
            if name not in infos:
                if self._known_elsewhere(name):
                    continue  # a ShapeEnv symbol no weight depends on
                known = ", ".join(f"{k} {i.range_str()}" for k, i in infos.items()) or "none"
                raise SizeError(f"{function}: unknown size symbol {name!r}; the plan's "
                                f"symbols are {known}")
            if isinstance(value, bool):
                raise SizeError(f"{function}: size {name} = {value!r} is not an integer")
            try:
                value = operator.index(value)
            except TypeError:
                raise SizeError(f"{function}: size {name} = {value!r} is not an integer"
                                ) from None
            info = infos[name]
            if value < 0:
                raise SizeError(f"{function}: size {name} = {value} is negative; valid range "
                                f"is {info.range_str()}")
            if value < info.lo or (info.hi is not None and value > info.hi):
                raise SizeError(f"{function}: size {name} = {value} is outside its declared "
                                f"range {info.range_str()}")
            given[name] = value
        missing = [k for k in infos if k not in given]
        if missing:
            name = missing[0]
            raise SizeError(f"{function}: no size for symbol {name!r} (valid range "
                            f"{infos[name].range_str()}, hint {infos[name].hint}); pass every "
                            f"one of {', '.join(infos)}")
        return tuple(given[k] for k in infos)

    def _known_elsewhere(self, name: str) -> bool:
        env = self._shape_env
        if env is None:
            return False
        return any(str(s) == name for s in getattr(env, "var_to_range", {}))

    def numel(self, sizes) -> np.ndarray:
        """int64 (n,) element count of each joint node at ``sizes``."""
        values = self._values(sizes, "Plan.numel")
        E = self._evaluate(values)
        out = self._const_numel.copy()
        sym = self._node_expr >= 0
        out[sym] = E[self._node_expr[sym]]
        return out

    def _evaluate(self, values: tuple[int, ...]) -> np.ndarray:
        prog = self._program
        mono = prog.monomials(prog.generator_values(values))
        bound = self._abs_coef @ mono.astype(np.float64)
        if bound.size and bound.max() >= 2.0 ** 62:
            raise OverflowError(f"sizes {dict(zip(self.symbols, values))} give element counts "
                                f"beyond 2**62")
        return prog.coef @ mono

    # -- bans ------------------------------------------------------------------------------------

    def _collect_bans(self) -> None:
        """Split the ban set into size-independent bans and per-size reduction checks."""
        graph, options = self.graph, self.options
        banned = self.reference.source_in
        ratio = options.reduction_ratio
        self._ratio = float(ratio)
        reductions = np.zeros(graph.num_nodes, dtype=bool)
        if ratio != math.inf:
            no_reduction = analyze(graph, dataclasses.replace(options, reduction_ratio=math.inf))
            base = no_reduction.banned_mask()
            policy = self.policy
            # Where the check "out * ratio <= in" decides: nodes it bans at the hints, and
            # forward nodes of bannable kinds that nothing else bans (a recompute annotation
            # that lifts bans excepted). Elsewhere another ban stands whatever the sizes.
            at_hints = np.fromiter(
                (r is not None and r.kind == ReasonKind.REDUCTION for r in policy.ban),
                dtype=bool, count=graph.num_nodes)
            bannable = np.ones(len(OpKind), dtype=bool)
            bannable[[int(k) for k in _NEVER_BANNED]] = False
            unbanned = ~policy.banned_mask() & (graph.role == Role.FORWARD) & bannable[graph.kind]
            if options.annotations_override_bans:
                unbanned &= ~policy.recompute_mask()
            reductions = at_hints | unbanned
        else:
            base = banned
        exprs = list(self._exprs)
        index = {e: k for k, e in enumerate(exprs)}
        dyn_nodes, dyn_out, dyn_in = [], [], []
        static_ban = banned.copy()  # the reference's, PREFER_SAVE bans it dropped included
        memo: dict[tuple, tuple] = {}
        for i in np.flatnonzero(reductions & ~base):
            i = int(i)
            ins = tuple(sorted(self._expr_key(j) for j in graph.inputs[i]
                               if graph.value[j] == Value.TENSOR or graph.value[j] == Value.MULTI))
            pair = (self._expr_key(i), ins)
            hit = memo.get(pair)
            if hit is None:
                out_e = self._node_sympy(i)
                in_e = sympy.expand(sympy.Add(*[self._key_sympy(x) for x in ins]))
                if not (out_e.free_symbols or in_e.free_symbols) or _constant_ratio(out_e, in_e):
                    # The comparison does not depend on the sizes: the reference decided it.
                    hit = (True,)
                else:
                    for e in (out_e, in_e):
                        if e not in index:
                            index[e] = len(exprs)
                            exprs.append(e)
                    hit = (None, index[out_e], index[in_e])
                memo[pair] = hit
            if hit[0] is not None:
                continue  # decided at the hints by the reference, valid at every size
            static_ban[i] = False
            dyn_nodes.append(i)
            dyn_out.append(hit[1])
            dyn_in.append(hit[2])
        self._static_ban = static_ban
        self._dyn_ban_nodes = np.asarray(dyn_nodes, dtype=np.int64)
        # Many nodes share one comparison (a masked_fill per layer): evaluate each pair once.
        pairs = sorted(set(zip(dyn_out, dyn_in)))
        pair_index = {pair: k for k, pair in enumerate(pairs)}
        self._dyn_ban_out = np.asarray([o for o, _ in pairs], dtype=np.int64)
        self._dyn_ban_in = np.asarray([i for _, i in pairs], dtype=np.int64)
        self._dyn_ban_pair = np.asarray([pair_index[p] for p in zip(dyn_out, dyn_in)],
                                        dtype=np.int64)
        self._program = SizeProgram.compile(exprs, self._sym_list)
        self._abs_coef = np.abs(self._program.coef).astype(np.float64)

    def _expr_key(self, i: int) -> tuple[int, int]:
        e = int(self._node_expr[i])
        return (0, e) if e >= 0 else (1, int(self._const_numel[i]))

    def _key_sympy(self, key: tuple[int, int]) -> sympy.Expr:
        return self._exprs[key[1]] if key[0] == 0 else sympy.Integer(key[1])

    def _node_sympy(self, i: int) -> sympy.Expr:
        e = self._node_expr[i]
        return self._exprs[e] if e >= 0 else sympy.Integer(int(self._const_numel[i]))

    def _bans(self, E: np.ndarray) -> np.ndarray:
        """bool (number of size-dependent bans,): banned at these element counts."""
        # The same float comparison policy.analyze makes (int * float <= int, inputs > 0).
        total_in = E[self._dyn_ban_in]
        banned = (E[self._dyn_ban_out] * self._ratio <= total_in) & (total_in > 0)
        return banned[self._dyn_ban_pair]

    # -- weights ---------------------------------------------------------------------------------

    def _probe_costs(self) -> None:
        """cost.py's weights as ``(m * nbytes[base] + c) * scale + tie``, read off by probing
        its public functions (so changes there carry over), checked on a random probe."""
        graph, policy, options = self.graph, self.policy, self.options
        n = graph.num_nodes
        static = self._static
        zeros = np.zeros(n, dtype=np.int64)
        ones = np.ones(n, dtype=np.int64)
        c0 = _cost.node_costs(graph, policy, options, nbytes=zeros, static_input_nodes=static)
        c1 = _cost.node_costs(graph, policy, options, nbytes=ones, static_input_nodes=static)
        finite = c0 < INF
        m = np.where(finite, c1 - c0, 0)
        c = np.where(finite, c0, 0)
        w0 = _cost.weights(graph, policy, options, nbytes=zeros, static_input_nodes=static)
        w1 = _cost.weights(graph, policy, options, nbytes=ones, static_input_nodes=static)
        pos = finite & (m > 0)
        scale = int((w1[pos] - w0[pos])[0] // m[pos][0]) if pos.any() else 1
        tie = np.where(finite, w0 - c * scale, 0)
        rng = np.random.default_rng(0)
        r = rng.integers(0, 1 << 20, size=n, dtype=np.int64)
        cr = _cost.node_costs(graph, policy, options, nbytes=r, static_input_nodes=static)
        wr = _cost.weights(graph, policy, options, nbytes=r, static_input_nodes=static)
        base = graph.base
        expect_c = np.where(finite, m * r[base] + c, INF)
        expect_w = np.where(finite, expect_c * scale + tie, INF)
        if not (np.array_equal(cr, expect_c) and np.array_equal(wr, expect_w)
                and np.array_equal(w1, np.where(finite, (m + c) * scale + tie, INF))):
            raise RuntimeError("fusioncut.dynamic: cost.weights is no longer of the form "
                               "(m * nbytes[base] + c) * scale + tie; update dynamic.py")
        self._finite = finite
        self._m = m
        self._c = c
        self._scale = scale
        self._tie = tie
        self._cap = options.distance_cap
        self._max_cost = (INF - 2 * self._cap - 2) // scale

    def weights(self, sizes) -> np.ndarray:
        """int64 (n,) node weights at ``sizes``: exactly ``cost.weights`` of the joint graph
        with those sizes (the min-cut capacities, tie-break included)."""
        return self._full_weights(self._values(sizes, "Plan.weights"))

    def _numel_at(self, values) -> np.ndarray:
        E = self._evaluate(values)
        out = self._const_numel.copy()
        sym = self._node_expr >= 0
        out[sym] = E[self._node_expr[sym]]
        return out

    # -- network ---------------------------------------------------------------------------------

    def _build_network(self) -> None:
        graph = self.graph
        n = graph.num_nodes
        role = graph.role
        contracted = (role == Role.BACKWARD) | (role == Role.TANGENT) | (role == Role.BWD_SEED)
        if (self._finite & contracted).any():
            raise RuntimeError("fusioncut.dynamic: a backward node has a finite weight; the "
                               "contraction into the sink assumes it cannot be saved")
        ref = self.reference
        keep = np.flatnonzero(~contracted)
        pos = np.full(n, -1, dtype=np.int64)
        pos[keep] = np.arange(len(keep))
        src, dst = graph.edge_src, graph.edge_dst
        inner = ~contracted[src] & ~contracted[dst]
        to_sink = ~contracted[src] & contracted[dst]
        sink_out = np.zeros(len(keep), dtype=bool)
        sink_out[pos[src[to_sink]]] = True
        sink_out |= np.asarray(ref.sink_out, dtype=bool)[keep]
        sink_in = np.asarray(ref.sink_in, dtype=bool)[keep]
        if not np.asarray(ref.sink_in, dtype=bool)[contracted].all():
            raise RuntimeError("fusioncut.dynamic: decide() no longer ties every backward "
                               "node to the sink; update the contraction in dynamic.py")
        nd = len(self._dyn_ban_nodes)
        r = len(keep)
        e_src = np.concatenate([pos[src[inner]], np.arange(r, r + nd)])
        e_dst = np.concatenate([pos[dst[inner]], pos[self._dyn_ban_nodes]])
        source_in = np.concatenate([self._static_ban[keep], np.ones(nd, dtype=bool)])
        sink_in = np.concatenate([sink_in, np.zeros(nd, dtype=bool)])
        sink_out = np.concatenate([sink_out, np.zeros(nd, dtype=bool)])
        import fusioncut

        order = np.argsort(e_src[: len(e_src) - nd], kind="stable")
        self._red_src = e_src[: len(e_src) - nd][order]
        self._red_dst = e_dst[: len(e_dst) - nd][order]
        self._red_ptr = np.searchsorted(self._red_src, np.arange(r + 1))
        self._red_sink_in = sink_in[:r]
        self._red_sink_out = sink_out[:r]
        solver = fusioncut.NodeCutGraph(r + nd, e_src, e_dst, source_in=source_in,
                                        sink_in=sink_in, sink_out=sink_out)
        self._net = _Network(keep=keep, pos=pos, num_nodes=r + nd, solver=solver)
        self._core = solver._graph  # the C++ object: skips re-validating our own weights
        # Per reduced node: weight = H + bytes_per_elem * E[eid] * scale (dynamic base), or a
        # constant. bytes_per_elem = m * itemsize of the base.
        base = graph.base[keep]
        finite = self._finite[keep]
        eid = self._node_expr[base]
        dyn = finite & (eid >= 0)
        itemsize = graph.itemsize[base]
        const_bytes = self._const_numel[base] * itemsize
        m, c, tie = self._m[keep], self._c[keep], self._tie[keep]
        const_cost = m * const_bytes + c
        w_const = np.where(finite, const_cost * self._scale + tie, INF)
        self._cost_const = np.concatenate([np.where(finite, const_cost, INF),
                                           np.zeros(nd, dtype=np.int64)])
        self._w_const = np.concatenate([w_const, np.zeros(nd, dtype=np.int64)])
        self._dyn_pos = np.flatnonzero(dyn)
        self._dyn_eid = eid[dyn]
        self._dyn_mi = (m * itemsize)[dyn]
        self._dyn_h = (c * self._scale + tie)[dyn]
        self._dyn_c = c[dyn]
        self._E_limit = INF // (2 * max(1, int(self._dyn_mi.max()) if dyn.any() else 1))
        self._const_max_cost = int(const_cost[finite & ~dyn].max()) if (finite & ~dyn).any() else 0
        self._aux_slice = slice(r, r + nd)

    def _check_against(self, reference: Any) -> None:
        """The plan at the hints must decide what decide() decided (same graph, same sizes)."""
        if any(info.unbacked for info in self.symbols.values()):
            return  # graph.py's hint for an unbacked size is the fallback for the whole numel
        mine = self.solve(None)
        if not np.array_equal(mine.saved_index, np.asarray(reference.saved, dtype=np.int64)):
            raise RuntimeError(
                "fusioncut.dynamic: the plan disagrees with decide() at the hints: saved "
                f"{mine.saved} vs {[self.graph.nodes[i].name for i in reference.saved]}")

    def _full_weights(self, values) -> np.ndarray:
        numel = self._numel_at(values)
        if (numel.astype(np.float64) * self.graph.itemsize).max(initial=0) >= 2.0 ** 62:
            raise OverflowError(f"sizes {dict(zip(self.symbols, values))} give tensors of "
                                f"2**62 bytes or more")
        nbytes = numel * self.graph.itemsize
        return _cost.weights(self.graph, self.policy, self.options, nbytes=nbytes,
                             static_input_nodes=self._static)

    def _network_weights(self, E: np.ndarray) -> np.ndarray | None:
        """int64 weights of the reduced network at element counts ``E``; None when the sizes
        are so large that cost.py coarsens its tie-break (the caller takes the slow path)."""
        if len(self._dyn_eid) and int(E.max()) > self._E_limit:
            return None  # bytes_dyn below could overflow int64
        bytes_dyn = self._dyn_mi * E[self._dyn_eid]
        if len(bytes_dyn):
            top = int((bytes_dyn + self._dyn_c).max())
            if top > self._max_cost or self._const_max_cost > self._max_cost:
                return None
        w = self._w_const.copy()
        w[self._dyn_pos] += bytes_dyn * self._scale
        if len(self._dyn_ban_nodes):
            w[self._aux_slice] = np.where(self._bans(E), INF, 0)
        return w

    # -- solving ---------------------------------------------------------------------------------

    def solve(self, sizes: Mapping[Any, int] | Sequence[int] | None = None) -> SizedDecision:
        """The saved set at ``sizes`` (``{symbol or name: int}``, a sequence in ``symbols``
        order, or None for the hints)."""
        values = self._values(sizes, "Plan.solve")
        return self._solve_values(values)

    def _solve_values(self, values: tuple[int, ...]) -> SizedDecision:
        E = self._evaluate(values)
        w = self._network_weights(E)
        if w is None:
            return self._solve_slow(values, E)
        try:
            value, cut_nodes, _, _, _ = self._core.solve(w, self.options.algorithm, False,
                                                         "Plan.solve")
        except ValueError as e:
            raise self._unbounded(e, values) from e
        keep = self._net.keep
        saved = keep[cut_nodes[cut_nodes < len(keep)]]
        return SizedDecision(self, values, saved, int(value))

    def _solve_slow(self, values, E) -> SizedDecision:
        """Sizes so large that cost.py coarsens the tie-break: use its weights verbatim."""
        w_full = self._full_weights(values)
        keep = self._net.keep
        w = np.concatenate([w_full[keep], np.zeros(len(self._dyn_ban_nodes), dtype=np.int64)])
        if len(self._dyn_ban_nodes):
            w[self._aux_slice] = np.where(self._bans(E), INF, 0)
        try:
            cut = self._net.solver.solve(w, algorithm=self.options.algorithm)
        except ValueError as e:
            raise self._unbounded(e, values) from e
        cut_nodes = cut.cut_nodes
        saved = keep[cut_nodes[cut_nodes < len(keep)]]
        return SizedDecision(self, values, saved, int(cut.value))

    def _unbounded(self, error: Exception, values) -> Exception:
        path = getattr(error, "path", None)
        if path is None:
            return error
        keep = self._net.keep
        names = [self.graph.nodes[int(keep[p])].name for p in path if p < len(keep)]
        sizes = dict(zip(self.symbols, values))
        from fusioncut.partitioner import PartitionError

        return PartitionError(
            f"Plan.solve: no valid partition at sizes {sizes}; every cut recomputes a node "
            f"that may not be recomputed or saves one that cannot be saved. Path: "
            + " -> ".join(names), [self.graph.nodes[int(keep[p])] for p in path
                                   if p < len(keep)], [[] for p in path if p < len(keep)])

    def partition(self, sizes=None) -> tuple[fx.GraphModule, fx.GraphModule]:
        """Forward and backward modules saving what is optimal at ``sizes`` (None: the hints).
        The modules stay symbolic: they run at every size, optimally at ``sizes``."""
        decision = self.solve(sizes)
        from fusioncut.emit import build_modules

        return build_modules(self.graph.gm, decision.saved_values, decision.saved_sym_nodes,
                             num_fwd_outputs=self.num_fwd_outputs,
                             static_lifetime_input_indices=self.static_lifetime_input_indices)

    @property
    def names(self) -> list[str]:
        if self._names is None:
            self._names = [node.name for node in self.graph.nodes]
        return self._names

    def sizes_of(self, primals: Sequence[Any]) -> dict[str, int]:
        """``{name: size}`` read off concrete primal inputs (tensors or shapes, in the joint
        graph's primal order) wherever a primal's dimension is a bare symbol."""
        placeholders = [self.graph.nodes[i] for i in np.flatnonzero(
            self.graph.role == Role.PRIMAL)]
        out: dict[str, int] = {}
        for node, given in zip(placeholders, primals):
            val = node.meta.get("val")
            if not isinstance(val, torch.Tensor):
                continue
            shape = given.shape if hasattr(given, "shape") else given
            for dim, size in zip(val.shape, shape):
                if isinstance(dim, torch.SymInt):
                    name = str(dim.node.expr)
                    if name in self.symbols:
                        out[name] = int(size)
        return out

    # -- ranges ----------------------------------------------------------------------------------

    def breakpoints(self, symbol: Any, lo: int, hi: int, *,
                    fixed: Mapping[Any, int] | None = None
                    ) -> list[tuple[int, int, SizedDecision]]:
        """The distinct decisions as ``symbol`` sweeps ``[lo, hi]`` (the other symbols at
        ``fixed``, by default their hints): contiguous ``(lo_k, hi_k, decision)`` covering
        ``[lo, hi]``; ``decision`` is optimal at every size of its range and is reported at
        ``lo_k``. Exact when sizes are polynomials in ``symbol`` (see the module docstring);
        with ``FloorDiv`` and the like in ``symbol``, ranges are found by probing only."""
        k, name = self._symbol_arg(symbol, "Plan.breakpoints")
        base = dict(self.hints())
        if fixed:
            for key, v in fixed.items():
                base[key if isinstance(key, str) else str(key)] = v
        info = self.symbols[name]
        for bound_name, bound in (("lo", lo), ("hi", hi)):
            base[name] = bound
            try:
                self._values(base, "Plan.breakpoints")
            except SizeError as e:
                raise SizeError(f"{e} ({bound_name} of the sweep)") from None
        if lo > hi:
            raise SizeError(f"Plan.breakpoints: lo = {lo} > hi = {hi} for {name} "
                            f"(valid range {info.range_str()})")
        values = list(self._values(base, "Plan.breakpoints"))
        sweep = _Sweep(self, k, values)
        out: list[tuple[int, int, SizedDecision]] = []
        for p, q in sweep.ban_segments(lo, hi):
            for a, b, key in sweep.cover(p, q):
                if out and out[-1][2] == key:
                    out[-1] = (out[-1][0], b, key)
                else:
                    out.append((a, b, key))
        result = []
        for a, b, key in out:
            vals = list(values)
            vals[k] = a
            result.append((a, b, sweep.decision(key, a)))
        return result

    def _symbol_arg(self, symbol: Any, function: str) -> tuple[int, str]:
        name = symbol if isinstance(symbol, str) else str(getattr(getattr(symbol, "node", None),
                                                                  "expr", symbol))
        if name not in self._sym_index:
            known = ", ".join(f"{k} {i.range_str()}" for k, i in self.symbols.items()) or "none"
            raise SizeError(f"{function}: unknown size symbol {name!r}; the plan's symbols are "
                            f"{known}")
        return self._sym_index[name], name

    # -- control points ----------------------------------------------------------------------


def _constant_ratio(out_e: sympy.Expr, in_e: sympy.Expr) -> bool:
    if out_e == 0:
        return False
    q = sympy.cancel(in_e / out_e)
    return q.is_number


def _symbol_info(sym: sympy.Symbol, shape_env: Any, options: Options) -> SymbolInfo:
    lo, hi = 0, None
    hint = None
    sources: tuple[str, ...] = ()
    if shape_env is not None:
        vr = getattr(shape_env, "var_to_range", {}).get(sym)
        if vr is not None:
            lo = _bound(vr.lower, 0)
            hi = _bound(vr.upper, None)
            lo = max(lo, 0)
        for attr in ("backed_var_to_val", "var_to_val"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", FutureWarning)
                table = getattr(shape_env, attr, None)
            if table is not None and sym in table:
                hint = int(table[sym])
                break
        srcs = getattr(shape_env, "var_to_sources", {}).get(sym, [])
        sources = tuple(_source_name(s) for s in srcs)
    unbacked = hint is None
    if unbacked:
        hint = options.unbacked_size_hint
        hint = max(hint, lo)
        if hi is not None:
            hint = min(hint, hi)
        warnings.warn(UnbackedSizeWarning(
            f"fusioncut: size symbol {sym} has no hint (unbacked); assuming {sym} = {hint} "
            f"(Options.unbacked_size_hint, clamped to its range "
            f"[{lo}, {'inf' if hi is None else hi}]) unless sizes are given"), stacklevel=4)
    return SymbolInfo(name=str(sym), symbol=sym, hint=int(hint), lo=int(lo),
                      hi=None if hi is None else int(hi), unbacked=unbacked, sources=sources)


def _source_name(source: Any) -> str:
    name = getattr(source, "name", None)
    try:
        name = name() if callable(name) else name
    except Exception:  # noqa: BLE001 (best effort: a description only)
        name = None
    return name if isinstance(name, str) else str(source)


def _bound(v: Any, default):
    """An int bound from a ValueRanges end; ``default`` for (int_)oo and anything not finite."""
    if isinstance(v, int):
        return v
    if getattr(v, "is_integer", False) is True and getattr(v, "is_finite", None) is True \
            and getattr(v, "is_Integer", False):
        return int(v)
    return default


# --- decisions --------------------------------------------------------------------------------


class SizedDecision:
    """What ``Plan.solve`` decided at one set of sizes.

    ``saved_index``: int64 joint-node indices (ascending, graph order); ``saved``: their names;
    ``cost``: bytes moved by the saved set (cost.py's 1x/2x byte cost, no tie-break);
    ``saved_bytes``: storage kept alive for the backward (each saved tensor's storage once,
    SymInts free); ``cut_value``: the min-cut value (``cost * scale + tie-break``); ``sizes``:
    ``{name: value}``. Unlike ``partition.Decision`` it holds no per-node arrays: everything
    but ``saved_index`` and ``cut_value`` is computed on first use.
    """

    __slots__ = ("plan", "values", "saved_index", "cut_value", "_cache")

    def __init__(self, plan: Plan, values: tuple[int, ...], saved_index: np.ndarray,
                 cut_value: int) -> None:
        self.plan = plan
        self.values = values
        self.saved_index = saved_index
        self.cut_value = cut_value
        self._cache: dict[str, Any] = {}

    @property
    def sizes(self) -> dict[str, int]:
        return dict(zip(self.plan.symbols, self.values))

    @property
    def saved(self) -> list[str]:
        names = self.plan.names
        return [names[i] for i in self.saved_index]

    @property
    def saved_nodes(self) -> list[fx.Node]:
        nodes = self.plan.graph.nodes
        return [nodes[i] for i in self.saved_index]

    @property
    def saved_values(self) -> list[fx.Node]:
        g = self.plan.graph
        return [g.nodes[i] for i in self.saved_index if g.value[i] == Value.TENSOR]

    @property
    def saved_sym_nodes(self) -> list[fx.Node]:
        g = self.plan.graph
        return [g.nodes[i] for i in self.saved_index if g.value[i] == Value.SYMINT]

    def _numel(self) -> np.ndarray:
        if "numel" not in self._cache:
            self._cache["numel"] = self.plan._numel_at(self.values)
        return self._cache["numel"]

    @property
    def cost(self) -> int:
        p = self.plan
        numel = self._numel()
        idx = self.saved_index
        base = p.graph.base[idx]
        nbytes = numel[base] * p.graph.itemsize[base]
        return int(sum(int(x) for x in p._m[idx] * nbytes + p._c[idx]))

    @property
    def saved_bytes(self) -> int:
        p = self.plan
        g = p.graph
        numel = self._numel()
        bases = {int(g.base[i]) for i in self.saved_index if g.value[i] == Value.TENSOR}
        return sum(int(numel[b]) * int(g.itemsize[b]) for b in bases)

    def key(self) -> tuple[int, ...]:
        return tuple(int(i) for i in self.saved_index)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SizedDecision):
            return NotImplemented
        return self.plan is other.plan and np.array_equal(self.saved_index, other.saved_index)

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        shown = self.saved[:8]
        more = f", ... {len(self.saved_index) - 8} more" if len(self.saved_index) > 8 else ""
        return (f"SizedDecision(sizes={self.sizes}, cost={self.cost}, "
                f"saved_bytes={self.saved_bytes}, saved=[{', '.join(shown)}{more}])")


# --- sweeping one symbol ----------------------------------------------------------------------


class _Sweep:
    """One symbol ``t`` over a range, the others fixed. For polynomial sizes each reduced
    node's weight is a polynomial ``W[:, a] @ t**a``; cut keys are tuples of reduced indices."""

    def __init__(self, plan: Plan, k: int, values: list[int]) -> None:
        self.plan = plan
        self.k = k
        self.values = values
        prog = plan._program
        self.exact = not prog.depends_nonpolynomially(k)
        self.degree = prog.degree(k) if self.exact else 1
        self._real: dict[int, tuple[bytes, int, np.ndarray]] = {}
        self._cuts: dict[bytes, np.ndarray] = {}
        self._r = len(plan._net.keep)
        self._virtual: dict[tuple, bool] = {}
        if self.exact:
            self._build_polynomials()

    def _build_polynomials(self) -> None:
        """coefficients P (E, d+1) of each expression as a polynomial in t (Python-int exact,
        stored as int64 after a range check)."""
        p = self.plan
        prog = p._program
        d = self.degree
        gen_vals = prog.generator_values(tuple(self.values))
        M = prog.exps.shape[0]
        part = np.zeros((M, d + 1), dtype=object)
        for m in range(M):
            v = 1
            for g, e in prog._exp_rows[m]:
                if g != self.k:
                    v *= gen_vals[g] ** e
            part[m, int(prog.exps[m, self.k])] = v
        coef = prog.coef.astype(object)
        P = coef.dot(part)
        self.P = P  # object (E, d+1)

    def E_at(self, t: int) -> np.ndarray:
        vals = list(self.values)
        vals[self.k] = t
        return self.plan._evaluate(tuple(vals))

    def bans_at(self, t: int) -> np.ndarray:
        return self.plan._bans(self.E_at(t))

    def ban_segments(self, lo: int, hi: int) -> list[tuple[int, int]]:
        """Maximal sub-ranges on which the size-dependent bans do not change."""
        p = self.plan
        if not len(p._dyn_ban_nodes) or lo == hi:
            return [(lo, hi)]
        candidates = {lo, hi}
        if self.exact:
            ratio = p._ratio
            for o, i in zip(p._dyn_ban_out, p._dyn_ban_in):
                g = [float(x) * ratio for x in self.P[o]]
                for a, x in enumerate(self.P[i]):
                    g[a] -= float(x)
                while len(g) > 1 and g[-1] == 0:
                    g.pop()
                if len(g) <= 1:
                    continue
                for root in np.roots(g[::-1]):
                    if abs(root.imag) > 1e-9 * max(1.0, abs(root.real)):
                        continue
                    for t in (math.floor(root.real) - 1, math.floor(root.real),
                              math.floor(root.real) + 1, math.floor(root.real) + 2):
                        if lo <= t <= hi:
                            candidates.add(int(t))
        else:
            step = max(1, (hi - lo) // 4096)
            candidates.update(range(lo, hi + 1, step))
        points = sorted(candidates)
        cuts = []
        prev_t, prev = points[0], self.bans_at(points[0])
        for t in points[1:]:
            cur = self.bans_at(t)
            if not np.array_equal(cur, prev):
                a, b = prev_t, t  # first change in (a, b]
                while b - a > 1:
                    mid = (a + b) // 2
                    if np.array_equal(self.bans_at(mid), prev):
                        a = mid
                    else:
                        b = mid
                cuts.append(b)
            prev_t, prev = t, cur
        bounds = [lo] + cuts + [hi + 1]
        return [(bounds[j], bounds[j + 1] - 1) for j in range(len(bounds) - 1)]

    def real(self, t: int) -> tuple[bytes, int, np.ndarray]:
        """(cut key, min value, weights) at t."""
        hit = self._real.get(t)
        if hit is not None:
            return hit
        p = self.plan
        E = self.E_at(t)
        w = p._network_weights(E)
        if w is None:
            raise OverflowError(f"Plan.breakpoints: at {p._sym_list[self.k]} = {t} the sizes "
                                f"are too large for the exact tie-break (cost.py coarsens it)")
        value, cut_nodes, _, _, _ = p._core.solve(w, p.options.algorithm, False,
                                                  "Plan.breakpoints")
        key = self._key(cut_nodes)
        hit = (key, int(value), w)
        self._real[t] = hit
        return hit

    def _key(self, cut_nodes: np.ndarray) -> bytes:
        """A hashable cut: the bytes of its kept-node indices (auxiliary nodes dropped)."""
        arr = np.ascontiguousarray(cut_nodes[cut_nodes < self._r], dtype=np.int64)
        key = arr.tobytes()
        self._cuts.setdefault(key, arr)
        return key

    def value(self, key: bytes, t: int) -> int:
        return int(self.real_weights(t)[self._cuts[key]].sum())

    def real_weights(self, t: int) -> np.ndarray:
        hit = self._real.get(t)
        if hit is not None:
            return hit[2]
        w = self.plan._network_weights(self.E_at(t))
        if w is None:
            raise OverflowError("Plan.breakpoints: sizes too large for the exact tie-break")
        return w

    def optimal_between(self, key: bytes, p: int, q: int, bans: np.ndarray) -> bool:
        """Whether the cut ``key`` (optimal at p and q) is optimal at the inner control points
        of [p, q]: then at every size in between."""
        d = self.degree
        if d <= 1:
            return True
        if not self.exact:
            mid = (p + q) // 2
            return self.real(mid)[1] == self.value(key, mid)
        table, scale = blossom_values(d, p, q)
        plan = self.plan
        for j in range(1, d):
            mu = np.array(table[j], dtype=object)
            E = self.P.dot(mu)
            if max((abs(int(x)) for x in E), default=0) >= 1 << 62:
                raise OverflowError("Plan.breakpoints: sizes too large for a range certificate")
            mono_E = np.array([int(x) for x in E], dtype=np.int64)
            value, _, w = _solve_with_E(plan, mono_E, scale, bans)
            if int(w[self._cuts[key]].sum()) != value:
                return False
        return True

    def cover(self, p: int, q: int) -> list[tuple[int, int, bytes]]:
        bans = self.bans_at(p)
        out: list[tuple[int, int, bytes]] = []
        stack = [(p, q)]
        while stack:
            a, b = stack.pop()
            A, va, _ = self.real(a)
            if a == b:
                out.append((a, a, A))
                continue
            B, vb, _ = self.real(b)
            if A == B or self.value(A, b) == vb:
                if self.optimal_between(A, a, b, bans):
                    out.append((a, b, A))
                    continue
                mid = (a + b) // 2
                stack.append((mid + 1, b))
                stack.append((a, mid))
                continue
            # A is better at a, B at b: the last t with value(A) <= value(B) splits them.
            lo_t, hi_t = a, b
            while hi_t - lo_t > 1:
                mid = (lo_t + hi_t) // 2
                if self.value(A, mid) <= self.value(B, mid):
                    lo_t = mid
                else:
                    hi_t = mid
            stack.append((lo_t + 1, b))
            stack.append((a, lo_t))
        out.sort()
        return out

    def decision(self, key: bytes, t: int) -> SizedDecision:
        p = self.plan
        vals = list(self.values)
        vals[self.k] = t
        saved = np.sort(p._net.keep[self._cuts[key]])
        return SizedDecision(p, tuple(vals), saved, self.value(key, t))


def _solve_with_E(plan: Plan, E: np.ndarray, scale: int, bans: np.ndarray, *,
                  tie_break: bool = True):
    """Min cut with element counts ``E`` that are ``scale`` x a virtual point (every constant
    weight term scaled by ``scale`` too). ``tie_break=False``: byte costs only."""
    bytes_dyn = plan._dyn_mi * E[plan._dyn_eid]
    if tie_break:
        w_const, h, per_byte = plan._w_const, plan._dyn_h, plan._scale
    else:
        w_const, h, per_byte = plan._cost_const, plan._dyn_c, 1
    w = np.where(w_const < INF, w_const * scale, INF)
    w[plan._dyn_pos] = h * scale + bytes_dyn * per_byte
    if len(plan._dyn_ban_nodes):
        w[plan._aux_slice] = np.where(bans, INF, 0)
    finite = w[w < INF]
    if finite.size and (finite >= INF // 2).any():
        raise OverflowError("Plan: sizes too large for an exact range certificate")
    value, cut_nodes, _, _, _ = plan._core.solve(w, plan.options.algorithm, False,
                                                 "Plan.breakpoints")
    return int(value), cut_nodes, w


# --- whole ranges and the partition_fn --------------------------------------------------------


@dataclass
class RangeReport:
    """Whether one decision is optimal over a box of sizes.

    ``optimal``: True (certified at every size in ``box``), False (``counterexample`` holds
    sizes where another decision is strictly cheaper), or None (neither certified nor refuted:
    a size-dependent ban may flip inside the box, or sizes are not polynomial).
    """

    decision: SizedDecision
    box: dict[str, tuple[int, int]]
    optimal: bool | None
    counterexample: dict[str, int] | None = None
    better: SizedDecision | None = None
    detail: str = ""


def _recomputed(plan: Plan, saved: np.ndarray) -> np.ndarray:
    """bool over reduced nodes: the node's in-vertex reaches the sink without crossing a saved
    node, i.e. the backward recomputes it (a ban on it would make this cut infinite). One
    reverse pass: reduced node order is graph order, which is topological."""
    r = len(plan._net.keep)
    is_saved = np.zeros(r, dtype=bool)
    is_saved[saved] = True
    ptr, dst = plan._red_ptr.tolist(), plan._red_dst.tolist()
    sink_in, sink_out = plan._red_sink_in.tolist(), plan._red_sink_out.tolist()
    saved_l = is_saved.tolist()
    in_reach = [False] * r
    for k in range(r - 1, -1, -1):
        out = sink_out[k] or any(in_reach[u] for u in dst[ptr[k]:ptr[k + 1]])
        in_reach[k] = sink_in[k] or (out and not saved_l[k])
    return np.asarray(in_reach, dtype=bool)


def check_optimal_over_ranges(plan: Plan, sizes=None, *, upper: int = 1 << 16,
                              box: Mapping[str, tuple[int, int]] | None = None) -> RangeReport:
    """Is the decision at ``sizes`` (default: the hints) optimal over the symbols' declared
    ranges? Unbounded ranges are capped at ``max(upper, hint)``; ``box`` overrides ranges.

    Certificate: the cut is minimal at every tensor-product Bernstein control point of the box
    (the monomial values of every size in the box lie in their convex hull), with each
    size-dependent ban imposed only where it holds on the whole box (Bernstein coefficients of
    ``out * ratio - in`` all <= 0), and the cut recomputes no node whose ban may switch on in
    the box. Otherwise the corners and per-symbol breakpoints are probed for a
    counterexample.
    """
    decision = plan.solve(sizes)
    values = decision.values
    ranges: dict[str, tuple[int, int]] = {}
    for name, info in plan.symbols.items():
        hi = info.hi if info.hi is not None else max(upper, info.hint)
        ranges[name] = (info.lo, hi)
    if box:
        for key, (a, b) in box.items():
            k, name = plan._symbol_arg(key, "check_optimal_over_ranges")
            ranges[name] = (int(a), int(b))
    prog = plan._program
    net_key = tuple(int(x) for x in plan._net.pos[decision.saved_index])
    polynomial = prog.polynomial
    certified = polynomial
    detail = ""
    if polynomial:
        degrees = [prog.degree(k) for k in range(len(plan._sym_list))]
        tables = []
        total_scale = 1
        for k, name in enumerate(plan.symbols):
            a, b = ranges[name]
            table, sc = blossom_values(degrees[k], a, b)
            tables.append(table)
            total_scale *= sc
        # Bans: sign of out*ratio - in at every control point.
        grid = list(np.ndindex(*[d + 1 for d in degrees])) if degrees else [()]
        if len(grid) > 4096:
            certified = False
            detail = f"{len(grid)} control points: too many to certify"
        else:
            monos = []
            for idx in grid:
                mu = []
                for m in range(prog.exps.shape[0]):
                    v = 1
                    for g, e in prog._exp_rows[m]:
                        v *= tables[g][idx[g]][e]
                    # scale each symbol's missing powers: table entries already carry scale_k
                    for g in range(len(degrees)):
                        if prog.exps[m, g] == 0:
                            v *= tables[g][idx[g]][0]
                    mu.append(v)
                monos.append(mu)
            coef = prog.coef.astype(object)
            # A size-dependent ban holds on the whole box where out * ratio - in has
            # Bernstein coefficients (its values at the control points) <= 0, and nowhere
            # where they are all > 0. Certify against the relaxation that bans only the
            # former (its min cut is a lower bound at every size of the box), and check that
            # the decision recomputes none of the nodes whose ban may switch on.
            npairs = len(plan._dyn_ban_out)
            surely = np.ones(npairs, dtype=bool)
            never = np.ones(npairs, dtype=bool)
            for mu in monos:
                E = coef.dot(np.array(mu, dtype=object))
                for k, (o, i) in enumerate(zip(plan._dyn_ban_out, plan._dyn_ban_in)):
                    banned = float(E[o]) * plan._ratio <= float(E[i]) and E[i] > 0
                    surely[k] &= banned
                    never[k] &= float(E[o]) * plan._ratio > float(E[i])
            bans = surely[plan._dyn_ban_pair]
            maybe = ~(surely | never)[plan._dyn_ban_pair]
            if maybe.any():
                recomputed = _recomputed(plan, np.asarray(net_key, dtype=np.int64))
                switching = plan._net.pos[plan._dyn_ban_nodes[maybe]]
                if recomputed[switching].any():
                    certified = False
                    v = int(plan._dyn_ban_nodes[maybe][recomputed[switching]][0])
                    detail = (f"the decision recomputes {plan.graph.nodes[v].name}, whose "
                              f"reduction ban switches on inside the box")
            if certified:
                for mu in monos:
                    E = coef.dot(np.array(mu, dtype=object))
                    if max((abs(int(x)) for x in E), default=0) >= 1 << 62:
                        certified = False
                        detail = "sizes too large for an exact certificate"
                        break
                    Ei = np.array([int(x) for x in E], dtype=np.int64)
                    value, _, w = _solve_with_E(plan, Ei, total_scale, bans, tie_break=False)
                    if int(w[list(net_key)].sum()) != value:
                        certified = False
                        detail = "another cut is cheaper at a control point"
                        break
    else:
        detail = "sizes are not polynomial in the symbols"
    if certified:
        return RangeReport(decision, ranges, True, detail="certified at the control points")
    # Look for a counterexample at real sizes: corners, then one sweep per symbol. The
    # decision fails at sizes where another is cheaper, or where a ban forbids it.
    names = list(plan.symbols)
    recomputed = _recomputed(plan, np.asarray(net_key, dtype=np.int64))
    dyn_recomputed = recomputed[plan._net.pos[plan._dyn_ban_nodes]]

    def fails(vals: tuple[int, ...], better: SizedDecision) -> bool:
        if len(plan._dyn_ban_nodes) and (plan._bans(plan._evaluate(vals)) & dyn_recomputed).any():
            return True
        return better.cost < SizedDecision(plan, vals, decision.saved_index, 0).cost

    corners = [()]
    for name in names:
        corners = [c + (x,) for c in corners for x in sorted(set(ranges[name]))]
    for corner in corners[:256]:
        better = plan._solve_values(tuple(corner))
        if fails(tuple(corner), better):
            return RangeReport(decision, ranges, False, dict(zip(names, corner)), better, detail)
    for name in names:
        a, b = ranges[name]
        fixed = dict(zip(names, values))
        fixed.pop(name)
        for lo_k, hi_k, dec in plan.breakpoints(name, a, b, fixed=fixed):
            if dec.key() != decision.key() and fails(dec.values, dec):
                return RangeReport(decision, ranges, False, dec.sizes, dec, detail)
    return RangeReport(decision, ranges, None, detail=detail)


def partition_for_sizes(joint_module: fx.GraphModule, joint_inputs: Any,
                        compiler: str = "inductor", *, num_fwd_outputs: int,
                        sizes: Mapping[Any, int] | Any = None,
                        report: Any = None,
                        static_lifetime_input_indices: Sequence[int] | None = None,
                        options: Options | None = None, **kwargs: Any
                        ) -> tuple[fx.GraphModule, fx.GraphModule]:
    """``fusioncut.partition`` that decides for chosen sizes of a dynamic-shape graph.

    ``sizes``: None (the size hints, i.e. exactly ``partition``), ``{symbol or name: int}``
    for every symbol, or a callable ``Plan -> mapping`` (for instance
    ``lambda p: {**p.hints(), seq_symbol(p): 4096}``, since symbol names are only known once
    the graph is traced). ``report``: None, or a callable that receives the
    ``check_optimal_over_ranges`` ``RangeReport`` of the decision (is it optimal over the
    symbols' declared ranges?). A graph without symbols takes ``partition``'s path (sizes must
    then be None); graphs fusioncut does not model fall back to torch's partitioner as
    ``partition`` does.
    """
    from fusioncut import partitioner as _partition

    if (sizes is None and report is None) or not _has_symbols(joint_module):
        if sizes is not None:
            raise SizeError(f"partition: sizes {sizes!r} given but the joint graph has no "
                            f"size symbols")
        return _partition.partition(joint_module, joint_inputs, compiler,
                                    num_fwd_outputs=num_fwd_outputs,
                                    static_lifetime_input_indices=static_lifetime_input_indices,
                                    options=options, **kwargs)
    reason = _partition._unsupported_config() or unsupported_construct(joint_module)
    if reason is not None:
        from fusioncut.fallback import fallback_partition

        return fallback_partition(reason, joint_module, joint_inputs,
                                  num_fwd_outputs=num_fwd_outputs,
                                  static_lifetime_input_indices=static_lifetime_input_indices,
                                  compiler=compiler, stacklevel=3)
    p = plan(joint_module, joint_inputs, num_fwd_outputs=num_fwd_outputs,
             static_lifetime_input_indices=static_lifetime_input_indices, options=options)
    chosen = sizes(p) if callable(sizes) else sizes
    if report is not None:
        report(check_optimal_over_ranges(p, chosen))
    return p.partition(chosen)


def _has_symbols(gm: fx.GraphModule) -> bool:
    for node in gm.graph.nodes:
        val = node.meta.get("val")
        if isinstance(val, torch.SymInt):
            return True
        if isinstance(val, torch.Tensor) and not isinstance(val.numel(), int):
            return True
    return False
