"""``plan``: analyse a dynamic-shape joint graph once, decide per size in microseconds.

Everything but the node weights is size-independent (roles, op kinds, fusion, bans but one,
distances, graph structure), so ``plan`` runs ``decide`` once at the size hints and keeps::

    sizes      SizeTable: each element count as a polynomial in the symbols, compiled to
               E = coef @ monomials(sizes)                     (symexpr.SizeProgram, int64)
    weights    the decision's CostModel evaluated at E:
               w[dyn] = (const * K + tie) + per_byte * itemsize * E[expr] * K       (cost.py)
    bans       the reduction rule (policy.reduction_ban) at E, for the nodes whose ban it
               alone decides (policy.reduction_decides) and whose sizes are not proportional
    network    decide's network with the backward folded into the sink
               (network.contract_backward), one switch node per size-dependent ban
               (network.add_switches), built once as a NodeCutGraph and re-solved

``Plan.solve(sizes)`` returns a ``SizedDecision`` equal to what ``decide`` chooses for the
same model traced with those static sizes. Sizes so large that the cost model coarsens its
tie-break (bytes x K >= 2**62) take the slow path: ``CostModel.weights`` verbatim.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import sympy
import torch
import torch.fx as fx

from fusioncut._solver import INF, NodeCutGraph
from fusioncut.decision import Decision, PartitionError, decide_module
from fusioncut.dynamic.priced import PlanBudget, PlanPrices, flop_expressions
from fusioncut.dynamic.sized import SizedDecision
from fusioncut.dynamic.sizes import SizeError, SizeOverflowError, SizeTable, SymbolInfo
from fusioncut.dynamic.sweep import breakpoints
from fusioncut.dynamic.symexpr import SizeProgram
from fusioncut.emit import build_modules
from fusioncut.graph import Role
from fusioncut.budget import choose
from fusioncut.network import add_switches, contract_backward, prices_of
from fusioncut.offload import offloaded
from fusioncut.options import Options
from fusioncut.policy import reduction_ban, reduction_inputs

__all__ = ["Plan", "SizeError", "SizedDecision", "plan"]


def plan(joint_module: fx.GraphModule, joint_inputs: Any = None, *, num_fwd_outputs: int,
         static_lifetime_input_indices: Sequence[int] | None = None,
         options: Options | None = None, **_ignored: Any) -> Plan:
    """Analyse a (dynamic-shape) joint graph once; see ``Plan``.

    Same arguments as ``fusioncut.partition`` (``joint_inputs``, ``compiler`` and unknown
    keywords are accepted and ignored). The graph is not modified. Warns
    ``UnbackedSizeWarning`` once per unbacked symbol.

    Rejects: what ``check_joint_module`` rejects (a non-GraphModule, a malformed graph, a node
    without ``meta["val"]``, a graph without a backward, bad ``num_fwd_outputs`` or
    ``static_lifetime_input_indices``), a graph that ``partition`` would
    hand to torch's partitioner (``ValueError`` naming the construct), ``options`` that is not
    an ``Options`` (``TypeError``); ``PartitionError`` when no valid partition exists.
    """
    if options is None:
        options = Options()
    if not isinstance(options, Options):
        raise TypeError(f"plan: options must be a fusioncut.Options, got "
                        f"{type(options).__name__}")
    reference = decide_module(joint_module, num_fwd_outputs, static_lifetime_input_indices,
                              options, "plan")
    return Plan(reference, options, static_lifetime_input_indices)


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

    def __init__(self, reference: Decision, options: Options,
                 static_lifetime_input_indices: Sequence[int] | None = None) -> None:
        graph = reference.graph
        self.graph = graph
        self.reference = reference
        self.options = options
        self.policy = reference.policy
        self.costs = reference.costs
        self.num_fwd_outputs = graph.num_fwd_outputs
        self.static_lifetime_input_indices = (list(static_lifetime_input_indices)
                                              if static_lifetime_input_indices else None)
        self._names: list[str] | None = None
        self._structure = _structure(graph.gm)
        self.sizes = SizeTable(graph, options)
        self._collect_bans()
        self._build_network()
        self._check_against(reference)

    @property
    def symbols(self) -> dict[str, SymbolInfo]:
        return self.sizes.symbols

    def hints(self) -> dict[str, int]:
        """``{name: hint}``: the sizes seen at trace time (fallbacks for unbacked symbols)."""
        return self.sizes.hints()

    # -- sizes ---------------------------------------------------------------------------------

    def _evaluate(self, values: tuple[int, ...], function: str = "Plan.solve") -> np.ndarray:
        """int64 element count of every expression at ``values``; ``SizeOverflowError`` when
        one reaches 2**62."""
        prog = self.program
        try:
            mono = prog.monomials(prog.generator_values(values))
        except OverflowError as e:
            raise self._too_large(function, values, f"element counts beyond int64 ({e})") from None
        bound = self._abs_coef @ mono.astype(np.float64)
        if bound.size and bound.max() >= 2.0 ** 62:
            raise self._too_large(function, values, "element counts of 2**62 or more")
        return prog.coef @ mono

    def _too_large(self, function: str, values, what: str) -> SizeOverflowError:
        return SizeOverflowError(f"{function}: sizes {dict(zip(self.symbols, values))} give "
                                 f"{what}; valid sizes keep every tensor below 2**62 elements "
                                 f"and bytes")

    def numel(self, sizes) -> np.ndarray:
        """int64 (n,) element count of each joint node at ``sizes``."""
        return self._numel_at(self.sizes.values(sizes, "Plan.numel"))

    def _numel_at(self, values, function: str = "Plan.solve") -> np.ndarray:
        E = self._evaluate(values, function)
        out = self.sizes.const_numel.copy()
        sym = self.sizes.node_expr >= 0
        out[sym] = E[self.sizes.node_expr[sym]]
        return out

    # -- bans ------------------------------------------------------------------------------------

    def _collect_bans(self) -> None:
        """The nodes whose ban the reduction rule decides and whose comparison depends on the
        sizes; each becomes a switch evaluated per size."""
        graph, sizes = self.graph, self.sizes
        ratio = self.options.reduction_ratio
        self.ratio = float(ratio)
        exprs = list(sizes.exprs)
        index = {e: k for k, e in enumerate(exprs)}
        dyn_nodes, dyn_out, dyn_in = [], [], []
        memo: dict[tuple, int | None] = {}
        candidates = self.policy.reduction_decides if ratio != math.inf else \
            np.zeros(graph.num_nodes, dtype=bool)
        for i in np.flatnonzero(candidates).tolist():
            ins = tuple(sorted(sizes.expr_key(j) for j in reduction_inputs(graph, i)))
            pair = (sizes.expr_key(i), ins)
            if pair not in memo:
                out_e = sizes.key_sympy(pair[0])
                in_e = sympy.expand(sympy.Add(*[sizes.key_sympy(x) for x in ins]))
                if not (out_e.free_symbols or in_e.free_symbols) or _constant_ratio(out_e, in_e):
                    memo[pair] = None  # the hints' answer holds at every size
                else:
                    for e in (out_e, in_e):
                        if e not in index:
                            index[e] = len(exprs)
                            exprs.append(e)
                    memo[pair] = (index[out_e], index[in_e])
            hit = memo[pair]
            if hit is None:
                continue
            dyn_nodes.append(i)
            dyn_out.append(hit[0])
            dyn_in.append(hit[1])
        self._dyn_ban_nodes = np.asarray(dyn_nodes, dtype=np.int64)
        # Many nodes share one comparison (a masked_fill per layer): evaluate each pair once.
        pairs = sorted(set(zip(dyn_out, dyn_in)))
        pair_index = {p: k for k, p in enumerate(pairs)}
        self._dyn_ban_out = np.asarray([o for o, _ in pairs], dtype=np.int64)
        self._dyn_ban_in = np.asarray([i for _, i in pairs], dtype=np.int64)
        self._dyn_ban_pair = np.asarray([pair_index[p] for p in zip(dyn_out, dyn_in)],
                                        dtype=np.int64)
        # FLOP counts of matmuls as expressions too: budgets price them at every size.
        self._flop_ids: dict[int, int] = {}
        for i, expr in flop_expressions(graph).items():
            if expr not in index:
                index[expr] = len(exprs)
                exprs.append(expr)
            self._flop_ids[i] = index[expr]
        self.program = SizeProgram.compile(exprs, sizes.sym_list)
        self._abs_coef = np.abs(self.program.coef).astype(np.float64)

    def _bans(self, E: np.ndarray) -> np.ndarray:
        """bool (number of size-dependent bans,): banned at these element counts."""
        banned = reduction_ban(E[self._dyn_ban_out], E[self._dyn_ban_in], self.ratio)
        return banned[self._dyn_ban_pair]

    # -- network and weights ---------------------------------------------------------------------

    def _build_network(self) -> None:
        graph, costs = self.graph, self.costs
        ref = self.reference
        contracted = contract_backward(graph, ref.network)
        if (costs.finite & (contracted.pos < 0)).any():
            raise RuntimeError("fusioncut.dynamic: a backward node has a finite weight; the "
                               "contraction into the sink assumes it cannot be saved")
        self._contracted = contracted
        keep, pos = contracted.keep, contracted.pos
        nd = len(self._dyn_ban_nodes)
        r = len(keep)
        net = add_switches(contracted.network, pos[self._dyn_ban_nodes])
        # With a device, recomputing is priced (decision.py): one more switch per node.
        self._prices = None
        self._priced = np.zeros(0, dtype=np.int64)
        if self.options.device is not None:
            self._prices = PlanPrices(graph, self.options.device, self.sizes, self._flop_ids)
            ref_net = ref.network
            self._priced = np.flatnonzero((graph.role == Role.FORWARD) & ~ref_net.source_in
                                          & ~ref_net.sink_in & self._prices.model.costly)
            net = add_switches(net, pos[self._priced])
        npr = len(self._priced)
        self._solver = NodeCutGraph(r + nd + npr, net.src, net.dst, source_in=net.source_in,
                                    sink_in=net.sink_in, sink_out=net.sink_out)
        self._aux_slice = slice(r, r + nd)
        self._price_slice = slice(r + nd, r + nd + npr)
        self._budget: PlanBudget | None = None
        # Per kept node: weight = const_w + per_byte * itemsize * E[eid] * K for a node whose
        # storage size is symbolic, a constant otherwise (the cost model, evaluated).
        sizes = self.sizes
        scale = costs.scale
        base = graph.base[keep]
        finite = costs.finite[keep]
        eid = sizes.node_expr[base]
        dyn = finite & (eid >= 0)
        itemsize = graph.itemsize[base]
        per_byte, const, tie = costs.per_byte[keep], costs.const[keep], costs.tie[keep]
        # cost.py's overflow-checked costs of the constant sizes (symbolic ones count 0 here);
        # beyond max_exact_cost _network_weights takes the slow path, so no product wraps.
        const_cost = costs.costs(sizes.const_numel * graph.itemsize)[keep]
        exact = const_cost <= costs.max_exact_cost
        zeros = np.zeros(nd + npr, dtype=np.int64)
        self._cost_const = np.concatenate([np.where(finite, const_cost, INF), zeros])
        w_exact = np.where(exact, const_cost, 0) * scale + tie
        self._w_const = np.concatenate([np.where(
            finite, np.where(exact, w_exact, INF - 1), INF), zeros])
        self._dyn_pos = np.flatnonzero(dyn)
        self._dyn_eid = eid[dyn]
        self._dyn_mi = (per_byte * itemsize)[dyn]
        self._dyn_h = (const * scale + tie)[dyn]
        self._dyn_c = const[dyn]
        self._E_limit = INF // (2 * max(1, int(self._dyn_mi.max()) if dyn.any() else 1))
        self._const_max_cost = int(const_cost[finite & ~dyn].max()) if (finite & ~dyn).any() \
            else 0
        if not exact[finite].all():
            self._const_max_cost = INF  # _network_weights: always the slow path

    def weights(self, sizes) -> np.ndarray:
        """int64 (n,) node weights at ``sizes``: exactly ``cost.weights`` of the joint graph
        with those sizes (the min-cut capacities, tie-break included)."""
        return self._full_weights(self.sizes.values(sizes, "Plan.weights"), "Plan.weights")

    def _full_weights(self, values, function: str = "Plan.solve") -> np.ndarray:
        numel = self._numel_at(values, function)
        # Below 2**63 bytes cost.py saturates as decide() does; beyond, int64 cannot count.
        if (numel.astype(np.float64) * self.graph.itemsize).max(initial=0) >= 2.0 ** 63:
            raise self._too_large(function, values, "tensors of 2**63 bytes or more")
        return self.costs.weights(numel * self.graph.itemsize)

    def _network_weights(self, E: np.ndarray) -> np.ndarray | None:
        """int64 weights of the reduced network at element counts ``E``; None when the sizes
        are so large that the cost model coarsens its tie-break (the caller takes the slow
        path)."""
        if len(self._dyn_eid) and int(E.max()) > self._E_limit:
            return None  # bytes_dyn below could overflow int64
        bytes_dyn = self._dyn_mi * E[self._dyn_eid]
        max_cost = self.costs.max_exact_cost
        if self._const_max_cost > max_cost:
            return None  # constant sizes alone coarsen the tie-break (no symbol needed)
        if len(bytes_dyn):
            top = int((bytes_dyn + self._dyn_c).max())
            if top > max_cost:
                return None
        w = self._w_const.copy()
        w[self._dyn_pos] += bytes_dyn * self.costs.scale
        if len(self._dyn_ban_nodes):
            w[self._aux_slice] = np.where(self._bans(E), INF, 0)
        self._set_prices(w, E)
        return w

    def _set_prices(self, w: np.ndarray, E: np.ndarray) -> None:
        """The recompute prices at element counts ``E`` (when the options name a device)."""
        if self._prices is not None and len(self._priced):
            w[self._price_slice] = prices_of(self._prices.byte_equivalents(E)[self._priced],
                                             self.costs.scale)

    def _check_against(self, reference: Decision) -> None:
        """The plan at the hints must decide what decide() decided (same graph, same sizes)."""
        if any(info.unbacked for info in self.symbols.values()):
            return  # graph.py's hint for an unbacked size is the fallback for the whole numel
        mine = self._solve_values(self.sizes.values(None, "plan"))
        runtime = reference.saved if reference.budget is None else reference.runtime_saved
        if not np.array_equal(mine.saved_index, np.asarray(runtime, dtype=np.int64)):
            raise RuntimeError(
                "fusioncut.dynamic: the plan disagrees with decide() at the hints: saved "
                f"{mine.saved} vs {[self.graph.nodes[i].name for i in runtime]}")

    # -- solving ---------------------------------------------------------------------------------

    def cut(self, w: np.ndarray, function: str) -> tuple[int, np.ndarray]:
        """``(value, kept-node indices of the cut)`` of the reduced network with weights
        ``w`` (switch nodes dropped); the one call into the solver."""
        cut = self._solver.solve_int64(w, algorithm=self.options.algorithm, function=function)
        cut_nodes = cut.cut_nodes
        return int(cut.value), cut_nodes[cut_nodes < len(self._contracted.keep)]

    def solve(self, sizes: Mapping[Any, int] | Sequence[int] | None = None, *,
              memory_budget: float | None = None, memory_budget_bytes: int | None = None,
              peak_memory_bytes: int | None = None) -> SizedDecision:
        """The saved set at ``sizes`` (``{symbol or name: int}``, a sequence in ``symbols``
        order, or None for the hints).

        A memory target (one of ``memory_budget``, ``memory_budget_bytes``,
        ``peak_memory_bytes``, as in ``Options``; default: the plan's ``Options``) picks the
        plan of the budget frontier at these sizes (budget.py); ``SizedDecision.budget``
        then says how. Out-of-range targets raise ``ValueError`` naming the argument.

        Rejects: an unknown, missing, non-integer (bool, float, string), negative or
        out-of-range size, and sizes that are not a mapping, a sequence or None (a bare int or a
        string is not a set of sizes): ``SizeError`` naming the symbol and its valid range;
        sizes whose element counts or tensors reach 2**62 (``SizeOverflowError``, both a
        ``SizeError`` and an ``OverflowError``). ``PartitionError`` when no valid partition
        exists at those sizes."""
        values = self.sizes.values(sizes, "Plan.solve")
        target = self._target(memory_budget, memory_budget_bytes, peak_memory_bytes)
        decision = self._solve_values(values)
        if target is None:
            return decision
        E = self._evaluate(values, "Plan.solve")
        if self._budget is None:
            device = self.options.budget_device
            prices = self._prices if self._prices is not None and \
                self._prices.model.device == device else \
                PlanPrices(self.graph, device, self.sizes, self._flop_ids)
            self._budget = PlanBudget(self, prices)
        front = self._budget.frontier(E, decision.saved_index)
        choice = choose(front, stacklevel=3, **target)
        w = self._full_weights(values)
        return SizedDecision(self, values, choice.point.saved,
                             int(w[choice.point.saved].sum()), budget=choice)

    def _target(self, memory_budget, memory_budget_bytes, peak_memory_bytes) -> dict | None:
        """The memory target of a solve: the arguments (validated as ``Options`` validates
        them) or the plan's options; None when there is none."""
        given = {k: v for k, v in (("memory_budget", memory_budget),
                                   ("memory_budget_bytes", memory_budget_bytes),
                                   ("peak_memory_bytes", peak_memory_bytes)) if v is not None}
        if given:
            try:
                checked = dataclasses.replace(self.options, **{
                    "memory_budget": None, "memory_budget_bytes": None,
                    "peak_memory_bytes": None, **given})
            except ValueError as e:
                raise ValueError(str(e).replace("Options:", "Plan.solve:", 1)) from None
            if not checked.budgeted:
                return None
            return given
        o = self.options
        if not o.budgeted:
            return None
        return {"memory_budget": o.memory_budget, "memory_budget_bytes": o.memory_budget_bytes,
                "peak_memory_bytes": o.peak_memory_bytes}

    def _solve_values(self, values: tuple[int, ...], function: str = "Plan.solve"
                      ) -> SizedDecision:
        E = self._evaluate(values, function)
        w = self._network_weights(E)
        if w is None:
            w_full = self._full_weights(values, function)
            w = np.concatenate([w_full[self._contracted.keep],
                                np.zeros(len(self._dyn_ban_nodes) + len(self._priced),
                                         dtype=np.int64)])
            if len(self._dyn_ban_nodes):
                w[self._aux_slice] = np.where(self._bans(E), INF, 0)
            self._set_prices(w, E)
        try:
            value, cut_nodes = self.cut(w, "Plan.solve")
        except ValueError as e:
            raise self._unbounded(e, values) from e
        return SizedDecision(self, values, self._contracted.keep[cut_nodes], value)

    def _unbounded(self, error: Exception, values) -> Exception:
        path = getattr(error, "path", None)
        if path is None:
            return error
        keep = self._contracted.keep
        nodes = [self.graph.nodes[int(keep[p])] for p in path if p < len(keep)]
        sizes = dict(zip(self.symbols, values))
        return PartitionError(
            f"Plan.solve: no valid partition at sizes {sizes}; every cut recomputes a node "
            f"that may not be recomputed or saves one that cannot be saved. Path: "
            + " -> ".join(nd.name for nd in nodes), nodes, [[] for _ in nodes])

    def partition(self, sizes=None) -> tuple[fx.GraphModule, fx.GraphModule]:
        """Forward and backward modules saving what is optimal at ``sizes`` (None: the hints).
        The modules stay symbolic: they run at every size, optimally at ``sizes``."""
        decision = self.solve(sizes)
        if _structure(self.graph.gm) != self._structure:
            raise ValueError("Plan.partition: the joint graph's nodes or edges changed after "
                             "plan() analysed it; the decision would not match the graph "
                             "(call fusioncut.plan again)")
        return build_modules(self.graph.gm, decision.saved_values, decision.saved_sym_nodes,
                             num_fwd_outputs=self.num_fwd_outputs,
                             static_lifetime_input_indices=self.static_lifetime_input_indices,
                             offloaded=self.offloaded_nodes(decision.saved_index))

    def offloaded_nodes(self, saved_index: np.ndarray) -> list[fx.Node]:
        """The values of a saved set that go to host memory (``offload.offloaded`` with the
        rule ``plan`` found; none under ``Options(offload="never")``)."""
        nodes = self.graph.nodes
        return [nodes[i] for i in offloaded(self.reference.offload, saved_index).tolist()]

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

    def breakpoints(self, symbol: Any, lo: int, hi: int, *,
                    fixed: Mapping[Any, int] | None = None
                    ) -> list[tuple[int, int, SizedDecision]]:
        """The distinct decisions as ``symbol`` sweeps ``[lo, hi]`` (the other symbols at
        ``fixed``, by default their hints): contiguous ``(lo_k, hi_k, decision)`` covering
        ``[lo, hi]``; ``decision`` is optimal at every size of its range and is reported at
        ``lo_k``. Exact when sizes are polynomials in ``symbol`` (docs/dynamic.md); with
        ``FloorDiv`` and the like in ``symbol``, ranges are found by probing only.

        Rejects: an unknown symbol, ``lo`` or ``hi`` that is not an int, outside the symbol's
        range or ``lo > hi``, ``fixed`` that is not a mapping or names an unknown symbol
        (``SizeError`` naming the argument and the valid range); ``hi`` so large that the
        weights lose their exact tie-break (``SizeOverflowError`` naming the largest valid
        ``hi``)."""
        return breakpoints(self, symbol, lo, hi, fixed=fixed)

    def decision(self, values: tuple[int, ...], saved_index: np.ndarray,
                 cut_value: int) -> SizedDecision:
        """A ``SizedDecision`` of this plan (for the sweeps)."""
        return SizedDecision(self, values, saved_index, cut_value)


def _structure(gm: fx.GraphModule) -> list[tuple[fx.Node, tuple[fx.Node, ...]]]:
    """Every node with its inputs: what a Plan's decision refers to."""
    return [(node, tuple(node.all_input_nodes)) for node in gm.graph.nodes]


def _constant_ratio(out_e: sympy.Expr, in_e: sympy.Expr) -> bool:
    if out_e == 0:
        return False
    return sympy.cancel(in_e / out_e).is_number
