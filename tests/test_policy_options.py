"""``fusioncut.Options``: a frozen dataclass whose errors name the field, value and range."""

from __future__ import annotations

import dataclasses
import math

import pytest

import fusioncut
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


def test_options_reduction_ratio_inf_disables_the_ban():
    assert Options(reduction_ratio=math.inf).reduction_ratio == math.inf
