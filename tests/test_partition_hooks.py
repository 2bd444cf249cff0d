"""``fusioncut.partition``'s keyword hooks: ``report=``, ``sizes=`` and ``range_report=``."""

from __future__ import annotations

import functools

import pytest
import torch
from functorch.compile import aot_function, make_boxed_func

import fusioncut


def _compiler(gm, _inputs):
    return make_boxed_func(gm)


def _saved_names(fw, num_fwd_outputs=1):
    outs = list(fw.graph.find_nodes(op="output")[0].args[0])[num_fwd_outputs:]
    return sorted(o.name for o in outs if isinstance(o, torch.fx.Node))


def _run(fn, partition_fn, *args, dynamic=False):
    box = {}

    def record(joint, inputs, **kwargs):
        fw, bw = partition_fn(joint, inputs, **kwargs)
        box["fw"] = fw
        return fw, bw

    compiled = aot_function(fn, fw_compiler=_compiler, bw_compiler=_compiler,
                            partition_fn=record, dynamic=dynamic)
    out = compiled(*args)
    out.sum().backward()
    return box["fw"]


def test_partition_report_matches_the_emitted_forward():
    reports = []
    x = torch.randn(64, 32, requires_grad=True)
    fw = _run(lambda x: x.tanh().tanh(), functools.partial(fusioncut.partition,
                                                           report=reports.append), x)
    assert len(reports) == 1
    report = reports[0]
    assert sorted(s.name for s in report.saved) == _saved_names(fw)
    assert "tanh" in str(report)


def test_partition_sizes_without_symbols_is_an_error():
    x = torch.randn(8, 4, requires_grad=True)
    part = functools.partial(fusioncut.partition, sizes={"s0": 3})
    with pytest.raises(fusioncut.SizeError, match="no size symbols"):
        _run(lambda x: x.cos().cos(), part, x)


def test_partition_range_report_under_dynamic_shapes():
    reports = []
    part = functools.partial(fusioncut.partition, range_report=reports.append)
    x = torch.randn(8, 16, requires_grad=True)
    w = torch.randn(16, 16, requires_grad=True)
    fw = _run(lambda x, w: (x @ w).relu().cos(), part, x, w, dynamic=True)
    assert len(reports) == 1
    assert reports[0].optimal in (True, False, None)
    assert _saved_names(fw)  # the matmul output (or what it feeds) is saved
