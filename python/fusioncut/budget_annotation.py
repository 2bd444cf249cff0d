"""Activation-memory-budget annotations on joint-graph nodes, as PyTorch writes them.

Two spellings, as torch's partitioner reads them: the legacy ``node.meta["memory_budget"]``
and ``torch.autograd.graph.region_activation_memory_budget``'s key in ``node.meta["custom"]``
(the region annotation wins on a node that has both). A value that is not a number in
``[0, 1]`` is a ``ValueError`` naming the node, the key and the value, never a silent skip
or an ``OverflowError`` from ``float()``.

One joint graph is partitioned under one budget. PyTorch raises when annotations disagree;
fusioncut takes the strictest (``one_budget``) and the partitioner warns naming both ends.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import torch.fx as fx
import torch.fx.traceback

from fusioncut._validate import check_number

__all__ = ["REGION_KEY", "budgets_hidden", "memory_budget_annotation", "one_budget"]

REGION_KEY: str = getattr(torch.fx.traceback, "MEMORY_BUDGET_ANNOTATION_KEY",
                          "_region_activation_memory_budget")
"""The key ``region_activation_memory_budget`` writes into ``node.meta["custom"]``."""


def memory_budget_annotation(node: fx.Node, function: str = "partition") -> float | None:
    """The activation memory budget ``node`` is annotated with, or None; ``ValueError``
    naming ``function``, the node and the key for a value outside ``[0, 1]``."""
    custom = node.meta.get("custom")
    found = [(f"meta['custom'][{REGION_KEY!r}]", custom.get(REGION_KEY))
             if isinstance(custom, dict) else ("", None),
             ("meta['memory_budget']", node.meta.get("memory_budget"))]
    for where, value in found:
        if value is not None:
            return float(check_number(function, f"the activation memory budget {where} of "
                                      f"node {node.name!r}", value, 0, 1))
    return None


def one_budget(budgets: dict[float, str]) -> tuple[float | None, str | None]:
    """The graph's budget from ``{budget: first node annotated with it}``: the strictest
    (smallest), and when annotations disagree, the conflict named for a warning."""
    if not budgets:
        return None, None
    ordered = sorted(budgets.items())
    (low, node_low), (high, node_high) = ordered[0], ordered[-1]
    if len(ordered) == 1:
        return low, None
    return low, (f"conflicting activation memory budget annotations ({low:g} on node "
                 f"{node_low}, {high:g} on node {node_high})")


@contextlib.contextmanager
def budgets_hidden(gm: fx.GraphModule) -> Iterator[None]:
    """``gm``'s budget annotations (both spellings) taken off its nodes while the block runs,
    and put back after: for a partitioner that would apply them again over a decision that
    already did (``AnnotatingPartitioner``). A node's ``meta["custom"]`` is replaced by a copy
    without the key, never edited, so other holders of that dict see no change."""
    taken: list[tuple[dict, str, object]] = []
    try:
        for node in gm.graph.nodes:
            meta = node.meta
            custom = meta.get("custom")
            if isinstance(custom, dict) and REGION_KEY in custom:
                taken.append((meta, "custom", custom))
                meta["custom"] = {k: v for k, v in custom.items() if k != REGION_KEY}
            if "memory_budget" in meta:
                taken.append((meta, "memory_budget", meta.pop("memory_budget")))
        yield
    finally:
        for meta, key, value in taken:
            meta[key] = value
