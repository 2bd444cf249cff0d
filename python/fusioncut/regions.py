"""One decision per region: ``invoke_subgraph`` joint graphs that share a structure share a
saved set.

AOTAutograd partitions each distinct ``torch.compiler.nested_compile_region`` on its own: it
calls the partition_fn with the region's joint graph, ``joint_inputs=[]`` and 0-based
placeholders (``primals_0``, ``tangents_0``), once per region identifier and backward variant,
before the outer graph. Regions whose joint graphs are structurally identical -- the same
layer compiled again, one region's backward variants (``bw_subgraph_0_0`` and ``_1`` differ in
tangent strides only), layers written as separate functions with one body -- get the same
decision: the first is analysed, every later one reuses its saved set by node position and
only copies its own nodes into the two modules (``emit.Template``: the emission's node
orders, also by position)::

    key   = (per node: op, target, argument positions, getitem index / HOP identity,
             shape + dtype of meta["val"], partitioner, recompute and offload tags),
            output positions, num_fwd_outputs, static inputs, Options, torch settings
    cache = key -> emit.Template (saved and offloaded positions, node orders); LRU,
            MAX_ENTRIES entries

Strides are not in the key: no rule but the offload rule reads them, and it reads only
contiguity, which is in the key when ``Options.offload`` is not ``"never"``. The emitted
graphs take every node's metadata from the graph being partitioned, never from the cache.
The key holds no node or tensor, so the cache keeps no graph alive.
"""

from __future__ import annotations

import operator
import re
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import torch
import torch.fx as fx

from fusioncut import _torch_compat, _torch_offload, hops
from fusioncut.emit import Template, build_modules_and_schedule, stamp_static_inputs

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
"""Object addresses in a tag's text (Dynamo gives each region its own copy of a
``nested_region_config``, whose partitioner then prints at another address)."""

MAX_ENTRIES = 64
"""Cached decisions kept per process (least recently used dropped first)."""

_META_KEYS = ("partitioner_tag", "recompute", "ac_graph_id", "has_backward_hook",
              "saved_tensor_with_no_vc_check", "memory_budget", "should_offload")


@dataclass(frozen=True)
class CacheInfo:
    hits: int
    misses: int
    entries: int


class _Cache:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.entries: OrderedDict[Any, Template] = OrderedDict()
        self.hits = 0
        self.misses = 0


_cache = _Cache()


def cache_info() -> CacheInfo:
    """Hits and misses of region lookups since the last ``clear_cache``."""
    with _cache.lock:
        return CacheInfo(_cache.hits, _cache.misses, len(_cache.entries))


def clear_cache() -> None:
    with _cache.lock:
        _cache.entries.clear()
        _cache.hits = _cache.misses = 0


def is_region_call(gm: fx.GraphModule, joint_inputs: Any) -> bool:
    """AOTAutograd's call for one invoke_subgraph region: no joint inputs, 0-based primals
    or tangents (an outer joint graph numbers its placeholders from 1)."""
    if joint_inputs is None or len(joint_inputs) != 0 or not isinstance(gm, fx.GraphModule):
        return False
    for node in gm.graph.find_nodes(op="placeholder"):
        return node.name in ("primals_0", "tangents_0")
    return False


class Region:
    """A region joint graph's cache key and its nodes, computed in one pass."""

    def __init__(self, gm: fx.GraphModule, num_fwd_outputs: int,
                 static_lifetime_input_indices: Sequence[int] | None, options: Any) -> None:
        self.gm = gm
        self.num_fwd_outputs = num_fwd_outputs
        self.static_lifetime_input_indices = static_lifetime_input_indices
        self.nodes: list[fx.Node] = list(gm.graph.nodes)
        self.key = _key(gm, self.nodes, num_fwd_outputs, static_lifetime_input_indices,
                        options)

    def reuse(self) -> tuple[fx.GraphModule, fx.GraphModule] | None:
        """The forward and backward modules by the decision of an identical region, or None
        (a miss: decide, then ``build``)."""
        if self.key is None:
            return None
        with _cache.lock:
            template = _cache.entries.get(self.key)
            if template is None:
                _cache.misses += 1
                return None
            _cache.entries.move_to_end(self.key)
            _cache.hits += 1
        fw, bw = template.replay(self.gm, self.nodes)
        stamp_static_inputs(self.gm, self.static_lifetime_input_indices, fw, bw)
        return fw, bw

    def saved_positions(self) -> tuple[int, ...] | None:
        """The cached saved set of this region by node position (tensors, then SymInts)."""
        with _cache.lock:
            template = _cache.entries.get(self.key) if self.key is not None else None
        return None if template is None else template.saved

    def build(self, saved_values: Sequence[fx.Node], saved_sym_nodes: Sequence[fx.Node],
              offloaded: Sequence[fx.Node] = (),
              offload_waits: Mapping[str, str | None] | None = None
              ) -> tuple[fx.GraphModule, fx.GraphModule]:
        """``emit.build_modules`` for this region's decision, remembered for the next
        identical region."""
        fw, bw, sched = build_modules_and_schedule(
            self.gm, saved_values, saved_sym_nodes, num_fwd_outputs=self.num_fwd_outputs,
            static_lifetime_input_indices=self.static_lifetime_input_indices,
            offloaded=offloaded, offload_waits=offload_waits)
        if self.key is not None and sched is not None:
            template = Template.from_schedule(sched, self.num_fwd_outputs, offloaded,
                                              offload_waits)
            with _cache.lock:
                _cache.entries[self.key] = template
                _cache.entries.move_to_end(self.key)
                while len(_cache.entries) > MAX_ENTRIES:
                    _cache.entries.popitem(last=False)
        return fw, bw


def _key(gm, nodes, num_fwd_outputs, static, options) -> tuple | None:
    """The structural fingerprint (see the module docstring), or None when the graph has
    something the key cannot hold (a node of another graph, an unhashable option): such a
    graph is decided afresh, and malformed ones are reported by the normal path."""
    position: dict[fx.Node, int] = {}
    where = position.__getitem__
    rows: list[tuple] = []
    memo: dict[int, Any] = {}
    getitem = operator.getitem
    meta_keys = _META_KEYS
    signature = _signature
    if getattr(options, "offload_mode", "never") != "never":
        signature = _signature_with_layout  # the offload rule reads contiguity
    try:
        for i, node in enumerate(nodes):
            op = node.op
            ins = tuple(map(where, node.all_input_nodes))
            position[node] = i
            if op == "output":
                rows.append((op, tuple(position[x] if isinstance(x, fx.Node) else _const(x)
                                       for x in _torch_compat.arg_tree_leaves(*node.args))))
                continue
            target = node.target
            if op == "placeholder":
                target = node.name  # primal or tangent: decided by the name
            elif op == "get_attr":
                target = (target, _body_key(hops.fetch_attr(gm, target), memo))
            elif target is getitem:
                target = (getitem, _const(node.args[1]))
            elif hops.is_hop(target):
                target = hops.describe(node)
            meta = node.meta
            tags = tuple(map(meta.get, meta_keys))
            custom = meta.get("custom")
            if custom:
                tags += (tuple(sorted((str(k), _ADDRESS.sub("", repr(v)))
                                      for k, v in custom.items() if k != "call_id")),)
            rows.append((op, target, ins, signature(meta.get("val")), tags))
        key = (tuple(rows), num_fwd_outputs, tuple(static) if static is not None else None,
               options, _settings())
        hash(key)
    except (KeyError, TypeError, ValueError):  # ValueError: repr of a 5,000-digit int
        return None
    return key


def _body_key(module: Any, memo: dict[int, Any]) -> Any:
    """The structure of a HOP's subgraph (nested ones included): what its ops are decides
    whether an annotation may have the HOP recomputed."""
    if not isinstance(module, fx.GraphModule):
        return type(module).__name__
    if id(module) in memo:
        return memo[id(module)]
    memo[id(module)] = None  # a cycle of subgraphs ends here
    position: dict[fx.Node, int] = {}
    rows = []
    for i, node in enumerate(module.graph.nodes):
        position[node] = i
        target = node.target
        if node.op == "get_attr":
            target = (target, _body_key(hops.fetch_attr(module, target), memo))
        elif hops.is_hop(target):
            target = hops.describe(node)
        rows.append((node.op, target, tuple(position[x] for x in node.all_input_nodes),
                     _signature(node.meta.get("val"))))
    memo[id(module)] = key = tuple(rows)
    return key


def _settings() -> tuple:
    """torch settings the decision or the emitted graphs depend on."""
    budget = getattr(_torch_compat.functorch_config(), "activation_memory_budget", 1.0)
    quantization = _torch_compat.activation_quantization_options()
    return (_torch_compat.dce_impure_random(), budget, _torch_offload.offload_settings(),
            None if quantization is None else repr(sorted(quantization.items())))


def _const(x: Any) -> Any:
    try:
        hash(x)
        return x
    except TypeError:
        return repr(x)


def _signature_with_layout(val: Any) -> Any:
    """``_signature`` plus whether a tensor is contiguous (what ``offload.py`` reads)."""
    if isinstance(val, torch.Tensor):
        try:
            return _signature(val), bool(val.is_contiguous())
        except Exception:  # an undecidable layout: offload.py keeps such values on the device
            return _signature(val), None
    return _signature(val)


def _signature(val: Any) -> Any:
    """Shape and dtype of a ``meta["val"]`` (symbolic sizes as their expressions)."""
    if isinstance(val, torch.Tensor):
        if getattr(val, "_has_symbolic_sizes_strides", False):
            return tuple(str(s) for s in val.shape), val.dtype
        return tuple(val.shape), val.dtype
    if isinstance(val, (tuple, list)):
        return type(val).__name__, tuple(_signature(v) for v in val)
    if isinstance(val, dict):
        return "dict", tuple((k, _signature(v)) for k, v in val.items())
    if isinstance(val, (torch.SymInt, torch.SymFloat, torch.SymBool)):
        return type(val).__name__, str(val)
    if val is None or isinstance(val, (int, float, bool, str)):
        return val
    return type(val).__name__
