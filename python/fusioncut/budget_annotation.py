"""Activation-memory-budget annotations on joint-graph nodes, as PyTorch writes them."""

from __future__ import annotations

import torch.fx as fx

__all__ = ["memory_budget_annotation", "one_budget"]


def memory_budget_annotation(node: fx.Node) -> float | None:
    """The activation memory budget a node is annotated with: torch's legacy
    ``meta["memory_budget"]`` or ``torch.autograd.graph.region_activation_memory_budget``'s
    key in ``meta["custom"]``; None when it has none."""
    value = node.meta.get("memory_budget")
    if value is None:
        custom = node.meta.get("custom")
        if isinstance(custom, dict):
            for key, v in custom.items():
                if "memory_budget" in str(key):
                    value = v
                    break
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return None


def one_budget(budgets: dict[float, str]) -> tuple[float | None, str | None]:
    """The graph's one annotated budget, or the conflict that makes fusioncut fall back (as
    torch, one joint graph has one budget)."""
    if len(budgets) > 1:
        (a, na), (b, nb) = sorted(budgets.items())[:2]
        return None, (f"conflicting activation memory budget annotations ({a:g} on node "
                      f"{na}, {b:g} on node {nb})")
    return (next(iter(budgets)) if budgets else None), None
