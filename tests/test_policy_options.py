"""``fusioncut.Options``: a frozen dataclass whose errors name the field, value and range."""

from __future__ import annotations

import dataclasses
import fractions
import math

import numpy as np
import pytest

import fusioncut
from fusioncut.device import PRESETS
from fusioncut.options import Options


def test_options_defaults_and_mode_dependent_ban():
    o = fusioncut.Options()
    assert o.mode == "runtime" and o.bans_materialized_in_backward
    assert not Options(mode="memory").bans_materialized_in_backward
    assert Options(mode="memory", ban_materialized_in_backward=True).bans_materialized_in_backward


def test_options_are_frozen_and_hashable():
    o = Options()
    with pytest.raises(dataclasses.FrozenInstanceError):
        o.mode = "memory"
    assert hash(o) == hash(Options())


@pytest.mark.parametrize("field,value,expected", [
    ("mode", "fast", "Options: mode = 'fast' is invalid; expected one of 'runtime', 'memory'"),
    ("reduction_ratio", 1, "Options: reduction_ratio = 1 is invalid; expected a number > 1"),
    ("reduction_ratio", math.nan, "reduction_ratio = nan"),
    ("unmaterialized_factor", 0, "unmaterialized_factor = 0 is invalid; expected an integer in [1, 1024]"),
    ("symint_bytes", -1, "symint_bytes = -1"),
    ("distance_cap", 5000, "distance_cap = 5000 is invalid; expected an integer in [0, 1024]"),
    ("unbacked_size_hint", 0, "unbacked_size_hint = 0"),
    ("algorithm", "dinic", "algorithm = 'dinic'"),
    ("static_inputs_free_to_save", 1, "static_inputs_free_to_save = 1"),
])
def test_options_invalid_values_raise_with_name_value_and_range(field, value, expected):
    with pytest.raises(ValueError) as info:
        Options(**{field: value})
    assert expected in str(info.value)


def test_numpy_numbers_are_taken_as_the_builtins_they_stand_for():
    # A budget computed with numpy: np.int64 bytes, np.float32 fractions.
    o = Options(memory_budget=np.float32(0.5), distance_cap=np.int32(8))
    assert type(o.memory_budget) is float and type(o.distance_cap) is int
    assert o == Options(memory_budget=0.5, distance_cap=8)
    assert hash(o) == hash(Options(memory_budget=0.5, distance_cap=8))
    b = Options(memory_budget_bytes=np.int64(1 << 20), peak_margin=np.float64(0.1))
    assert type(b.memory_budget_bytes) is int and type(b.peak_margin) is float
    assert repr(Options(peak_memory_bytes=np.uint32(7))) == repr(Options(peak_memory_bytes=7))
    assert type(Options(reduction_ratio=fractions.Fraction(9, 2)).reduction_ratio) is float
    d = dataclasses.replace(PRESETS["h100"], bandwidth=np.float32(2e12),
                            offload_hidden=np.float64(0.5))
    assert type(d.bandwidth) is float and type(d.offload_hidden) is float


@pytest.mark.parametrize("field,value,expected", [
    ("memory_budget_bytes", np.float64(3.0), "memory_budget_bytes = 3.0 is invalid; expected an "
                                             "integer"),
    ("memory_budget", np.bool_(True), "memory_budget = np.True_ is invalid"),
    ("memory_budget", np.float32("nan"), "memory_budget = nan is invalid"),
    ("peak_memory_bytes", np.uint64(2**63), "peak_memory_bytes = 9223372036854775808 is invalid"),
    ("memory_budget", fractions.Fraction(10**400, 3), "memory_budget = Fraction("),
])
def test_numpy_numbers_out_of_range_are_refused_like_builtins(field, value, expected):
    with pytest.raises(ValueError) as info:
        Options(**{field: value})
    assert expected in str(info.value)


def test_options_reduction_ratio_inf_disables_the_ban():
    assert Options(reduction_ratio=math.inf).reduction_ratio == math.inf
