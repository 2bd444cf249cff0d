"""``SizedDecision``: what ``Plan.solve`` decided at one set of sizes."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch.fx as fx

from fusioncut.budget import BudgetChoice
from fusioncut.graph import Value

__all__ = ["SizedDecision"]


class SizedDecision:
    """What ``Plan.solve`` decided at one set of sizes.

    ``saved_index``: int64 joint-node indices (ascending, graph order); ``saved``: their names;
    ``cost``: bytes moved by the saved set (the cost model without tie-break);
    ``saved_bytes``: storage kept alive for the backward (each saved tensor's storage once,
    SymInts free); ``cut_value``: the min-cut value (``cost * scale + tie-break``); ``sizes``:
    ``{name: value}``. Unlike ``Decision`` it holds no per-node arrays: everything but
    ``saved_index`` and ``cut_value`` is computed on first use.
    """

    __slots__ = ("plan", "values", "saved_index", "cut_value", "budget", "_cache")

    def __init__(self, plan: Any, values: tuple[int, ...], saved_index: np.ndarray,
                 cut_value: int, budget: BudgetChoice | None = None) -> None:
        self.plan = plan
        self.values = values
        self.saved_index = np.sort(np.asarray(saved_index, dtype=np.int64))
        self.cut_value = cut_value
        self.budget = budget  # the memory target's choice, when one was set
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
        return self.plan.graph.split_saved(self.saved_index)[0]

    @property
    def saved_sym_nodes(self) -> list[fx.Node]:
        return self.plan.graph.split_saved(self.saved_index)[1]

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
        return int(sum(int(x) for x in p.costs.per_byte[idx] * nbytes + p.costs.const[idx]))

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

