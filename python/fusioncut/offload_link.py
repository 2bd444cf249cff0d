"""The host link of one training step: what a plan's offloaded bytes really cost.

``offload.exposed_seconds`` prices each value alone, as if every transfer found compute to
hide under. The link is shared: all of a step's offloaded bytes go to the host during the
forward and come back during the backward. ``Link.cost(nbytes)`` charges a plan's total::

    t            = nbytes / host_bandwidth                     the link's busy time, one way
    per direction (forward copies, backward reloads):
      overlapped   max((1 - offload_hidden) x t, nbytes / bandwidth)
                   +  max(0, offload_hidden x t - C)
      otherwise    t                                           (torch's synchronous device_put)
    C            = the compute seconds of the phase the direction overlaps

so a hidden transfer that does not fit under its phase's compute is charged in full
(``excess_seconds``, the link's over-subscription), and one that does still costs its copy's
device memory traffic (``nbytes / bandwidth``: what a link that hides everything exposes).
``C`` comes from ``recompute.py``'s price model: the sum over the phase's nodes of what each
costs to run (a matmul or any kernel of its own: launch, bytes, FLOPs; a fused pointwise op:
only its arithmetic beyond the kernel's memory shadow). That leaves out the memory traffic of
fused pointwise kernels, so ``C`` is a lower bound of the phase's compute and the charge errs
towards exposure; the backward counts its own nodes, not the plan's recomputation.

The cut prices values additively (``prices``); the excess is not additive. Its Lagrange
multiplier ``mu`` adds ``mu`` directions' hidden part to each value's price: ``mu = 0`` trusts
the link, ``mu = directions()`` hides nothing. ``budget_reach`` re-solves with raised ``mu``
while some plan over-subscribes the link and scores every plan with ``cost``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fusioncut.device import Device
from fusioncut.graph import JointGraph, Role
from fusioncut.offload import OffloadPolicy, Overlap, Request, exposed_seconds, \
    overlapped_exposure
from fusioncut.peak_offload import OffloadedValues, paced_waits

__all__ = ["Link", "LinkCost", "OffloadArcs", "link", "offload_arcs"]


@dataclass(frozen=True)
class LinkCost:
    """A plan's transfers: bytes each way, the link's busy time one way, the seconds the step
    waits for them and the part of those that over-subscribes the link."""

    nbytes: int
    transfer_seconds: float
    exposed_seconds: float
    excess_seconds: float


@dataclass(frozen=True)
class Link:
    """The host link of one joint graph on one device under torch's offload settings."""

    device: Device
    overlap: Overlap
    forward_seconds: float  # compute the forward's copies can hide under
    backward_seconds: float  # compute the backward's reloads can hide under
    node_seconds: np.ndarray  # float64 (n,): each node's compute seconds
    hold_forward: bool  # torch's sink_wait: device copies held until the forward's end
    prefetch_bandwidth: float | None  # bytes/s torch's prefetch plans with; None: no prefetch
    forward_clock: np.ndarray  # float64 (n,): the forward's compute seconds to node i's end
    last_forward_use: np.ndarray  # int64 (n,): the last forward reader of node i's storage
    forward_nodes: np.ndarray  # int64: the forward's nodes, ascending

    @property
    def paced(self) -> bool:
        """fusioncut places the forward's waits: a side stream (the forward overlaps) whose
        waits torch does not sink to the forward's end."""
        return self.overlap.forward and not self.hold_forward

    def directions(self) -> int:
        """How many directions can overlap compute (the largest useful multiplier)."""
        return int(self.overlap.forward) + int(self.overlap.backward)

    def cost(self, nbytes: int) -> LinkCost:
        """The true cost of offloading ``nbytes`` in one step (see the module docstring)."""
        dev = self.device
        t = float(nbytes) / dev.host_bandwidth
        h = dev.offload_hidden
        exposed = excess = 0.0
        for overlapped, compute in ((self.overlap.forward, self.forward_seconds),
                                    (self.overlap.backward, self.backward_seconds)):
            if not overlapped:
                exposed += t
                continue
            over = max(0.0, h * t - compute)
            exposed += float(overlapped_exposure(float(nbytes), t, dev)) + over
            excess += over
        return LinkCost(nbytes=int(nbytes), transfer_seconds=t, exposed_seconds=exposed,
                        excess_seconds=excess)

    def prices(self, nbytes: np.ndarray, mu: float) -> np.ndarray:
        """float64 seconds per value at multiplier ``mu``: its exposed seconds alone, plus
        ``mu`` times the hidden part of one direction."""
        nbytes = np.asarray(nbytes, dtype=np.float64)
        hidden = self.device.offload_hidden * nbytes / self.device.host_bandwidth
        return exposed_seconds(nbytes, self.device, self.overlap) + mu * hidden

    def values(self, nodes: np.ndarray, nbytes: np.ndarray) -> OffloadedValues:
        """``nodes`` (offloaded, with their bytes) as the peak estimate reads them."""
        nodes = np.asarray(nodes, dtype=np.int64)
        lead = None
        if self.prefetch_bandwidth is not None:
            lead = np.asarray(nbytes, dtype=np.float64)[nodes] / self.prefetch_bandwidth
        return OffloadedValues(nodes=nodes, hold_forward=self.hold_forward, lead_seconds=lead,
                               node_seconds=self.node_seconds,
                               wait_before=self.wait_before(nodes, nbytes))

    def wait_before(self, nodes: np.ndarray, nbytes: np.ndarray) -> np.ndarray | None:
        """int64 per entry of ``nodes``: the forward node before which the forward waits for
        its copy to the host (``peak_offload.paced_waits`` at ``host_bandwidth``; the node
        count: the forward's end); None when fusioncut does not place the waits (``paced``)."""
        if not self.paced:
            return None
        nodes = np.asarray(nodes, dtype=np.int64)
        seconds = np.asarray(nbytes, dtype=np.float64)[nodes] / self.device.host_bandwidth
        at = paced_waits(self.last_forward_use[nodes], seconds, self.forward_clock)
        k = np.searchsorted(self.forward_nodes, at, side="left")  # the next forward node
        out = np.full(len(at), len(self.forward_clock), dtype=np.int64)
        inside = k < len(self.forward_nodes)
        out[inside] = self.forward_nodes[k[inside]]
        return out


def link(graph: JointGraph, device: Device, node_seconds: np.ndarray, settings) -> Link:
    """The link of ``graph`` on ``device`` (which must have one) under torch's offload
    ``settings`` (``_torch_offload.offload_settings()``); ``node_seconds``: ``RecomputeModel
    .seconds`` of every node."""
    if not device.has_host_link:
        raise ValueError(f"offload_link.link: device {device.name!r} has no host link "
                         "(host_bandwidth = None): nothing can be offloaded")
    role = graph.role
    seconds = np.asarray(node_seconds, dtype=np.float64)
    prefetch = settings.separate_stream and settings.prefetch
    forward = role == Role.FORWARD
    return Link(device=device, overlap=Overlap.of(settings),
                forward_seconds=float(seconds[forward].sum()),
                backward_seconds=float(seconds[role == Role.BACKWARD].sum()),
                node_seconds=seconds,
                hold_forward=bool(settings.separate_stream and settings.sink_wait),
                prefetch_bandwidth=settings.cpu_gpu_bw * 2**30 if prefetch else None,
                forward_clock=np.cumsum(np.where(forward, seconds, 0.0)),
                last_forward_use=_last_forward_use(graph, forward),
                forward_nodes=np.flatnonzero(forward).astype(np.int64))


def _last_forward_use(graph: JointGraph, forward: np.ndarray) -> np.ndarray:
    """int64 (n,): per node, the last forward node reading its storage (a view's readers count,
    as in torch's pass), or the node itself when none does."""
    last = np.arange(graph.num_nodes, dtype=np.int64)
    edge = forward[graph.edge_dst]
    reader = np.full(graph.num_nodes, -1, dtype=np.int64)
    np.maximum.at(reader, graph.base[graph.edge_src[edge]], graph.edge_dst[edge])
    return np.maximum(last, reader[graph.base])


@dataclass(frozen=True)
class OffloadArcs:
    """The values a budget network may send to host memory (one chain node each,
    ``network.add_chains``) and the link they share."""

    nodes: np.ndarray  # int64 joint nodes, ascending
    forced: np.ndarray  # bool per node: MUST_CPU_OFFLOAD, never kept on the device
    nbytes: np.ndarray  # int64 per node: the bytes a transfer moves each way
    link: Link


def offload_arcs(graph: JointGraph, rule: OffloadPolicy, saveable: np.ndarray,
                 in_backward: np.ndarray, link: Link) -> OffloadArcs:
    """The values ``rule`` lets go to host memory among those a cut may save (``saveable``:
    finite saving weight; not computed by the backward), each with a chain;
    ``MUST_CPU_OFFLOAD`` values are never kept on the device."""
    nbytes = graph.nbytes
    nodes = np.flatnonzero(rule.allowed_mask() & saveable & ~in_backward & (nbytes > 0))
    forced = np.fromiter((rule.requested[i] is Request.MUST for i in nodes.tolist()),
                         dtype=bool, count=len(nodes))
    return OffloadArcs(nodes=nodes.astype(np.int64), forced=forced,
                       nbytes=nbytes[nodes].astype(np.int64), link=link)
