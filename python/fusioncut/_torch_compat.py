"""Every private torch import fusioncut makes, in one place.

fusioncut supports ``torch>=2.8,<2.16`` (tested on 2.13, 2.14.1 and 2.15.0). The private APIs
below have moved or changed between releases; each one is resolved lazily, at the time of use,
so that ``import fusioncut`` never fails on an unsupported torch, and a missing symbol raises
an ``ImportError`` that names the torch version and the symbol. Importing the partitioner on a
torch outside that range warns once (``check_torch_version``).

    symbol                          where (torch 2.8 .. 2.15)
    ----------------------------    ------------------------------------------------------
    partitioner helpers             torch._functorch.partitioners
    raise_getitems                  torch._functorch.compile_utils
    _is_primal / _is_tangent / ...  torch._functorch._aot_autograd.utils (re-exported by
                                    torch._functorch.partitioners)
    saved-output descriptors        torch._functorch._aot_autograd.descriptors (>=2.9)
    _LazyGraphModule                torch.fx._lazy_graph_module
    symbol binding helpers          torch.fx.experimental.symbolic_shapes
    CustomPartitionerFn             torch._inductor.custom_graph_pass (>=2.9)
    unset_fake_temporarily          torch._subclasses.fake_tensor
    no_dispatch                     torch.utils._mode_utils
    no_python_dispatcher            torch._dispatch.python
    is_custom_class_obj             torch._library.opaque_object (2.14+; is_opaque_value,
                                    deprecated there, before)
    get_compile_sync_pg             torch._dynamo.distributed (2.15+)
    activation offloading           torch._functorch._activation_offloading, in _torch_offload
    _free_symbols_without_replacements  torch._functorch.partitioners (2.14+)

Rules of torch's partitioner that changed between releases, and the version each one starts
at, are the ``follows_*`` functions below: the rest of fusioncut asks them, never a version.

On torch 2.8, ``fusioncut.partition`` works as an AOTAutograd ``partition_fn``; the Inductor
hook (``InductorPartitioner``) needs 2.9 and says so when constructed.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import importlib.util
from typing import Any, Callable, NamedTuple

import torch

SUPPORTED_MIN = (2, 8)
SUPPORTED_MAX_EXCLUSIVE = (2, 16)


class TorchVersionWarning(UserWarning):
    """The installed torch lies outside the range fusioncut supports."""


def torch_version() -> tuple[int, int]:
    """``(major, minor)`` of the running torch."""
    major, minor = torch.__version__.split("+")[0].split(".")[:2]
    return int(major), int(minor)


def is_supported_torch() -> bool:
    return SUPPORTED_MIN <= torch_version() < SUPPORTED_MAX_EXCLUSIVE


def supported_range() -> str:
    """``torch>=2.8,<2.16``: the range fusioncut declares."""
    return (f"torch>={SUPPORTED_MIN[0]}.{SUPPORTED_MIN[1]},"
            f"<{SUPPORTED_MAX_EXCLUSIVE[0]}.{SUPPORTED_MAX_EXCLUSIVE[1]}")


def check_torch_version(stacklevel: int = 2) -> bool:
    """Warn (``TorchVersionWarning``) once, at the partitioner's import, when the installed
    torch is outside the supported range; whether it is inside. The solver never warns."""
    if is_supported_torch():
        return True
    import warnings

    warnings.warn(
        f"fusioncut: torch {torch.__version__} is installed, but fusioncut's partitioner "
        f"supports {supported_range()}; partitioning may fail or fall back to PyTorch's "
        f"partitioner (install a supported torch, or use fusioncut.min_cut alone)",
        TorchVersionWarning, stacklevel=stacklevel + 1)
    return False


@functools.lru_cache(maxsize=None)
def _require(module: str, name: str, since: tuple[int, int] = SUPPORTED_MIN) -> Any:
    """Import ``module.name`` or raise an ImportError naming torch's version and the symbol."""
    version = torch.__version__
    if torch_version() < since:
        raise ImportError(
            f"fusioncut: {module}.{name} needs torch>={since[0]}.{since[1]}, "
            f"but torch {version} is installed"
        )
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as e:
        raise ImportError(
            f"fusioncut: torch {version} has no {module}.{name} (fusioncut supports "
            f"{supported_range()})"
        ) from e


_PARTITIONERS = "torch._functorch.partitioners"
_AOT_UTILS = "torch._functorch._aot_autograd.utils"


# --- torch's partitioner (reference path and fallback) --------------------------------------


def min_cut_rematerialization_partition() -> Any:
    return _require(_PARTITIONERS, "min_cut_rematerialization_partition")


def default_partition() -> Any:
    return _require(_PARTITIONERS, "default_partition")


def extract_fwd_bwd_modules() -> Any:
    """torch's ``_extract_fwd_bwd_modules``, called with the keywords this torch accepts.

    ``saved_opaque_nodes`` is newer than torch 2.8; on a torch without it, saving an opaque
    object is an error (the caller falls back).
    """
    import inspect

    extract = _require(_PARTITIONERS, "_extract_fwd_bwd_modules")
    accepted = inspect.signature(extract).parameters

    def call(joint_module, saved_values, *, saved_sym_nodes, saved_opaque_nodes, **kwargs):
        if "saved_opaque_nodes" in accepted:
            kwargs["saved_opaque_nodes"] = saved_opaque_nodes
        elif saved_opaque_nodes:
            raise ImportError(
                f"fusioncut: torch {torch.__version__}'s _extract_fwd_bwd_modules cannot save "
                "opaque objects (no saved_opaque_nodes parameter)"
            )
        kwargs = {k: v for k, v in kwargs.items() if k in accepted}
        return extract(joint_module, saved_values, saved_sym_nodes=saved_sym_nodes, **kwargs)

    return call


def functionalize_rng_ops() -> Any:
    return _require(_PARTITIONERS, "functionalize_rng_ops")


def reordering_to_mimic_autograd_engine() -> Any:
    return _require(_PARTITIONERS, "reordering_to_mimic_autograd_engine")


def thread_graphsafe_rng_from_hops() -> Any:
    return _require(_PARTITIONERS, "thread_graphsafe_rng_from_hops", since=(2, 9))


def raise_getitems() -> Any:
    return _require("torch._functorch.compile_utils", "raise_getitems")


def must_recompute() -> Any:
    return _require(_PARTITIONERS, "must_recompute")


def must_be_in_forward() -> Any:
    return _require(_PARTITIONERS, "_must_be_in_forward")


def must_be_in_backward() -> Any:
    return _require(_PARTITIONERS, "_must_be_in_backward")


def is_backward_state() -> Any:
    return _require(_PARTITIONERS, "_is_backward_state")


def is_primal() -> Any:
    return _require(_AOT_UTILS, "_is_primal")


def is_tangent() -> Any:
    return _require(_AOT_UTILS, "_is_tangent")


def is_fwd_seed_offset() -> Any:
    return _require(_AOT_UTILS, "_is_fwd_seed_offset")


def is_bwd_seed_offset() -> Any:
    return _require(_AOT_UTILS, "_is_bwd_seed_offset")


def is_opaque_node() -> Any:
    """torch's ``is_opaque_node``; on a torch without it, script objects are the opaque values."""
    try:
        return _require("torch._functorch._aot_autograd.graph_compile", "is_opaque_node")
    except ImportError:
        script_object = fake_script_object()

        def is_opaque(node: Any) -> bool:
            val = getattr(node, "meta", {}).get("val")
            return isinstance(val, (torch.ScriptObject, script_object))

        return is_opaque


def is_sym_node() -> Any:
    return _require("torch.fx.experimental.proxy_tensor", "is_sym_node")


def fake_script_object() -> Any:
    return _require("torch._library.fake_class_registry", "FakeScriptObject")


def backward_state_cls() -> Any:
    return _require("torch.fx.experimental._backward_state", "BackwardState")


@functools.cache
def is_opaque_object() -> Callable[[object], bool]:
    """A test for the objects torch hands from the forward graph to the backward: saved opaque
    values (a device mesh or process group as a ``FakeScriptObject``, a script object, a
    registered opaque type: what torch's ``is_opaque_node`` accepts, on a value) and the
    ``BackwardState`` of compiled autograd's hooks (passed to the backward directly)."""
    types: tuple[type, ...] = (torch.ScriptObject,)
    for cls in (fake_script_object, backward_state_cls):
        try:
            types += (cls(),)
        except ImportError:
            pass
    # torch 2.14 renamed is_opaque_value to is_custom_class_obj and made the old name log a
    # deprecation line on every call.
    registered = None
    for name in ("is_custom_class_obj", "is_opaque_value"):
        try:
            registered = _require("torch._library.opaque_object", name)
            break
        except ImportError:
            pass

    def is_opaque(val: object) -> bool:
        return isinstance(val, types) or (registered is not None and bool(registered(val)))

    return is_opaque


def functorch_config() -> Any:
    return importlib.import_module("torch._functorch.config")


def inductor_config() -> Any:
    return importlib.import_module("torch._inductor.config")


# --- output descriptors (torch >= 2.9 records what each graph output is) ---------------------


def saved_for_backwards_desc(index: int, no_vc_check: bool) -> Any:
    """The descriptor AOTAutograd expects on a saved forward output, or None before 2.9."""
    if torch_version() < (2, 9):
        return None
    descriptors = "torch._functorch._aot_autograd.descriptors"
    name = "SavedForBackwardsNoVcCheckAOTOutput" if no_vc_check else "SavedForBackwardsAOTOutput"
    return _require(descriptors, name, since=(2, 9))(index)


# --- symbolic shapes ------------------------------------------------------------------------


def is_symbol_binding_fx_node() -> Any:
    return _require("torch.fx.experimental.symbolic_shapes", "is_symbol_binding_fx_node")


def find_symbol_binding_fx_nodes() -> Any:
    return _require("torch.fx.experimental.symbolic_shapes", "find_symbol_binding_fx_nodes")


def free_symbols() -> Any:
    return _require("torch.fx.experimental.symbolic_shapes", "free_symbols")


# --- graph modules --------------------------------------------------------------------------


def lazy_graph_module_cls() -> type:
    """``_LazyGraphModule``: a GraphModule that generates Python code only on first use."""
    return _require("torch.fx._lazy_graph_module", "_LazyGraphModule")


def dce_impure_random() -> bool:
    """Whether ``Graph.eliminate_dead_code`` treats random ops as impure right now."""
    tracing_context = _require("torch._guards", "TracingContext")
    if tracing_context.try_get():
        return bool(inductor_config().fallback_random)
    return True


def activation_quantization_enabled() -> bool:
    options = inductor_config().post_grad_fusion_options
    return options.get("activation_quantization_aten_pass", None) is not None


def activation_offloading_enabled() -> bool:
    return bool(getattr(functorch_config(), "enable_activation_offloading", False))


def no_fake_mode() -> Any:
    """A context in which a compile's active fake mode is switched off, so that deep copies of
    a joint graph holding real tensor constants (tied embeddings, buffers) stay real."""
    return _require("torch._subclasses.fake_tensor", "unset_fake_temporarily")()


# --- object collectives inside a compile (fusioncut.ranks) --------------------------------


@contextlib.contextmanager
def outside_tracing() -> Any:
    """Real tensors and the plain C++ dispatcher while a compile traces: no fake mode, no
    dispatch mode, no Python dispatcher. Object collectives (``broadcast_object_list``) made
    inside a partitioner need all three. Under AOTAutograd's Python dispatcher a collective
    runs with the GIL held; gloo's worker thread, holding the process group's queue lock,
    may need the GIL to free the previous collective's tensors, and the two processes hang
    (seen on torch 2.13 in about one run in ten; torch's own ``_sync_decision_cross_ranks``
    leaves the Python dispatcher on)."""
    unset_fake = _require("torch._subclasses.fake_tensor", "unset_fake_temporarily")
    no_dispatch = _require("torch.utils._mode_utils", "no_dispatch")
    no_python_dispatcher = _require("torch._dispatch.python", "no_python_dispatcher")
    with no_dispatch(), unset_fake(), no_python_dispatcher():
        yield


# --- Inductor -------------------------------------------------------------------------------


def custom_partitioner_fn_base() -> type:
    # custom_partitioner_fn arrived in torch 2.9 (pytorch/pytorch#157580, July 2025).
    return _require("torch._inductor.custom_graph_pass", "CustomPartitionerFn", since=(2, 9))


# --- op and tree types ----------------------------------------------------------------------


def op_overload_cls() -> type:
    return _require("torch._ops", "OpOverload")


def op_overload_packet_cls() -> type:
    return _require("torch._ops", "OpOverloadPacket")


def higher_order_operator_cls() -> type:
    return _require("torch._ops", "HigherOrderOperator")


def arg_tree_leaves(*args: Any) -> list:
    return _require("torch.utils._pytree", "arg_tree_leaves")(*args)


def tree_leaves(tree: Any) -> list:
    return _require("torch.utils._pytree", "tree_leaves")(tree)


# --- structured trace logging (fusioncut._log) ---------------------------------------------


def trace_structured() -> Any:
    """``torch._logging.trace_structured`` (tlparse artifacts), or None when absent."""
    try:
        return _require("torch._logging", "trace_structured")
    except ImportError:
        return None


def may_have_free_symbols(val: Any) -> bool:
    """False when ``val`` certainly mentions no symbol (cheap pre-check for ``free_symbols``).

    A tensor's ``_has_symbolic_sizes_strides`` flag is read in C; walking its sizes and strides
    with ``free_symbols`` costs ~50 us per tensor, a twentieth of emission on a 48-layer GPT.
    """
    if isinstance(val, torch.Tensor):
        flag = getattr(val, "_has_symbolic_sizes_strides", None)
        return True if flag is None else bool(flag)
    return isinstance(val, (torch.SymInt, torch.SymFloat, torch.SymBool)) or isinstance(
        val, (list, tuple)
    )


def ordered_set(items: Any) -> Any:
    """torch's ``OrderedSet`` (what ``_extract_fwd_bwd_modules`` takes for static inputs)."""
    return _require("torch.utils._ordered_set", "OrderedSet")(items)


# --- rules of torch's partitioner that changed between releases: each function names the
# first release that has its rule, and fusioncut follows the rule exactly there ------------


def follows_sdpa_dropout_rule() -> bool:
    """2.14+: an SDPA whose ``dropout_p`` is statically 0 is not random (``is_rng_op``)."""
    return torch_version() >= (2, 14)


def unreplaced_free_symbols() -> Callable[[Any], Any] | None:
    """2.14+: the symbols of a value before the shape environment's replacements (torch's
    backward binds these as well as the replaced ones); None before 2.14."""
    if torch_version() < (2, 14):
        return None
    try:
        return _require(_PARTITIONERS, "_free_symbols_without_replacements", since=(2, 14))
    except ImportError:
        return None


def stamps_static_inputs() -> bool:
    """2.15+: primals carry ``meta["is_static_input"]`` for the backward compiler."""
    return torch_version() >= (2, 15)


def device_values_are_free() -> bool:
    """2.15+: a ``torch.device`` value is size 0, never saved, recomputed where needed."""
    return torch_version() >= (2, 15)


def wait_ops() -> tuple:
    """The functional collectives' wait ops this torch has (``wait_tensors`` is 2.15+)."""
    if not torch.distributed.is_available():
        return ()
    ns = torch.ops._c10d_functional
    return tuple(getattr(ns, name).default for name in ("wait_tensor", "wait_tensors")
                 if hasattr(ns, name))


def compile_sync_group() -> Any:
    """The group for a compiler's collectives: 2.15+ ``get_compile_sync_pg`` (gloo, shared
    with AOTAutograd's cache-hit sync); None, the default group, before."""
    if torch_version() < (2, 15):
        return None
    try:
        get = _require("torch._dynamo.distributed", "get_compile_sync_pg", since=(2, 15))
    except ImportError:
        return None
    return get()


def extracts_control_deps() -> bool:
    """2.14+: torch's extraction splits ``control_deps`` between the two graphs."""
    return torch_version() >= (2, 14)


def control_deps_hop() -> Any:
    """Inductor's ``control_deps`` higher-order op (ordering of stream syncs)."""
    return _require("torch._inductor.fx_passes.control_dependencies", "control_deps")


def torch_min_cut_solver() -> str:
    """What torch's min-cut partitioner solves with: a Python Dinic from 2.15, networkx before."""
    if importlib.util.find_spec("torch._functorch._activation_checkpointing.min_cut"):
        return "pure-Python Dinic (torch._functorch._activation_checkpointing.min_cut)"
    return "networkx.minimum_cut (preflow-push)"


# --- activation quantization (Inductor's activation_quantization_aten_pass) ------------------


def activation_quantization_options() -> dict | None:
    """The pass's options when ``post_grad_fusion_options["activation_quantization_aten_pass"]``
    is configured, else None."""
    options = inductor_config().post_grad_fusion_options.get(
        "activation_quantization_aten_pass", None)
    return None if options is None else dict(options)


def quantization_rule() -> tuple[Callable[[Any], bool], torch.dtype] | None:
    """torch's ``should_quantize`` (on a joint node) and its ``get_quant_type()``; None on a
    torch without them."""
    try:
        should = _require(_PARTITIONERS, "should_quantize")
        quant_type = _require(_PARTITIONERS, "get_quant_type")
    except ImportError:
        return None
    return should, quant_type()
# --- tracing a model the way torch.compile does (fusioncut.report.capture) -----------------


def aot_autograd_backend(**kwargs: Any) -> Any:
    """``torch._dynamo.backends.common.aot_autograd(**kwargs)``: a Dynamo backend that runs
    AOTAutograd with the given compilers and ``partition_fn``."""
    return _require("torch._dynamo.backends.common", "aot_autograd")(**kwargs)


def dynamo_counter(name: str) -> dict[str, int]:
    """A copy of Dynamo's ``counters[name]`` ("graph_break"; a skipped frame's reasons are
    "unimplemented"): reason -> count, kept across resets; ``{}`` without the counter."""
    try:
        counters = _require("torch._dynamo.utils", "counters")
    except ImportError:
        return {}
    return {str(reason): int(count) for reason, count in counters.get(name, {}).items()}


@contextlib.contextmanager
def quiet_copies() -> Any:
    """Silence the ``FutureWarning`` torch >= 2.12 raises about ``LeafSpec`` whenever a
    GraphModule holding pytree specs is deep-copied: the copies are fusioncut's (and its
    peers' partitioners'), not the user's business."""
    import warnings

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=FutureWarning, message=".*LeafSpec.*")
        yield
