"""``Options``: every knob of the partitioner, in one frozen dataclass.

Nothing in fusioncut reads a global configuration while it decides; a partition is a pure
function of the joint graph and one ``Options`` value. ``functools.partial(fusioncut.partition,
options=Options(mode="memory"))`` is the way to change behaviour.

Modes (the two settings of the min-cut write-up, section "Decisions"):

- ``"runtime"`` (default, the paper's conservative setting): only ops the compiler fuses
  (pointwise, views, reductions, ``cat``) may be recomputed, and never a value a backward op
  would have to materialize anyway (Lemma 3.1). The saved set minimises the bytes read and
  written between forward and backward.
- ``"memory"`` (the write-up's "aggressive" setting): every op but compute-intensive,
  random, collective, effectful and mutating ones may be recomputed, and the
  materialized-in-backward ban is off. Saves less, recomputes more.
"""

from __future__ import annotations

import ast
import inspect
import math
import sys
import textwrap
from dataclasses import dataclass, fields

from fusioncut._validate import check_number, plain_number, shown
from fusioncut.device import PRESETS, Device, resolve_device

MODES = ("runtime", "memory")
DEFAULT_BUDGET_DEVICE = "h100"
"""Budgets need a price for recomputation; without ``Options.device`` they use this preset."""
ALGORITHMS = ("auto", "push_relabel", "boykov_kolmogorov")
OFFLOAD_MODES = ("never", "tagged", "auto")

# Bounds that keep every weight computation far inside int64 (the solver's INF is 2**62):
# bytes (< 2**52 for any real tensor) x factor, and sizes x itemsize.
MAX_FACTOR = 1024
MAX_SYMINT_BYTES = 2**32
MAX_SIZE_HINT = 2**40
MAX_TARGET_BYTES = 2**62
"""Largest ``memory_budget_bytes`` / ``peak_memory_bytes``: the solver's INF. No graph saves or
peaks at more (sizes are int64 byte counts), so a larger target would choose the same plan."""
MAX_PEAK_MARGIN = 10  # a measured peak eleven times the estimate would be no estimate at all
PEAK_MARGIN = 0.20
"""The default ``Options.peak_margin``: the fraction by which a step's measured peak may exceed
the plan's estimated peak (``peak.py``). From docs/budget.md ("The margin, re-derived"):
compiled CPU training steps, each peak from the CPU profiler, came at most 12.3% above the
estimate on the 144 stored plans of the zoo GPT, Llama (SDPA and written attention), a ResNet-18
layout and seven transformers models (hf-llama at budget 0.25), and at most 17.0% on the plans
of twelve transformers models the estimate was never shaped on (StableLM at budget 0: an SDPA
backward and the kernels around it hold more than the walk models). 0.20 covers both."""
GPU_PEAK_MARGIN = 0.55
"""The default ``Options.peak_margin`` for a graph on a GPU. From docs/budget.md ("GPU"):
compiled training steps on one H100 (Triton kernels, the CUDA allocator's peak) of the same
models came up to 86% above the estimate of the time (GPT-2 and Llama from transformers, the
peak inside ``_efficient_attention_backward``); the estimate has since counted that kernel's
workspace (``peak_extern``), 2.03 MiB on those shapes, which leaves at most 54.5% (Llama at
its least plan: 18.35 MiB measured against 11.88 estimated). Derived, not re-measured: a GPU
run should confirm it."""
LOW_PRECISION_PEAK_MARGIN = 0.35
"""The default ``Options.peak_margin`` for a CPU graph that computes in a 16-bit float (a model
trained under ``torch.autocast(dtype=torch.bfloat16)``). From docs/budget.md ("Mixed precision
on the CPU"): oneDNN's bfloat16 matmuls allocate a scratchpad inside the call (1.42 MiB for a
2048 x 512 by 2048 x 64 weight gradient on an AMX machine; none in float32), which the estimate
does not count, and Inductor's horizontal fusion of the norms' weight-gradient sums moves later
layers' backward ahead of earlier weight gradients. Compiled steps of eight models under
bfloat16 autocast (2 threads) came up to 29.9% above the estimate (BERT from transformers at
budget 0.5); the scratchpads grow with the thread count (0.71 MiB per thread there)."""


def _document_fields(cls: type) -> type:
    """Append each field's docstring (the string literal under it in the class body, where
    editors and Sphinx look) to the class docstring, which is what ``help()`` shows. The text
    is read from the source once, at import; without the source the docstring stays as is."""
    try:
        body = ast.parse(textwrap.dedent(inspect.getsource(cls))).body[0].body
    except (OSError, TypeError, SyntaxError, IndexError):
        return cls
    docs = {}
    for stmt, nxt in zip(body, body[1:]):
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and \
                isinstance(nxt, ast.Expr) and isinstance(nxt.value, ast.Constant) and \
                isinstance(nxt.value.value, str):
            docs[stmt.target.id] = inspect.cleandoc(nxt.value.value)
    lines = ["", "Fields (name: type = default):", ""]
    for f in fields(cls):
        lines.append(f"{f.name}: {f.type} = {f.default!r}")
        lines += ["    " + line if line else "" for line in docs.get(f.name, "").splitlines()]
        lines.append("")
    cls.__doc__ = inspect.cleandoc(cls.__doc__ or "") + "\n" + "\n".join(lines)
    return cls


_NUMBERS = ("reduction_ratio", "unmaterialized_factor", "symint_bytes", "distance_cap",
            "unbacked_size_hint", "memory_budget", "memory_budget_bytes", "peak_memory_bytes",
            "peak_margin")  # the numeric fields


@_document_fields
@dataclass(frozen=True)
class Options:
    """How fusioncut chooses what to save. All fields are validated in ``__post_init__``.

    Rejects: a field of the wrong type (a bool or float where an int is expected, a string
    number) or outside its range, as ``ValueError`` naming the field, the value and the valid
    range. The integer ranges keep every weight computation inside int64 (bytes x factor and
    sizes x itemsize stay below the solver's 2**62), so no option can wrap a weight. A numpy
    number (``np.int64`` bytes, an ``np.float32`` budget) is taken as the builtin ``int`` or
    ``float`` it stands for, and held as that."""

    mode: str = "runtime"
    """``"runtime"`` (the paper's setting): only ops the compiler fuses may be recomputed,
    never a value some backward op must materialize anyway. ``"memory"``: every op but
    compute-intensive, random, collective, effectful and mutating ones may be recomputed.
    One of ``"runtime"``, ``"memory"``."""

    reduction_ratio: float = 4.0
    """Ban recomputing an op whose output has at least this many times fewer elements than its
    tensor inputs together (paper section 3.4: saving a small reduction output is cheap and
    keeps normalisations from being recomputed; the reason reads ``small output`` for an op
    that is no reduction, such as an embedding lookup). Counted in elements, not bytes, so that a
    dtype-narrowing op such as ``x < 0.5`` (float in, bool out) is not mistaken for a
    reduction. ``math.inf`` disables the ban. Range: ``> 1``."""

    ban_materialized_in_backward: bool | None = None
    """Ban recomputing a forward value that some backward op cannot fuse with (Lemma 3.1:
    recomputing it would not avoid reading and writing it). ``None``: on in ``"runtime"``
    mode, off in ``"memory"`` mode."""

    unmaterialized_factor: int = 2
    """Weight multiplier for a value the forward would not otherwise write to memory: saving it
    costs one write in the forward and one read in the backward (Algorithm 2). A value that
    is materialized anyway costs its bytes once. Range: ``[1, 1024]`` (bytes x factor must
    stay far below the solver's 2**62)."""

    static_inputs_free_to_save: bool = True
    """Static-lifetime inputs (parameters, buffers) stay alive across forward and backward
    anyway, so saving them costs nothing (torch's ``treat_parameters_as_free_to_save``)."""

    symint_bytes: int = 1
    """Weight of saving one SymInt. A SymInt is a host integer, so any small positive number
    works; torch uses 1. Range: ``[0, 2**32]``."""

    distance_cap: int = 32
    """The tie-break prefers saving values closer to the backward: among cuts of equal byte
    cost, the one whose saved nodes have the smallest sum of ``min(distance, distance_cap)``
    wins (distance = fewest forward ops to a backward user). The tie-break never outweighs a
    single byte. Range: ``[0, 1024]``."""

    unbacked_size_hint: int = 4096
    """Element count assumed for a size that has no hint (unbacked SymInt). Range:
    ``[1, 2**40]``."""

    annotations_override_bans: bool = True
    """``node.meta["recompute"] in (MUST_RECOMPUTE, PREFER_RECOMPUTE)`` lifts heuristic bans
    (compute-intensive, not fusible, reduction, random with RNG replay), as torch does for
    selective activation checkpointing and DeepSpeed. Collective, mutating and effectful ops
    stay banned: recomputing them would change what the program does. ``False``: every ban
    stands and a conflicting annotation is a ``PartitionError``."""

    algorithm: str = "auto"
    """Max-flow algorithm passed to ``fusioncut.min_node_cut``: ``"auto"``,
    ``"push_relabel"`` or ``"boykov_kolmogorov"``. Every algorithm returns the same cut."""

    device: Device | str | None = None
    """Decide for a device's costs in seconds (``fusioncut.Device``, a preset name such as
    ``"h100"`` or ``"cpu"``, or the path of a profile written by ``python -m fusioncut
    calibrate``): recomputing a node then costs its time (``recompute.py``), charged against
    the bytes saving moves. ``None`` (default): the byte model alone, recomputation of what
    the mode allows is free. Stored as the resolved ``Device``."""

    memory_budget: float | None = None
    """Activation memory budget with PyTorch's meaning: 0 the least activation memory, 1 the
    runtime plan, in between the plan that recomputes least among those saving at most
    ``least + b * (runtime - least)`` bytes (budget.py). Under a budget, compute-intensive,
    non-fusible and reduction ops become recomputable at their cost on ``device`` (the
    ``"h100"`` preset when ``device`` is None); random, collective, mutating, effectful and
    opaque ops never do. ``None``: ``torch._functorch.config.activation_memory_budget`` when
    fusioncut is the partitioner, else no budget. Range: ``[0, 1]``."""

    memory_budget_bytes: int | None = None
    """The same budget as an absolute number of saved activation bytes. Range: ``[0, 2**62]``
    (``MAX_TARGET_BYTES``)."""

    peak_memory_bytes: int | None = None
    """A target on the step's peak memory: the plan that recomputes least among those whose
    estimated peak (peak.py), raised by ``peak_margin``, fits; among plans whose estimates
    tie, the one that saves least. A target below the least plan's estimated peak gives the
    least plan and a ``BudgetWarning`` naming the gap in bytes; one the least plan meets only
    without the margin gives it with a ``BudgetWarning`` saying so. Range: ``[0, 2**62]``."""

    peak_margin: float | None = None
    """The fraction by which a measured peak may exceed the estimated one, which
    ``peak_memory_bytes`` keeps as headroom and the log and ``explain`` report (the most a
    plan's measured peak is expected to reach: estimate x (1 + margin)). ``None``: the largest
    excess measured on the graph's kind of device (docs/budget.md), ``PEAK_MARGIN`` (0.20)
    for a graph on the CPU, ``LOW_PRECISION_PEAK_MARGIN`` (0.35) for one on the CPU that
    computes in bfloat16 or float16, ``GPU_PEAK_MARGIN`` (0.55) for one on a GPU; 0 trusts the
    estimate. Range: ``[0, 10]`` or None."""

    offload: str | None = None
    """Which saved values go to host memory between the forward and the backward (offload.py;
    emitted through PyTorch's own activation-offloading pass):

    - ``"never"``: none; ``MUST_CPU_OFFLOAD`` / ``PREFER_CPU_OFFLOAD`` annotations are ignored,
      as PyTorch's partitioner ignores them without ``enable_activation_offloading``.
    - ``"tagged"``: exactly the saved values annotations ask for: ``MUST_CPU_OFFLOAD`` (never
      recomputed, offloaded whenever saved; on a value that cannot be offloaded an
      ``offload.OffloadError`` naming the node), ``PREFER_CPU_OFFLOAD`` and torch's own
      ``meta["should_offload"]`` mark (offloaded where ``offload.py`` allows).
    - ``"auto"``: without a memory target, ``"tagged"``. Under one (``memory_budget``,
      ``memory_budget_bytes``, ``peak_memory_bytes``), one min cut per price decides for each
      value whether it is kept on the device, recomputed or offloaded, at its transfer price
      on ``device``'s host link (budget_plans.py, offload_link.py): ``MUST_CPU_OFFLOAD`` is
      offloaded whenever saved, ``PREFER_CPU_OFFLOAD`` and torch's mark are weighed like any
      other value. The memory target counts only what stays on the device. A device without
      a host link (the ``"cpu"`` preset) offloads nothing more, nor does a graph on the CPU
      when no device is named (its values are in host memory already; a WARNING on the
      ``fusioncut`` logger, and ``explain`` and ``pareto`` say why). Under ``"tagged"`` a
      memory target picks its plan as without offloading and offloads the tagged values on
      top.

    ``None``: ``"auto"`` when ``torch._functorch.config.enable_activation_offloading`` is set
    and fusioncut is the partitioner, else ``"never"``. Anything but ``"never"`` needs a
    torch with ``torch._functorch._activation_offloading`` (``ValueError`` otherwise)."""

    def __post_init__(self) -> None:
        def bad(name: str, value: object, valid: str) -> ValueError:
            return ValueError(f"Options: {name} = {shown(value)} is invalid; expected {valid}")

        for name in _NUMBERS:  # numpy scalars as the builtins they stand for
            object.__setattr__(self, name, plain_number(getattr(self, name)))
        if not isinstance(self.mode, str) or self.mode not in MODES:
            raise bad("mode", self.mode, "one of " + ", ".join(repr(m) for m in MODES))
        ratio = self.reduction_ratio  # compared exactly: no float() of a huge int, NaN fails
        if not isinstance(ratio, (int, float)) or isinstance(ratio, bool) or not (
                1 < ratio <= math.inf) or (isinstance(ratio, int) and ratio > sys.float_info.max):
            raise bad("reduction_ratio", ratio, "a number > 1, at most 1.8e308 (or math.inf)")
        if self.ban_materialized_in_backward is not None and not isinstance(
                self.ban_materialized_in_backward, bool):
            raise bad("ban_materialized_in_backward", self.ban_materialized_in_backward,
                      "None, True or False")
        check_number("Options", "unmaterialized_factor", self.unmaterialized_factor, 1,
                     MAX_FACTOR, integer=True)
        if not isinstance(self.static_inputs_free_to_save, bool):
            raise bad("static_inputs_free_to_save", self.static_inputs_free_to_save,
                      "True or False")
        check_number("Options", "symint_bytes", self.symint_bytes, 0, MAX_SYMINT_BYTES,
                     integer=True)
        check_number("Options", "distance_cap", self.distance_cap, 0, 1024, integer=True)
        check_number("Options", "unbacked_size_hint", self.unbacked_size_hint, 1,
                     MAX_SIZE_HINT, integer=True)
        if not isinstance(self.annotations_override_bans, bool):
            raise bad("annotations_override_bans", self.annotations_override_bans,
                      "True or False")
        if not isinstance(self.algorithm, str) or self.algorithm not in ALGORITHMS:
            raise bad("algorithm", self.algorithm, "one of " + ", ".join(map(repr, ALGORITHMS)))
        object.__setattr__(self, "device", resolve_device(self.device, "Options"))
        if self.memory_budget is not None:
            check_number("Options", "memory_budget", self.memory_budget, 0, 1,
                         valid="a number in [0, 1] or None")
        if self.peak_margin is not None:
            check_number("Options", "peak_margin", self.peak_margin, 0, MAX_PEAK_MARGIN,
                         valid="a number in [0, 10] or None")
        for name in ("memory_budget_bytes", "peak_memory_bytes"):
            value = getattr(self, name)
            if value is not None:
                check_number("Options", name, value, 0, MAX_TARGET_BYTES, integer=True,
                             valid="an integer in [0, 2**62] or None")
        if self.offload is not None and (not isinstance(self.offload, str)
                                         or self.offload not in OFFLOAD_MODES):
            raise bad("offload", self.offload,
                      "None or one of " + ", ".join(map(repr, OFFLOAD_MODES)))
        chosen = [name for name in ("memory_budget", "memory_budget_bytes", "peak_memory_bytes")
                  if getattr(self, name) is not None]
        if len(chosen) > 1:
            raise ValueError(f"Options: {chosen[0]} and {chosen[1]} are both set; give at most "
                             f"one memory target")

    @property
    def budgeted(self) -> bool:
        """Whether a memory target is set (a budget below 1, bytes or a peak)."""
        return ((self.memory_budget is not None and self.memory_budget < 1.0)
                or self.memory_budget_bytes is not None or self.peak_memory_bytes is not None)

    @property
    def offload_mode(self) -> str:
        """``offload`` with ``None`` read as ``"never"`` (the front doors resolve ``None`` from
        torch's configuration before deciding: ``partitioner.with_torch_offload``)."""
        return "never" if self.offload is None else self.offload

    @property
    def budget_device(self) -> Device:
        """The device budgets price recomputation on: ``device``, else the "h100" preset."""
        return self.device if self.device is not None else PRESETS[DEFAULT_BUDGET_DEVICE]

    @property
    def bans_materialized_in_backward(self) -> bool:
        """``ban_materialized_in_backward`` with the mode's default filled in."""
        if self.ban_materialized_in_backward is None:
            return self.mode == "runtime"
        return self.ban_materialized_in_backward

