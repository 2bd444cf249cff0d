"""When offloaded values leave and re-enter device memory, for the peak estimate (``peak.py``).

PyTorch's activation-offloading pass (``torch/_functorch/_activation_offloading``) copies a
saved value to the host right after its last forward use (a view's uses count) and back right
before its first backward use::

    forward    synchronous device_put: the device copy is freed after the last forward use, as
               an unsaved value would be; on a side stream the wait (which holds the device
               copy) moves to the forward's end under activation_offload_sink_wait, and
               otherwise fusioncut paces it (``paced_waits``): the copy is held until the link,
               moving the copies one after another from their last forward use, has finished
               it
    backward   the reload allocates the value before its first backward use; with
               activation_reload_prefetch (side stream only) torch moves each reload earlier,
               walking the backward in reverse with a first-in first-out queue: the reload at
               the queue's head takes each compute node's run time off its transfer time and is
               placed before the node that covers it; a reload still queued at the backward's
               start is placed there

``paced_waits`` is the forward's walk: the compute seconds of the nodes after a copy is issued
are the clock its transfer runs against. ``reload_times`` replays the backward's walk on the
peak estimate's backward order with the device model's compute seconds per node (torch times
the nodes by benchmarking them) and torch's own transfer figure
(``activation_offload_cpu_gpu_bw``), so the estimate allocates each reload where torch's pass
would put it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fusioncut import _core

__all__ = ["OffloadedValues", "paced_waits", "reload_times"]


@dataclass(frozen=True)
class OffloadedValues:
    """The saved values a plan sends to host memory, and how torch's pass moves them."""

    nodes: np.ndarray
    """int64 joint nodes whose values go to the host (a subset of the saved set)."""
    hold_forward: bool = False
    """The device copy stays allocated until the forward's end (torch's ``sink_wait``)."""
    lead_seconds: np.ndarray | None = None
    """float64 per entry of ``nodes``: the transfer time torch's prefetch covers with compute
    before the first use; None: each reload runs right before its first use."""
    node_seconds: np.ndarray | None = None
    """float64 (n,): compute seconds of each joint node (the prefetch walk's clock)."""
    wait_before: np.ndarray | None = None
    """int64 per entry of ``nodes``: the joint node before which the forward waits for the copy
    and frees the device copy (``paced_waits``; the node count: the forward's end); None: the
    wait follows the copy, or torch sinks it (``hold_forward``)."""


def paced_waits(issue: np.ndarray, copy_seconds: np.ndarray, clock: np.ndarray) -> np.ndarray:
    """Where the forward waits for each of a side stream's copies to the host, so that it waits
    for none that is still moving. ``issue[k]``: the joint node after which copy ``k`` starts
    (its value's last forward use); ``copy_seconds[k]``: its transfer time; ``clock[i]``: the
    forward's compute seconds up to the end of joint node ``i`` (non-decreasing). The link moves
    one copy at a time, in the order they are issued (ties: as given). Returns int64 per copy:
    the joint node before which to wait (``len(clock)``: the forward's end)."""
    issue = np.asarray(issue, dtype=np.int64)
    copy_seconds = np.asarray(copy_seconds, dtype=np.float64)
    clock = np.asarray(clock, dtype=np.float64)
    k = np.argsort(issue, kind="stable")
    p = issue[k]
    # The link finishes copy j at done_j = max(clock[p_j], done_{j-1}) + c_j (``_core``: the
    # recurrence in order, so the times round as a copy-by-copy walk's do).
    done = _core.link_done(np.ascontiguousarray(clock[p]), np.ascontiguousarray(copy_seconds[k]))
    at = np.searchsorted(clock, done, side="left") + 1  # after the first node ending past it
    out = np.empty(len(issue), dtype=np.int64)
    out[k] = np.minimum(np.maximum(at, p + 1), len(clock))
    return out


def reload_times(first_use: np.ndarray, order: np.ndarray, offloaded: OffloadedValues
                 ) -> np.ndarray:
    """Backward time (a position in ``order``, -1: before the first node) at which each value
    of ``offloaded.nodes`` is reloaded. ``first_use[k]``: the time of the first backward node
    reading ``offloaded.nodes[k]``; ``order``: the joint nodes in backward order."""
    first_use = np.asarray(first_use, dtype=np.int64)
    if offloaded.lead_seconds is None or offloaded.node_seconds is None or not len(first_use):
        return first_use
    # Reloads sitting before the same node: torch meets them last-inserted first, in reverse.
    pending = np.lexsort((-np.arange(len(first_use)), -first_use))
    seconds = np.asarray(offloaded.node_seconds, dtype=np.float64)[order]
    times = _core.prefetch_times(
        np.ascontiguousarray(first_use[pending]),
        np.ascontiguousarray(np.asarray(offloaded.lead_seconds, dtype=np.float64)[pending]),
        np.ascontiguousarray(seconds))
    out = np.empty(len(first_use), dtype=np.int64)
    out[pending] = times
    return out
