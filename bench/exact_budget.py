"""The budget problem solved exactly, as a mixed-integer program (HiGHS through scipy).

The problem the frontier approximates, built from fusioncut's own budget network (the bans a
budget keeps, the recompute prices on the device) and its own measures of a plan::

    minimise   recompute seconds of the plan
    subject to saved activation bytes <= B

A closure formulation with one boolean per vertex of the node-split network: ``x_in[v]``,
``x_out[v]`` = 1 when ``v_in`` / ``v_out`` lies on the source side. Every infinite arc
``a -> b`` of the network forbids ``a`` on the source side with ``b`` on the sink side
(``x_a <= x_b``); node ``v`` is saved when ``x_in[v] - x_out[v] = 1``; a storage base is kept
(``z_b = 1``) when any saved tensor sits on it, and the kept bases' bytes (graph inputs and
static inputs excluded, as ``saved_activation_bytes`` counts them) are at most ``B``. A
forward node whose in-vertex is on the sink side is recomputed: the objective is the sum of
their recompute seconds. The plan is read back as a saved set and scored by the frontier's own
evaluator, so both sides of a comparison are measured alike.

Used by ``bench_exact.py`` and by ``tests/test_budget_exact.py`` (small cases).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import sparse
from scipy.optimize import Bounds, LinearConstraint, milp

from fusioncut._solver import INF
from fusioncut.graph import Role, Value

__all__ = ["ExactBudget"]


@dataclass
class ExactPlan:
    saved: np.ndarray  # joint nodes the plan saves
    objective: float  # recompute seconds, as the program counts them


class ExactBudget:
    """The mixed-integer program of one budget network (built once, solved per ``B``)."""

    def __init__(self, graph, bnet, static: np.ndarray):
        n = graph.num_nodes
        net = bnet.network
        self.n = n
        # Vertex columns: x_in = [0, n), x_out = [n, 2n), then one z per counted base.
        joint = (net.src < n) & (net.dst < n)
        src, dst = net.src[joint], net.dst[joint]
        rows_a, rows_b = [n + src], [dst]  # u_out -> v_in: x_out[u] <= x_in[v]
        uncuttable = np.flatnonzero(bnet.weights[:n] >= INF)
        rows_a.append(uncuttable)  # v_in -> v_out infinite: x_in[v] <= x_out[v]
        rows_b.append(n + uncuttable)
        a, b = np.concatenate(rows_a), np.concatenate(rows_b)
        base = graph.base
        counted = ((graph.value == Value.TENSOR) & (graph.role[base] > Role.CONSTANT)
                   & ~static[base] & (bnet.weights[:n] < INF))
        bases, slot = np.unique(base[counted], return_inverse=True)
        nodes = np.flatnonzero(counted)
        self.num_z = len(bases)
        cols = 2 * n + self.num_z
        m1 = len(a)
        m2 = len(nodes)
        # Precedence rows: x_a - x_b <= 0. Storage rows: x_in[v] - x_out[v] - z_b <= 0.
        r = np.concatenate([np.arange(m1), np.arange(m1), m1 + np.arange(m2),
                            m1 + np.arange(m2), m1 + np.arange(m2)])
        c = np.concatenate([a, b, nodes, n + nodes, 2 * n + slot])
        v = np.concatenate([np.ones(m1), -np.ones(m1), np.ones(m2), -np.ones(m2),
                            -np.ones(m2)])
        self.order = sparse.csr_array((v, (r, c)), shape=(m1 + m2, cols))
        self.storage_row = np.zeros(cols)
        self.storage_row[2 * n:] = graph.nbytes[bases]
        lb, ub = np.zeros(cols), np.ones(cols)
        lb[np.flatnonzero(net.source_in[:n])] = 1
        ub[np.flatnonzero(net.sink_in[:n])] = 0
        ub[n + np.flatnonzero(net.sink_out[:n])] = 0
        self.bounds = Bounds(lb, ub)
        seconds = np.where(graph.role == Role.FORWARD, bnet.recompute_seconds, 0.0)
        self.scale = 1e6  # microseconds: HiGHS's tolerances are absolute
        self.cost = np.zeros(cols)
        self.cost[:n] = -seconds * self.scale
        self.constant = float(seconds.sum())
        self.weights = bnet.weights[:n]

    def solve(self, limit: int, time_limit: float = 60.0) -> ExactPlan | None:
        """The plan with the least recompute seconds saving at most ``limit`` bytes, or None
        when no plan fits (or HiGHS found none in ``time_limit`` seconds)."""
        n = self.n
        cons = [LinearConstraint(self.order, -np.inf, 0.0),
                LinearConstraint(self.storage_row[None, :], -np.inf, float(limit))]
        res = milp(self.cost, constraints=cons, bounds=self.bounds,
                   integrality=np.ones(len(self.cost)),
                   options={"time_limit": time_limit, "mip_rel_gap": 1e-9})
        if res.x is None:
            return None
        x = np.rint(res.x).astype(bool)
        saved = np.flatnonzero(x[:n] & ~x[n:2 * n] & (self.weights < INF))
        return ExactPlan(saved=saved, objective=self.constant + res.fun / self.scale)
