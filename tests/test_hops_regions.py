"""One decision per invoke_subgraph region: identical regions reuse it (``fusioncut.regions``).

The model is bench/bench_regions.py's: 12 transformer layers, each a
``nested_compile_region``, compiled once as 12 calls of one region function (``shared``) and
once as 12 distinct functions with one body (``distinct``: AOTAutograd calls the
partitioner for each of the 12 regions).
"""

from __future__ import annotations

import copy

import pytest
import torch

import bench_regions
import fusioncut
from fusioncut import regions

LAYERS = 12


@pytest.fixture(scope="module")
def compiled():
    out = {}
    for name, distinct in (("shared", False), ("distinct", True)):
        calls, err = bench_regions.capture(LAYERS, distinct)
        assert err < 1e-4, f"{name}: gradients differ from eager by {err}"
        out[name] = (calls, regions.cache_info())
    return out


def test_distinct_identical_regions_are_decided_once_and_share_a_saved_set(compiled):
    calls, info = compiled["distinct"]
    region_calls = [c for c in calls if regions.is_region_call(c[0], c[1])]
    assert len(region_calls) >= LAYERS
    # One analysis, every other region a cache hit...
    assert info.misses == 1 and info.hits == len(region_calls) - 1
    # ...with the saved set a fresh decision makes for each region.
    saved = bench_regions.check_regions(calls)
    assert "mm" in saved and all(not s.startswith("tangents") for s in saved)


def test_backward_variant_of_one_region_reuses_its_decision(compiled):
    # The last layer's tangent comes from sum()'s expand (other strides): AOTAutograd traces
    # a second backward variant of the shared region and partitions it again.
    calls, info = compiled["shared"]
    region_calls = [c for c in calls if regions.is_region_call(c[0], c[1])]
    assert len(region_calls) == 2 and info.hits == 1
    fw_outputs = [bench_regions.saved_names(fw, kw["num_fwd_outputs"])
                  for _, _, kw, fw in region_calls]
    assert fw_outputs[0] == fw_outputs[1]


def test_twelve_regions_replayed_from_a_cold_cache_are_analysed_once(compiled):
    """All partitioner calls of the 12-region build, replayed from a cold cache: one
    analysis, eleven reuses, and every region's forward saves the same values. (How fast
    that is belongs to bench/bench_regions.py, not to a test.)"""
    regions.clear_cache()
    saved = []
    for gm, joint_inputs, kwargs, _ in compiled["distinct"][0]:
        fw, _ = fusioncut.partition(gm, joint_inputs, **kwargs)
        if regions.is_region_call(gm, joint_inputs):
            saved.append(bench_regions.saved_names(fw, kwargs["num_fwd_outputs"]))
    info = regions.cache_info()
    assert len(saved) >= LAYERS
    assert info.misses == 1 and info.hits == len(saved) - 1
    assert all(s == saved[0] for s in saved)


def _region_call(compiled):
    return next(c for c in compiled["distinct"][0] if regions.is_region_call(c[0], c[1]))


def test_region_key_tells_apart_what_changes_the_decision(compiled):
    gm, _, kwargs, _ = _region_call(compiled)
    n = kwargs["num_fwd_outputs"]

    def key(g, options=fusioncut.Options(), static=()):
        return regions.Region(g, n, static, options).key

    base = key(gm)
    assert base is not None and base == key(copy.deepcopy(gm))
    assert key(gm, options=fusioncut.Options(mode="memory")) != base
    assert key(gm, static=(0,)) != base
    tagged = copy.deepcopy(gm)
    node = next(nd for nd in tagged.graph.nodes if nd.op == "call_function")
    node.meta["recompute"] = torch.utils.checkpoint.CheckpointPolicy.MUST_SAVE
    assert key(tagged) != base
    reshaped = copy.deepcopy(gm)
    primal = next(iter(reshaped.graph.find_nodes(op="placeholder")))
    primal.meta["val"] = torch.empty(3, *primal.meta["val"].shape[1:])
    assert key(reshaped) != base
    # Strides are not in the key (no rule reads them): a transposed tangent hits.
    strided = copy.deepcopy(gm)
    tangent = next(nd for nd in strided.graph.find_nodes(op="placeholder")
                   if nd.name.startswith("tangents"))
    v = tangent.meta["val"]
    tangent.meta["val"] = torch.empty_strided(v.shape, tuple(reversed(v.stride())))
    assert key(strided) == base


def test_region_cache_hit_emits_the_same_modules_as_a_fresh_partition(compiled):
    gm, joint_inputs, kwargs, _ = _region_call(compiled)
    regions.clear_cache()
    fresh_fw, fresh_bw = fusioncut.partition(gm, joint_inputs, **kwargs)
    hit_fw, hit_bw = fusioncut.partition(gm, joint_inputs, **kwargs)
    assert regions.cache_info().hits == 1
    assert hit_fw.code == fresh_fw.code and hit_bw.code == fresh_bw.code
    assert hit_fw.graph is not fresh_fw.graph


def test_region_cache_is_bounded_and_skips_other_calls(compiled, monkeypatch):
    gm, joint_inputs, kwargs, _ = _region_call(compiled)
    monkeypatch.setattr(regions, "MAX_ENTRIES", 2)
    regions.clear_cache()
    for cap in (4, 5, 6):
        fusioncut.partition(gm, joint_inputs, options=fusioncut.Options(distance_cap=cap),
                            **kwargs)
    assert regions.cache_info().entries == 2
    outer, outer_inputs, outer_kwargs, _ = compiled["distinct"][0][-1]
    assert not regions.is_region_call(outer, outer_inputs)
    before = regions.cache_info()
    fusioncut.partition(outer, outer_inputs, **outer_kwargs)
    assert regions.cache_info() == before
