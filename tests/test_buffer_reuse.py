"""A phase's peak under Inductor's buffer reuse (``peak.reuse_peak``, ``_core.reuse_peak``):
in-place hand-over one input at a time, a freed buffer reused only where Inductor's own estimate
of the peak allows it, phantoms counted in that estimate alone, workspaces on top; checked
against an event-by-event simulation, and malformed events refused by name."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fusioncut
from fusioncut.peak import reuse_peak


def _I64(*values):
    return np.array(values, dtype=np.int64)


def _B(*values):
    return np.array(values, dtype=bool)


def test_a_dying_input_passes_its_storage_to_an_in_place_output():
    # One storage of 16 bytes dies at time 1 where a fused kernel writes 16 bytes: with the
    # hand-over the two never coexist; without it (an extern kernel) they do.
    alloc_t, alloc_s = _I64(0, 1), _I64(16, 16)
    free_t, free_s = _I64(1, 2), _I64(16, 16)
    assert reuse_peak(alloc_t, alloc_s, free_t, free_s, _B(False, True)) == 16
    assert reuse_peak(alloc_t, alloc_s, free_t, free_s, _B(False, False)) == 32


def test_an_in_place_output_takes_one_dying_input_not_every_one():
    # Two 16-byte inputs die at time 1, where a 100-byte buffer and a 16-byte in-place output
    # are allocated: the output takes one input's storage; the other lives through the kernel.
    alloc_t, alloc_s = _I64(0, 0, 1, 1), _I64(16, 16, 100, 16)
    free_t, free_s = _I64(1, 1, 2, 2), _I64(16, 16, 100, 16)
    assert reuse_peak(alloc_t, alloc_s, free_t, free_s, _B(False, False, False, True)) == 132


def test_a_freed_buffer_is_reused_only_under_inductors_peak():
    # A (10 bytes) is freed at time 0, B (100) lives through time 1, C (10) comes at time 2.
    # Holding A for C would make 110 bytes at time 1, above the 100 Inductor's estimate peaks
    # at: A is freed, and the peak is B's. A phantom of 20 bytes at time 1 (a buffer Inductor
    # realizes and fuses away) raises its estimate to 120: then A is held, 110.
    alloc_t, alloc_s = _I64(0, 1, 2), _I64(10, 100, 10)
    free_t, free_s = _I64(0, 1, 2), _I64(10, 100, 10)
    assert reuse_peak(alloc_t, alloc_s, free_t, free_s) == 100
    assert reuse_peak(alloc_t, alloc_s, free_t, free_s, phantoms=(_I64(1), _I64(20))) == 110
    # Adjacent kernels always reuse: nothing lies between the free and the allocation.
    assert reuse_peak(_I64(0, 1), _I64(10, 10), _I64(0, 1), _I64(10, 10)) == 10


def test_nothing_is_zero_and_a_lone_workspace_counts():
    assert reuse_peak(_I64(), _I64(), _I64(), _I64()) == 0
    assert reuse_peak(_I64(), _I64(), _I64(), _I64(), None, (_I64(3), _I64(40))) == 40


def _simulated(allocs, frees, in_place, work, phantoms) -> int:
    """Inductor's memory planning, one event at a time, the live bytes of every step summed
    anew from the decisions so far. Keys: allocations of time t at 2t, frees at 2t + 1, one
    free per in-place allocation of its time and size at 2t - 1 (in the order given)."""
    handed = {}
    for (t, s), inplace in zip(allocs, in_place):
        if inplace:
            handed[(t, s)] = handed.get((t, s), 0) + 1
    events = [(2 * t, 0, k, s) for k, (t, s) in enumerate(allocs)]
    for k, (t, s) in enumerate(frees):
        first = handed.get((t, s), 0) > 0
        if first:
            handed[(t, s)] -= 1
        events.append((2 * t - 1 if first else 2 * t + 1, 1, k, s))
    events.sort()
    keys = sorted({e[0] for e in events})
    # A storage lives from its allocation's key, through every key before its free's; while a
    # kernel runs its allocations are made and its frees not yet.
    spans = [(e[0], None, e[3]) for e in events if e[1] == 0]
    frees_at = [e for e in events if e[1] == 1]
    live = [sum(s for k0, _, s in spans if k0 <= key) for key in keys]
    for f, _, _, s in frees_at:
        for i, key in enumerate(keys):
            if key > f:
                live[i] -= s
    inductor = []
    for key in keys:
        total = sum(s for t, s in allocs if 2 * t <= key) - sum(s for t, s in frees
                                                                 if 2 * t + 1 < key)
        inductor.append(total)
    for t, s in phantoms:
        at = [i for i, key in enumerate(keys) if key <= 2 * t]
        if at:
            inductor[at[-1]] += s
    limit = max(inductor, default=0)
    pool: dict[int, list[int]] = {}
    for key, kind, _, s in events:
        i = keys.index(key)
        if kind == 1:
            pool.setdefault(s, []).append(i)
            continue
        if not pool.get(s):
            continue
        lo = pool[s][-1] + 1
        if s + max(live[lo:i], default=0) <= limit:
            pool[s].pop()
            for j in range(lo, i):
                live[j] += s
    peak = max(live, default=0)
    for t, s in work:
        at = [i for i, key in enumerate(keys) if key <= 2 * t]
        peak = max(peak, (live[at[-1]] if at else 0) + s)
    return max(peak, 0)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(-1, 20), st.integers(0, 10), st.sampled_from([16, 32, 48]),
                          st.booleans(), st.booleans()), min_size=1, max_size=30),
       st.lists(st.tuples(st.integers(-1, 25), st.integers(1, 64)), max_size=4),
       st.lists(st.tuples(st.integers(-1, 25), st.integers(1, 64)), max_size=4))
def test_reuse_peak_equals_a_simulation_of_inductors_planning(items, work, phantoms):
    allocs = [(t, s) for t, _, s, _, _ in items]
    in_place = [inplace for *_, inplace in items]
    # A storage dies no earlier than it is made; an in-place allocation of time t takes a
    # storage made before t, whose free of time t goes first.
    frees = [(t + life, s) for t, life, s, kept, _ in items if not kept]
    got = reuse_peak(_I64(*[t for t, _ in allocs]), _I64(*[s for _, s in allocs]),
                     _I64(*[t for t, _ in frees]), _I64(*[s for _, s in frees]), _B(*in_place),
                     (_I64(*[t for t, _ in work]), _I64(*[b for _, b in work])),
                     (_I64(*[t for t, _ in phantoms]), _I64(*[b for _, b in phantoms])))
    assert got == _simulated(allocs, frees, in_place, work, phantoms)


_NONE = (_I64(), _I64())


@pytest.mark.parametrize("args, error, match", [
    ((_I64(0), _I64(), _B(False), *_NONE, *_NONE, *_NONE), ValueError, "equal lengths"),
    ((_I64(0), _I64(8), _B(), *_NONE, *_NONE, *_NONE), ValueError, "equal lengths"),
    ((_I64(), _I64(), _B(), _I64(1), _I64(), *_NONE, *_NONE), ValueError, "equal lengths"),
    ((_I64(), _I64(), _B(), *_NONE, _I64(), _I64(3), *_NONE), ValueError, "equal lengths"),
    ((_I64(), _I64(), _B(), *_NONE, *_NONE, _I64(1), _I64()), ValueError, "phantoms"),
    ((_I64(0), _I64(-8), _B(False), *_NONE, *_NONE, *_NONE), ValueError,
     "alloc event 0 .*bytes in \\[0, 2\\*\\*60\\)"),
    ((_I64(), _I64(), _B(), _I64(2 ** 60), _I64(8), *_NONE, *_NONE), ValueError,
     "free event 0 .*time in \\(-2\\*\\*60, 2\\*\\*60\\)"),
    ((_I64(), _I64(), _B(), *_NONE, *_NONE, _I64(0), _I64(2 ** 62)), ValueError,
     "phantom event 0"),
    ((np.zeros(1, dtype=np.int32), _I64(8), _B(False), *_NONE, *_NONE, *_NONE),
     TypeError, "incompatible"),
    ((_I64(0), _I64(8), np.zeros(1, dtype=np.int64), *_NONE, *_NONE, *_NONE),
     TypeError, "incompatible"),
    ((np.zeros((1, 1), dtype=np.int64), _I64(8), _B(False), *_NONE, *_NONE, *_NONE),
     TypeError, "one-dimensional"),
])
def test_reuse_peak_refuses_malformed_events(args, error, match):
    with pytest.raises(error, match=match):
        fusioncut._core.reuse_peak(*args)
