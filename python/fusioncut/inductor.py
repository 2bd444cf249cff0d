"""``InductorPartitioner``: plug fusioncut into ``torch.compile``.

    import torch._inductor.config
    torch._inductor.config.custom_partitioner_fn = fusioncut.InductorPartitioner()

Inductor (``torch._inductor.compile_fx.partition_fn``) runs its joint-graph passes, then calls
``custom_partitioner_fn(gm, joint_inputs, compiler="inductor",
static_lifetime_input_indices=..., num_fwd_outputs=...)``; we forward everything to
``fusioncut.partition``. ``uuid()`` enters Inductor's FX-graph cache key, so it hashes
fusioncut's version and a canonical rendering of the ``Options``: a cached compile is reused
only if it was partitioned by the same fusioncut with the same options.
"""

from __future__ import annotations

import dataclasses
import hashlib
import warnings
from typing import Any

from fusioncut import _torch_compat, _torch_offload
from fusioncut._core import __version__
from fusioncut.budget_annotation import budgets_hidden
from fusioncut.options import Options
from fusioncut.partitioner import partition
from fusioncut.tags import TorchBudgetWarning, annotate

__all__ = ["AnnotatingPartitioner", "InductorPartitioner", "options_fingerprint"]


def options_fingerprint(options: Any) -> str:
    """A canonical, order-independent text for an ``Options`` value (field=repr, sorted)."""
    if options is None:
        options = Options()
    if not dataclasses.is_dataclass(options):
        raise TypeError(
            f"InductorPartitioner: options = {options!r} is not an Options dataclass"
        )
    items = sorted((f.name, repr(getattr(options, f.name))) for f in dataclasses.fields(options))
    return type(options).__qualname__ + "(" + ",".join(f"{k}={v}" for k, v in items) + ")"


class InductorPartitioner(_torch_compat.custom_partitioner_fn_base()):  # type: ignore[misc]
    """A ``CustomPartitionerFn`` that partitions with ``fusioncut.partition``.

    Rejects: ``options`` that is neither None nor a ``fusioncut.Options`` (``TypeError``, at
    construction); each call rejects what ``fusioncut.partition`` rejects (a joint module that
    is not a GraphModule or is malformed, a bad ``num_fwd_outputs`` or
    ``static_lifetime_input_indices``), naming the argument and its valid range."""

    def __init__(self, options: Any = None) -> None:
        if options is not None:
            if not isinstance(options, Options):
                raise TypeError(
                    f"InductorPartitioner: options = {options!r} is not a fusioncut.Options"
                )
        self.options = options

    def __call__(self, gm: Any, joint_inputs: Any, **kwargs: Any) -> tuple[Any, Any]:
        return partition(gm, joint_inputs, options=self.options, **kwargs)

    def uuid(self) -> str:
        text = f"fusioncut {__version__} {options_fingerprint(self.options)}"
        return hashlib.sha256(text.encode()).hexdigest()

    def __repr__(self) -> str:
        return f"InductorPartitioner(options={self.options!r})"



class AnnotatingPartitioner(InductorPartitioner):
    """A ``CustomPartitionerFn`` that writes fusioncut's decision as ``CheckpointPolicy`` tags
    (``fusioncut.annotate``) and lets PyTorch's ``min_cut_rematerialization_partition`` split
    the graph: for tools that hook that partitioner (DeepSpeed's DeepCompile patches its
    ``choose_saved_values_set``) or tag the graph themselves afterwards.

    A memory budget (``Options``, torch's ``activation_memory_budget`` or region annotations)
    is fusioncut's to apply: the tags carry the budgeted plan, and PyTorch's partitioner runs
    at budget 1 with the graph's budget annotations hidden for the call (its own knapsack over
    the tags would re-decide what fusioncut decided: on torch 2.13 it saves a random op's
    tuple, or re-draws it in the backward). Offloading is fusioncut's too: PyTorch's
    ``enable_activation_offloading`` is on for the call exactly when the decision offloads
    (``Options.offload``, or torch's flag read as ``"auto"``), and moves the values annotate
    marked. A graph fusioncut leaves untagged goes to PyTorch as it is.

    Rejects what ``InductorPartitioner`` and ``annotate`` reject, and a call without
    ``num_fwd_outputs`` (``TypeError``)."""

    def __call__(self, gm: Any, joint_inputs: Any, **kwargs: Any) -> tuple[Any, Any]:
        if "num_fwd_outputs" not in kwargs:
            raise TypeError("AnnotatingPartitioner: missing the keyword argument "
                            "num_fwd_outputs (AOTAutograd passes it)")
        with warnings.catch_warnings():  # torch's budget is off below: nothing re-decides
            warnings.simplefilter("ignore", TorchBudgetWarning)
            decided = annotate(gm, num_fwd_outputs=kwargs["num_fwd_outputs"],
                               options=self.options, static_lifetime_input_indices=kwargs.get(
                                   "static_lifetime_input_indices"))
        partition_fn = _torch_compat.min_cut_rematerialization_partition()
        if decided is None:
            return partition_fn(gm, joint_inputs, **kwargs)
        with budgets_hidden(gm), _torch_offload.offload_config_as_planned(), \
                _torch_compat.functorch_config().patch(
                activation_memory_budget=1.0,
                enable_activation_offloading=decided.offload is not None):
            return partition_fn(gm, joint_inputs, **kwargs)

    def uuid(self) -> str:
        return hashlib.sha256(f"annotate {super().uuid()}".encode()).hexdigest()

    def __repr__(self) -> str:
        return f"AnnotatingPartitioner(options={self.options!r})"
