"""The configurations a training step is measured under, and how each is compiled.

A configuration is a name and a factory for Inductor's ``custom_partitioner_fn``::

    eager               no compiler
    torch_default       torch.compile, custom_partitioner_fn = None (Inductor calls torch's
                        min_cut_rematerialization_partition)
    default_partition   torch's default_partition (saves what eager saves, no recomputation)
    fusioncut_runtime   fusioncut.InductorPartitioner(Options(mode="runtime"))
    fusioncut_memory    fusioncut.InductorPartitioner(Options(mode="memory"))
    fusioncut_budget_50 / _0   fusioncut.InductorPartitioner(Options(memory_budget=0.5 / 0))
    torch_budget_50 / _0       torch's partitioner, activation_memory_budget = 0.5 / 0
    fusioncut_offload_budget_50 / _0   Options(offload="auto", memory_budget=0.5 / 0)
    torch_offload_all   torch's partitioner with enable_activation_offloading, every forward
                        value marked should_offload (the offload configs run only when named:
                        torch's side stream and prefetch on a GPU, device_put on the CPU)

``CONFIGS`` is a registry: a fusioncut variant is one line,
``add_fusioncut_config("fusioncut_budget_50", memory_budget=0.5)`` (any ``fusioncut.Options``
fields). Custom partitioners are wrapped to record what the forward graph saves and the time
spent partitioning.

Every compiled configuration of a workload stays alive for the interleaved timing, so caches
must keep them apart without a ``torch._dynamo.reset()`` between them. Dynamo keys compiled code
on the code object of the frame and does not guard on which copy of a model it is called with
(two deep copies of one model share one compiled graph, whichever partitioner compiled it), so
``compile_model`` calls every configuration's model through a function with a code object of its
own; ``fullgraph=True`` makes a graph break (whose resumed frames would be shared) an error
instead. The suite checks that every compiled configuration did compile (Dynamo counted a new
graph) and did not recompile while timed. The FX graph, AOTAutograd and autotune caches are off;
each configuration compiles in a fresh Inductor cache directory (``fresh_cache``).
"""

from __future__ import annotations

import contextlib
import inspect
import time
from dataclasses import dataclass, field
from typing import Callable

import torch

BASELINE = "torch_default"
EAGER = "eager"


# --- torch internals the harness depends on (one place, so a torch upgrade breaks here) ------


def torch_internals():
    from torch._functorch import config as functorch_config
    from torch._functorch.partitioners import default_partition
    from torch._inductor import config as inductor_config
    from torch._inductor.custom_graph_pass import CustomPartitionerFn
    from torch._inductor.utils import fresh_cache

    return functorch_config, inductor_config, default_partition, CustomPartitionerFn, fresh_cache


def tree_leaves(tree) -> list:
    """The leaves of nested lists, tuples and dicts (torch's pytree)."""
    from torch.utils._pytree import tree_leaves as leaves

    return leaves(tree)


def fusioncut_unavailable_reason() -> str | None:
    """None when ``fusioncut.InductorPartitioner`` and ``fusioncut.Options`` can be used."""
    try:
        import fusioncut

        fusioncut.InductorPartitioner  # noqa: B018
        fusioncut.Options  # noqa: B018
    except Exception as exc:  # ImportError, AttributeError: the partitioner is missing
        return f"fusioncut partitioner unavailable: {type(exc).__name__}: {exc}"
    return None


# --- recording what a partitioner saved ------------------------------------------------------


@dataclass
class PartitionRecord:
    """What one call of a wrapped partitioner produced."""

    seconds: float
    saved_count: int
    saved_bytes: int
    saved_input_bytes: int  # saved values that are forward inputs (placeholders)
    saved_names: list[str] = field(default_factory=list)


def _fake_nbytes(node) -> int | None:
    val = node.meta.get("val")
    if isinstance(val, torch.Tensor):
        try:
            return int(val.numel()) * val.element_size()
        except Exception:  # symbolic sizes
            return None
    return None


def record_forward_saved(fw_module, num_fwd_outputs: int, seconds: float) -> PartitionRecord:
    """The saved values of a forward graph: its outputs after the first ``num_fwd_outputs``."""
    out = next(n for n in reversed(fw_module.graph.nodes) if n.op == "output")
    saved = [a for a in out.args[0][num_fwd_outputs:] if a is not None]
    count = total = inputs = 0
    names = []
    for node in saved:
        nbytes = _fake_nbytes(node)
        if nbytes is None:
            continue  # SymInts
        count += 1
        total += nbytes
        names.append(node.name)
        if node.op == "placeholder":
            inputs += nbytes
    return PartitionRecord(seconds, count, total, inputs, names)


def make_recording_partitioner(fn: Callable, label: str):
    """A ``CustomPartitionerFn`` calling ``fn`` and recording the forward graph's saved values.

    ``uuid()`` is None, which tells Inductor to skip its code cache for graphs compiled with it.
    """
    _, _, _, CustomPartitionerFn, _ = torch_internals()

    class RecordingPartitioner(CustomPartitionerFn):
        def __init__(self):
            self.label = label
            self.records: list[PartitionRecord] = []

        def __call__(self, gm, joint_inputs, **kwargs):
            t0 = time.perf_counter()
            fw, bw = fn(gm, joint_inputs, **kwargs)
            self.records.append(
                record_forward_saved(fw, kwargs["num_fwd_outputs"], time.perf_counter() - t0))
            return fw, bw

        def uuid(self):
            return None

    return RecordingPartitioner()


def _default_partition(gm, joint_inputs, **kwargs):
    """torch's ``default_partition`` takes no ``compiler=`` argument; pass what it accepts."""
    _, _, default_partition, _, _ = torch_internals()
    accepted = inspect.signature(default_partition).parameters
    return default_partition(gm, joint_inputs, **{k: v for k, v in kwargs.items() if k in accepted})


# --- the registry ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Config:
    """``partitioner()`` returns the ``custom_partitioner_fn`` (None: torch's own); ``compiled``
    is False only for eager; ``needs_fusioncut`` configs are skipped, saying why, when
    fusioncut's partitioner cannot be imported."""

    name: str
    description: str
    partitioner: Callable[[], object] | None = None
    compiled: bool = True
    needs_fusioncut: bool = False
    default: bool = True  # run when --configs is not given


CONFIGS: dict[str, Config] = {}


def register(config: Config) -> Config:
    if config.name in CONFIGS:
        raise ValueError(f"register: config {config.name!r} is already registered")
    CONFIGS[config.name] = config
    return config


def add_fusioncut_config(name: str, **options) -> Config:
    """Registers ``name`` as ``fusioncut.InductorPartitioner(fusioncut.Options(**options))``."""

    def factory():
        import fusioncut

        inner = fusioncut.InductorPartitioner(fusioncut.Options(**options))
        return make_recording_partitioner(inner, name)

    described = ", ".join(f"{k}={v!r}" for k, v in options.items())
    return register(Config(name, f"fusioncut.InductorPartitioner(Options({described}))",
                           factory, needs_fusioncut=True))


register(Config(EAGER, "the model, uncompiled", compiled=False))
register(Config(BASELINE, "torch.compile, custom_partitioner_fn = None "
                "(torch's min_cut_rematerialization_partition)", lambda: None))
register(Config("default_partition", "torch's default_partition (no recomputation)",
                lambda: make_recording_partitioner(_default_partition, "default_partition")))
add_fusioncut_config("fusioncut_runtime", mode="runtime")
add_fusioncut_config("fusioncut_memory", mode="memory")


def add_torch_budget_config(name: str, budget: float) -> Config:
    """Registers ``name`` as torch's ``min_cut_rematerialization_partition`` under
    ``torch._functorch.config.activation_memory_budget = budget`` (its default solver)."""

    def factory():
        functorch_config, _, _, _, _ = torch_internals()
        from torch._functorch.partitioners import min_cut_rematerialization_partition

        def partition(gm, joint_inputs, **kwargs):
            with functorch_config.patch(activation_memory_budget=budget):
                return min_cut_rematerialization_partition(gm, joint_inputs, **kwargs)

        return make_recording_partitioner(partition, name)

    return register(Config(name, f"torch's min_cut_rematerialization_partition, "
                                 f"activation_memory_budget={budget}", factory))


# Memory budgets: fusioncut's frontier plan and PyTorch's knapsack plan at the same budget.
add_fusioncut_config("fusioncut_budget_50", memory_budget=0.5)
add_fusioncut_config("fusioncut_budget_0", memory_budget=0.0)
add_torch_budget_config("torch_budget_50", 0.5)
add_torch_budget_config("torch_budget_0", 0.0)


# --- offloading (named with --configs; not in the default run) --------------------------------


def side_stream_fault() -> str | None:
    """Why torch's side-stream offloading cannot compile on this torch (fusioncut's probe,
    ``_torch_offload.side_stream_fault``: torch 2.11's ``streams::record_stream``), or None;
    None without fusioncut."""
    try:
        from fusioncut._torch_offload import side_stream_fault as probe
    except ImportError:
        return None
    return probe()


def _offload_settings(joint_inputs) -> dict:
    """torch's offload settings for a joint graph: its side stream and prefetch where the graph
    runs on an accelerator (they need one) and this torch can compile them, synchronous
    ``device_put`` otherwise: the same for torch's configuration as for fusioncut's."""
    on_gpu = any(isinstance(a, torch.Tensor) and a.device.type != "cpu"
                 for a in tree_leaves(joint_inputs))
    stream = on_gpu and side_stream_fault() is None
    return dict(activation_offload_separate_stream=stream, activation_reload_prefetch=stream)


def add_fusioncut_offload_config(name: str, **options) -> Config:
    """Registers ``name`` as ``fusioncut.InductorPartitioner(Options(offload="auto",
    **options))`` under torch's offload settings for the graph's device."""

    def factory():
        import fusioncut

        functorch_config, _, _, _, _ = torch_internals()
        inner = fusioncut.InductorPartitioner(fusioncut.Options(offload="auto", **options))

        def partition(gm, joint_inputs, **kwargs):
            with functorch_config.patch(**_offload_settings(joint_inputs)):
                return inner(gm, joint_inputs, **kwargs)

        return make_recording_partitioner(partition, name)

    described = ", ".join(f"{k}={v!r}" for k, v in options.items())
    return register(Config(name, f"fusioncut.InductorPartitioner(Options(offload='auto', "
                                 f"{described})), torch's side stream and prefetch on a GPU",
                           factory, needs_fusioncut=True, default=False))


def _torch_offload_all():
    """torch's partitioner with ``enable_activation_offloading`` and every forward value marked
    ``should_offload`` (what tagging every saveable activation ``MUST_CPU_OFFLOAD`` asks; its
    ``can_offload`` keeps what it can), side stream and prefetch on a GPU."""
    functorch_config, _, _, _, _ = torch_internals()
    from torch._functorch.partitioners import min_cut_rematerialization_partition

    def partition(gm, joint_inputs, **kwargs):
        for node in gm.graph.nodes:
            if node.op == "call_function":
                node.meta["should_offload"] = True
        with functorch_config.patch(enable_activation_offloading=True,
                                    **_offload_settings(joint_inputs)):
            return min_cut_rematerialization_partition(gm, joint_inputs, **kwargs)

    return make_recording_partitioner(partition, "torch_offload_all")


OFFLOAD_CONFIGS = ("fusioncut_offload_budget_50", "fusioncut_offload_budget_0",
                   "torch_offload_all")
add_fusioncut_offload_config("fusioncut_offload_budget_50", memory_budget=0.5)
add_fusioncut_offload_config("fusioncut_offload_budget_0", memory_budget=0.0)
register(Config("torch_offload_all", "torch's min_cut_rematerialization_partition with "
                "enable_activation_offloading, every forward value marked should_offload",
                _torch_offload_all, default=False))


# --- compiling -------------------------------------------------------------------------------


@contextlib.contextmanager
def compile_context(partitioner, *, fallback_random: bool = False, fresh: bool = True,
                    reset: bool = False):
    """Inductor/AOTAutograd settings for compiling one configuration. Graph-level caches are
    off; ``fresh``: a new Inductor cache dir; ``reset``: ``torch._dynamo.reset()`` on entry
    and exit (the largest-batch search, which compiles many sizes one after another)."""
    functorch_config, inductor_config, _, _, fresh_cache = torch_internals()
    with contextlib.ExitStack() as stack:
        stack.enter_context(inductor_config.patch(
            custom_partitioner_fn=partitioner,
            fx_graph_cache=False,
            fx_graph_remote_cache=False,
            autotune_local_cache=False,
            autotune_remote_cache=False,
            fallback_random=fallback_random,
        ))
        stack.enter_context(
            functorch_config.patch(enable_autograd_cache=False, enable_remote_autograd_cache=False))
        if fresh:
            stack.enter_context(fresh_cache())
        if reset:
            torch._dynamo.reset()
        try:
            yield
        finally:
            if reset:
                torch._dynamo.reset()


# The function every compiled configuration is called through. Each configuration compiles
# its own copy, made by ``exec``, so its code object is its own and so is Dynamo's cache.
_CALLER = "def make(model):\n    def step(*args):\n        return model(*args)\n    return step\n"


def compile_model(model: torch.nn.Module, tag: str):
    """``torch.compile`` of a call to ``model`` through a function with a code object of its
    own (named after ``tag``): Dynamo caches compiled graphs per code object and, for a module
    whose forward does not read ``self``, guards on nothing that tells two copies apart."""
    namespace: dict = {}
    exec(compile(_CALLER, f"<bench_train config {tag}>", "exec"), namespace)  # noqa: S102
    return torch.compile(namespace["make"](model), backend="inductor", dynamic=False,
                         fullgraph=True)


def dynamo_graph_count() -> int:
    """Graphs Dynamo has compiled in this process (it goes up on every recompilation)."""
    from torch._dynamo.utils import counters

    return int(counters["stats"]["unique_graphs"])
