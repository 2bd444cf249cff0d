"""torch's activation-offloading machinery, as fusioncut uses it (``offload``, ``emit.offload``,
``decision``, ``inductor``): the settings torch's pass runs under, the pass itself, the ops it
emits on a side stream, and the defects of some torch releases there that fusioncut works
around. Split from ``_torch_compat`` (whose ``_require`` resolves each symbol lazily, naming the
torch version when one is missing); the same rules apply.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import warnings
from typing import Any, Callable, NamedTuple

import torch

from fusioncut._torch_compat import _require, functorch_config

__all__ = ["OffloadSettings", "TorchDefectWarning", "activation_offloading_pass",
           "fake_call_fault", "offload_config_as_planned", "offload_settings",
           "side_stream_fault", "side_stream_offload_ops"]

# --- activation offloading (fusioncut.offload, emit.offload) ---------------------------------
#
# torch/_functorch/_activation_offloading (torch 2.13): enable_activation_offloading(fw, bw,
# num_fwd_outputs, static_lifetime_input_nodes) offloads the forward outputs whose node
# carries meta["should_offload"] and that its can_offload accepts, marking them
# meta["saved_for_offloading"]; it reads activation_offload_separate_stream, _sink_wait and
# activation_reload_prefetch from torch._functorch.config itself.

_OFFLOADING = "torch._functorch._activation_offloading.activation_offloading"


class OffloadSettings(NamedTuple):
    """torch's activation-offloading settings, read once (``offload_settings``)."""

    enabled: bool  # enable_activation_offloading
    separate_stream: bool  # activation_offload_separate_stream: ao.offload / ao.reload ops
    sink_wait: bool  # activation_offload_sink_wait: forward waits moved to the graph's end
    prefetch: bool  # activation_reload_prefetch: backward reloads moved earlier
    cpu_gpu_bw: float  # activation_offload_cpu_gpu_bw (GiB/s, torch's prefetch planning)


class TorchDefectWarning(UserWarning):
    """The installed torch has a defect fusioncut works around; the message names it and what
    fusioncut does instead."""


def offload_settings() -> OffloadSettings:
    """The settings torch's pass runs under for fusioncut: the side stream counts as off where
    this torch cannot compile it (``side_stream_fault``; ``TorchDefectWarning`` once), as
    ``offload_config_as_planned`` then has torch's pass run."""
    config = functorch_config()
    broken = _side_stream_broken(config)
    if broken:
        _warn_defect(side_stream_fault() + "; fusioncut offloads with synchronous copies "
                     "instead (activation_offload_separate_stream taken as False)")
    return OffloadSettings(
        enabled=bool(getattr(config, "enable_activation_offloading", False)),
        separate_stream=bool(getattr(config, "activation_offload_separate_stream", False))
        and not broken,
        sink_wait=bool(getattr(config, "activation_offload_sink_wait", False)),
        prefetch=bool(getattr(config, "activation_reload_prefetch", False)),
        cpu_gpu_bw=float(getattr(config, "activation_offload_cpu_gpu_bw", 50.0)),
    )


def _side_stream_broken(config) -> bool:
    """Whether ``config`` asks for the side stream on a torch that cannot compile it."""
    return (bool(getattr(config, "activation_offload_separate_stream", False))
            and side_stream_fault() is not None)


@functools.cache
def _warn_defect(message: str) -> None:
    warnings.warn(message, TorchDefectWarning, stacklevel=3)


@functools.cache
def side_stream_fault() -> str | None:
    """Why torch's side-stream offloading (``activation_offload_separate_stream``) cannot compile
    here, or None. torch 2.11's pass emits ``streams::record_stream``, whose fake implementation
    takes other arguments than the op, so Inductor's trace of the forward fails with a TypeError
    (found on an H200, torch 2.11.0+cu130, for torch's partitioner and fusioncut's alike). Found
    by running the op on a fake tensor, not by version; a torch without the op has no fault."""
    op = _pass_ops(lambda: torch.ops.streams.record_stream.default)
    return None if op is None else fake_call_fault(op, lambda fake: (fake, 0))


def fake_call_fault(op: Any, args: Callable[[torch.Tensor], tuple]) -> str | None:
    """None when ``op(*args(t))`` runs under a fresh ``FakeTensorMode`` for a one-element fake
    float tensor ``t``; else what it raised, naming the op and the torch version (any error:
    a graph holding the op would not compile either)."""
    mode = _require("torch._subclasses.fake_tensor", "FakeTensorMode")()
    fake = mode.from_tensor(torch.empty(1))
    try:
        with mode:
            op(*args(fake))
    except Exception as exc:  # noqa: BLE001 - the probe reports whatever the trace would hit
        return (f"torch {torch.__version__}: {op}'s fake implementation fails on the op's own "
                f"arguments ({type(exc).__name__}: {exc}), so torch's side-stream activation "
                "offloading cannot compile")
    return None


@contextlib.contextmanager
def offload_config_as_planned() -> Any:
    """torch's offload settings as ``offload_settings`` reports them: the side stream off
    while torch's pass runs where ``side_stream_fault`` says it cannot compile."""
    config = functorch_config()
    if _side_stream_broken(config):
        with config.patch(activation_offload_separate_stream=False):
            yield
    else:
        yield


def activation_offloading_pass() -> Callable[..., None]:
    """torch's ``enable_activation_offloading``; an ImportError naming the torch version on a
    torch without the machinery. The returned function builds torch's default op list once per
    call instead of once per marked value (its ``can_offload`` asks for it each time: about
    0.5 ms a value, most of the pass on a plan that offloads hundreds)."""
    run = _require(_OFFLOADING, "enable_activation_offloading")
    module = importlib.import_module(_OFFLOADING)
    build = getattr(module, "get_default_op_list", None)
    if build is None:
        return run
    if getattr(build, "_fusioncut_once", False):  # another call's, still running
        build = build.__wrapped__

    @functools.wraps(run)
    def with_one_op_list(*args: Any, **kwargs: Any) -> None:
        once = functools.lru_cache(maxsize=1)(build)
        once._fusioncut_once = True  # type: ignore[attr-defined]
        module.get_default_op_list = once
        try:
            run(*args, **kwargs)
        finally:
            if module.get_default_op_list is once:
                module.get_default_op_list = build

    return with_one_op_list


def side_stream_offload_ops() -> tuple[Any, Any] | None:
    """``(torch.ops.ao.offload.default, torch.ops.ao.wait_tensor.default)``: the copy to the
    host and its wait that torch's pass emits on a side stream (``wait_tensor(copy, keepalive)``
    holds the device value until the copy is done); None on a torch that emits other ops."""
    return _pass_ops(lambda: (torch.ops.ao.offload.default, torch.ops.ao.wait_tensor.default))


def _pass_ops(lookup: Callable[[], Any]) -> Any:
    """``lookup()`` once torch's pass is imported (which registers the stream and ``ao`` ops
    it emits); None on a torch without the pass or the ops."""
    try:
        activation_offloading_pass()
        return lookup()
    except (ImportError, AttributeError, RuntimeError):
        return None
