"""Recompute prices and memory budgets of a ``Plan`` at any sizes.

``recompute.RecomputeModel`` is per node: ``op_time * numel``, or a kernel's overhead, its
bytes and its FLOPs. At other sizes the element counts come from the plan's ``SizeTable``
and the FLOP counts from ``flop_counter``'s formulas evaluated on the symbolic shapes (an
expression per matmul, compiled into the plan's ``SizeProgram`` with the element counts).

``PlanPrices`` evaluates them; ``PlanBudget`` keeps the budget network of ``budget.py`` built
once and solves its frontier at the plan's sizes.
"""

from __future__ import annotations

import numpy as np
import sympy
import torch

from fusioncut.budget import BudgetNetwork, Frontier, budget_network, frontier
from fusioncut.device import Device
from fusioncut.graph import JointGraph
from fusioncut.network import prices_of
from fusioncut.ops import OpKind
from fusioncut.recompute import flop_count, recompute_model

__all__ = ["PlanBudget", "PlanPrices", "flop_expressions"]


def flop_expressions(graph: JointGraph) -> dict[int, sympy.Expr]:
    """``{node: FLOP count as an expression}`` for the compute-intensive nodes whose count
    depends on sizes."""
    out: dict[int, sympy.Expr] = {}
    for i in np.flatnonzero(graph.kind == OpKind.COMPUTE_INTENSIVE).tolist():
        count = flop_count(graph.nodes[i])
        if isinstance(count, torch.SymInt):
            out[i] = sympy.expand(sympy.sympify(count.node.expr))
    return out


class PlanPrices:
    """Recompute seconds and prices of every node at element counts ``E`` of a plan."""

    def __init__(self, graph: JointGraph, device: Device, sizes, flop_exprs: dict[int, int]):
        self.graph = graph
        self.model = recompute_model(graph, device)
        self.sizes = sizes  # the plan's SizeTable
        self.flop_nodes = np.asarray(list(flop_exprs), dtype=np.int64)
        self.flop_ids = np.asarray(list(flop_exprs.values()), dtype=np.int64)

    def numel(self, E: np.ndarray) -> np.ndarray:
        out = self.sizes.const_numel.copy()
        sym = self.sizes.node_expr >= 0
        out[sym] = E[self.sizes.node_expr[sym]]
        return out

    def flops(self, E: np.ndarray) -> np.ndarray:
        flops = self.model.flops.copy()
        if len(self.flop_nodes):
            flops[self.flop_nodes] = E[self.flop_ids].astype(np.float64)
        return flops

    def seconds(self, E: np.ndarray) -> np.ndarray:
        return self.model.seconds(self.graph, self.numel(E), self.flops(E))

    def byte_equivalents(self, E: np.ndarray) -> np.ndarray:
        return self.model.byte_equivalents(self.graph, self.numel(E), self.flops(E))


class PlanBudget:
    """The budget network of a plan (built on first use) and its frontier at given sizes."""

    def __init__(self, plan, prices: PlanPrices):
        self.plan = plan
        self.prices = prices
        self._network: BudgetNetwork | None = None

    def frontier(self, E: np.ndarray, runtime_saved: np.ndarray) -> Frontier:
        plan = self.plan
        graph, costs, ref = plan.graph, plan.costs, plan.reference
        if self._network is None:
            self._network = budget_network(graph, ref.policy, costs, ref.network,
                                           self.prices.model)
        bnet = self._network
        numel = self.prices.numel(E)
        nbytes = numel * graph.itemsize
        sized = bnet.at(weights=costs.weights(nbytes),
                        prices=prices_of(self.prices.byte_equivalents(E)[bnet.priced],
                                         costs.scale),
                        seconds=self.prices.seconds(E))
        return frontier(graph, runtime_saved, sized, costs, ref.static_inputs,
                        self.prices.model.device, numel=numel)
