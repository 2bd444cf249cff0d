"""One training step and what it keeps in memory.

A step is: gradients set to None, ``out = fn(*inputs)``, ``out.backward(grad_out)`` with a
fixed, seeded ``grad_out`` (no loss reduction, no optimizer: no partitioner touches either).
"""

from __future__ import annotations

import copy
import gc
from dataclasses import dataclass

import torch


@dataclass
class Case:
    """A built workload: the module to copy, its inputs, the fixed output gradient."""

    module: torch.nn.Module
    inputs: tuple
    grad_out: torch.Tensor
    device: torch.device


def fresh_copy(case: Case, dtype: torch.dtype | None = None):
    """A deep copy of the module and of the inputs (floating tensors cast to ``dtype``)."""
    model = copy.deepcopy(case.module)
    if dtype is not None:
        model = model.to(dtype)

    def copy_input(x):
        if not isinstance(x, torch.Tensor):
            return x
        y = x.detach().clone()
        if dtype is not None and y.is_floating_point():
            y = y.to(dtype)
        return y.requires_grad_(x.requires_grad)

    return model, tuple(copy_input(x) for x in case.inputs)


def grad_leaves(model, inputs) -> list[torch.Tensor]:
    """The tensors whose gradients a step computes: inputs that require grad, then parameters."""
    return [x for x in inputs if isinstance(x, torch.Tensor) and x.requires_grad] + [
        p for p in model.parameters() if p.requires_grad
    ]


def train_step(fn, inputs, leaves, grad_out):
    for t in leaves:
        t.grad = None
    out = fn(*inputs)
    out.backward(grad_out)
    return out


def sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def measure_saved(fn, model, inputs, leaves, grad_out) -> dict:
    """Distinct storages packed by autograd during one forward, via saved-tensor hooks (the same
    method for eager and compiled functions); ``saved_act_*`` leaves out the storages of
    parameters, buffers and inputs, which are alive anyway."""
    exclude = {t.untyped_storage().data_ptr() for t in list(model.parameters()) + list(model.buffers())}
    exclude |= {x.untyped_storage().data_ptr() for x in inputs if isinstance(x, torch.Tensor)}
    seen: dict[int, int] = {}

    def pack(t):
        st = t.untyped_storage()
        seen[st.data_ptr()] = st.nbytes()
        return t

    for t in leaves:
        t.grad = None
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = fn(*inputs)
    out.backward(grad_out)
    act = {p: b for p, b in seen.items() if p not in exclude}
    return {
        "saved_count": len(seen),
        "saved_bytes": sum(seen.values()),
        "saved_act_count": len(act),
        "saved_act_bytes": sum(act.values()),
    }


def resident_bytes(model, inputs, leaves) -> int:
    """Bytes of the distinct storages a configuration keeps between steps: parameters,
    buffers, inputs and gradients."""
    tensors = list(model.parameters()) + list(model.buffers())
    tensors += [x for x in inputs if isinstance(x, torch.Tensor)]
    tensors += [t.grad for t in leaves if t.grad is not None]
    storages = {t.untyped_storage().data_ptr(): t.untyped_storage().nbytes() for t in tensors}
    return sum(storages.values())


def peak_memory(fn, model, inputs, leaves, grad_out, device) -> dict:
    """GPU: the memory one step allocates above what was allocated before it
    (``peak_above_base_bytes``), and the configuration's own peak: that plus its resident
    bytes (``peak_bytes``), which does not count other configurations alive in the process."""
    if device.type != "cuda":
        return {"peak_bytes": None, "peak_above_base_bytes": None, "resident_bytes": None}
    train_step(fn, inputs, leaves, grad_out)  # gradients allocated: steady state
    sync(device)
    base = torch.cuda.memory_allocated(device)
    torch.cuda.reset_peak_memory_stats(device)
    train_step(fn, inputs, leaves, grad_out)
    sync(device)
    above = torch.cuda.max_memory_allocated(device) - base
    resident = resident_bytes(model, inputs, leaves)
    return {"peak_bytes": resident + above, "peak_above_base_bytes": above,
            "resident_bytes": resident}


def is_oom(exc: BaseException | None) -> bool:
    """An out-of-memory error, possibly wrapped (Inductor wraps errors raised while compiling)."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, torch.OutOfMemoryError) or "out of memory" in str(exc).lower():
            return True
        exc = exc.__cause__ or exc.__context__ or getattr(exc, "inner_exception", None)
    return False


def free_memory() -> None:
    gc.collect()
    if torch.cuda.is_available():
        torch.cuda.empty_cache()
