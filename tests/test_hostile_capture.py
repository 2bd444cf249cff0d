"""Hostile input to Dynamo capture (``capture``, ``explain``, ``pareto``) and to the command
line's model targets (``--input``, ``--config``): a user's mistakes and an adversary's models.

- arguments: a non-callable, a module class instead of an instance, a ``via`` or ``dynamic``
  of the wrong kind, bad ``options`` / ``compare`` / ``budgets`` (``budgets=None`` was a bare
  ``TypeError``, ``compare="no"`` was accepted, a 10**400 budget was printed whole): each named;
- models with nothing to partition (no parameter requires grad, outputs that are not tensors or
  need no grad, grad mode off): a ``ValueError`` that says so; a model that raises: its own
  error; a graph break in a loop (Dynamo runs the frame eagerly): named as such, not as "no
  input requires grad";
- Dynamo's graph-break counters outlive ``torch.compiler.reset``: a model without breaks
  reported the breaks of the model captured before it;
- a model already wrapped in ``torch.compile`` (``via="aot"`` failed inside functionalization),
  models that mutate their inputs or buffers, graph breaks everywhere;
- a capture started while another compile runs (inside a Dynamo backend it reset the running
  compile: "Cannot clear callbacks while 1 are pending"): refused by name;
- ``--input``: unknown dtypes (``qint8`` failed after the model was built), dimensions and
  element counts torch cannot index, ranges outside their dtype (``int8[0,1000)`` wrapped
  around silently; ``float64[-1e308,1e308)`` drew infinities), integer bounds read exactly;
  ``--int-high`` beyond an integer dtype;
- ``--config``: JSON nested too deeply and 5,000-digit numbers (exit 1 with Python's error,
  not naming ``--config``), a named pipe, a directory or a device ("no such file" before),
  JSON that is not an object.
"""

from __future__ import annotations

import contextlib
import io
import math
import os
from types import SimpleNamespace

import numpy as np
import pytest
import torch
from functorch.compile import aot_function, min_cut_rematerialization_partition, nop

import fusioncut
from fusioncut.cli import main
from fusioncut.cli_args import CliError
from fusioncut.cli_inputs import load, parse_input
from fusioncut.report import Captured, capture

pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning", "ignore::UserWarning")
gb = torch._dynamo.graph_break


class Lin(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(8, 8)

    def forward(self, x, scale=1.0):
        return (self.lin(x).relu() * scale).sum()


class Raises(Lin):
    def forward(self, x):
        raise RuntimeError("boom in forward")


class NoParams(torch.nn.Module):
    def forward(self, x):
        return x * 2


class Frozen(Lin):
    def __init__(self):
        super().__init__()
        self.requires_grad_(False)


class ReturnsInt(Lin):
    def forward(self, x):
        self.lin(x)
        return 3


class ReturnsBool(Lin):
    def forward(self, x):
        return self.lin(x) > 0


class BreaksInLoop(Lin):
    def forward(self, x):
        for _ in range(2):
            x = self.lin(x).relu()
            gb()
        return x.sum()


class BreaksEverywhere(Lin):
    def forward(self, x):
        x = self.lin(x)
        gb()
        x = x.relu()
        gb()
        x = x.sin()
        gb()
        return (x * x.detach()).sum()


class MutatesInput(Lin):
    def forward(self, x):
        x.add_(1)
        return self.lin(x).tanh().sum()


class MutatesBuffer(Lin):
    def __init__(self):
        super().__init__()
        self.register_buffer("steps", torch.zeros(8))

    def forward(self, x):
        self.steps.add_(1)
        return (self.lin(x).sin() * self.steps).sum()


def x8():
    return torch.randn(4, 8)


# --- arguments ---------------------------------------------------------------------------------


@pytest.mark.parametrize("call, error, needle", [
    (lambda: capture(3, x8()), TypeError, "capture: fn_or_module must be an nn.Module or a "
                                          "callable, got int"),
    (lambda: fusioncut.explain("model", x8()), TypeError, "explain: fn_or_module must be"),
    (lambda: fusioncut.pareto(None), TypeError, "pareto: fn_or_module must be"),
    (lambda: capture(torch.nn.Linear, 8, 8), TypeError, "capture: fn_or_module is the class "
                                                        "Linear, not a model: pass an instance"),
    (lambda: fusioncut.explain(Lin, x8()), TypeError, "is the class Lin"),
    (lambda: capture(Lin(), x8(), via="DYNAMO"), ValueError,
     "capture: via = 'DYNAMO' is invalid; expected one of 'dynamo', 'aot'"),
    (lambda: capture(Lin(), x8(), via=None), ValueError, "via = None is invalid"),
    (lambda: capture(Lin(), x8(), via=["aot"]), ValueError, "via = ['aot'] is invalid"),
    (lambda: fusioncut.explain(Lin(), x8(), via="aot "), ValueError, "explain: via = 'aot ' is"),
    (lambda: capture(Lin(), x8(), dynamic="yes"), ValueError,
     "capture: dynamic = 'yes' is invalid; expected True or False"),
    (lambda: capture(Lin(), x8(), via="aot", scale=2.0), ValueError,
     "capture: keyword inputs need via='dynamo'"),
    (lambda: fusioncut.explain(Lin(), x8(), options={}), TypeError,
     "explain: options must be a fusioncut.Options, got dict"),
    (lambda: fusioncut.explain(Lin(), x8(), compare="no"), TypeError,
     "explain: compare must be True or False, got 'no'"),
    (lambda: fusioncut.pareto(Lin(), x8(), compare="no"), TypeError,
     "pareto: compare must be True or False, got 'no'"),
    (lambda: fusioncut.pareto(Lin(), x8(), options=3), TypeError,
     "pareto: options must be a fusioncut.Options, got int"),
    (lambda: fusioncut.pareto(Lin(), x8(), budgets=None), ValueError,
     "pareto: budgets = None is invalid; expected a sequence of numbers in [0, 1]"),
    (lambda: fusioncut.pareto(Lin(), x8(), budgets="0.5"), ValueError,
     "budgets = '0.5' is invalid"),
    (lambda: fusioncut.pareto(Lin(), x8(), budgets=[]), ValueError,
     "budgets = () is invalid; expected at least one number"),
    (lambda: fusioncut.pareto(Lin(), x8(), budgets=[0.5, 1.5]), ValueError,
     "pareto: budgets[1] = 1.5 is invalid; expected a number in [0, 1]"),
    (lambda: fusioncut.pareto(Lin(), x8(), budgets=[math.nan]), ValueError,
     "budgets[0] = nan is invalid"),
    (lambda: fusioncut.pareto(Lin(), x8(), budgets=[10**400]), ValueError,
     "budgets[0] = an int of 1329 bits is invalid"),
    (lambda: fusioncut.pareto(Lin(), x8(), budgets=[True]), ValueError,
     "budgets[0] = True is invalid"),
    (lambda: fusioncut.explain(Captured([]), x8()), ValueError,
     "explain: a Captured call takes no inputs"),
    (lambda: fusioncut.pareto(Captured([])), ValueError,
     "pareto: the Captured holds no joint graph (its graphs must be a non-empty list of Joint"),
    (lambda: fusioncut.explain(Captured(["graph"])), ValueError,
     "explain: the Captured holds no joint graph"),
])
def test_capture_arguments_are_named(call, error, needle):
    with pytest.raises(error) as info:
        call()
    assert needle in str(info.value), str(info.value)
    assert len(str(info.value)) < 300


@pytest.mark.parametrize("extra, names", [({"budgets": (0.5,)}, "budgets applies"),
                                          ({"compare": False}, "compare applies"),
                                          ({"via": "aot", "budgets": [0.1]}, "budgets, via apply")])
def test_pareto_of_a_joint_graph_refuses_the_arguments_of_a_models_report(extra, names):
    joint = capture(Lin(), x8(), via="aot")
    with pytest.raises(TypeError) as info:
        fusioncut.pareto(joint.joint_module, num_fwd_outputs=joint.num_fwd_outputs, **extra)
    assert f"pareto: {names} to a model, not to a joint graph" in str(info.value)
    front = fusioncut.pareto(joint.joint_module, num_fwd_outputs=joint.num_fwd_outputs)
    assert front.for_budget(0.5) is not None


def test_pareto_takes_numpy_budgets():
    report = fusioncut.pareto(Lin(), x8(), budgets=(np.float32(0.5), np.float64(1.0)),
                              compare=False)
    assert [(type(row.budget), row.budget) for row in report.rows] == [(float, 0.5), (float, 1.0)]


# --- nothing to partition, errors of the model ---------------------------------------------------


@pytest.mark.parametrize("model, via", [
    (NoParams, "dynamo"), (Frozen, "dynamo"), (ReturnsInt, "dynamo"), (ReturnsBool, "dynamo"),
    (NoParams, "aot"), (ReturnsBool, "aot"),
])
def test_a_model_with_nothing_to_partition_says_so(model, via):
    with pytest.raises(ValueError, match="AOTAutograd produced no joint graph: no input or "
                                         "parameter requires grad, or no output that is a "
                                         "tensor depends on one"):
        fusioncut.explain(model(), x8(), via=via)


@pytest.mark.parametrize("mode", [torch.no_grad, torch.inference_mode])
def test_grad_mode_off_is_named(mode):
    with mode(), pytest.raises(ValueError, match="explain: grad mode is off"):
        fusioncut.explain(Lin(), x8())


@pytest.mark.parametrize("via", ["dynamo", "aot"])
def test_the_models_own_error_propagates(via):
    with pytest.raises(RuntimeError, match="^boom in forward$"):
        fusioncut.explain(Raises(), x8(), via=via)
    with pytest.raises(TypeError, match="unexpected keyword argument 'nope'"):
        fusioncut.explain(Lin(), x8(), nope=1)


def test_a_frame_dynamo_skips_is_named_and_breaks_do_not_leak():
    with pytest.raises(ValueError) as info:
        capture(BreaksInLoop(), x8())
    assert "capture: Dynamo compiled no graph of the call and ran it eagerly (graph breaks: " \
           "Call to `torch._dynamo.graph_break()`" in str(info.value)
    assert "via='aot'" in str(info.value)
    assert len(capture(BreaksInLoop(), x8(), via="aot").graphs) == 1
    everywhere = capture(BreaksEverywhere(), x8())
    assert len(everywhere.graphs) >= 3 and everywhere.graph_breaks
    assert capture(Lin(), x8()).graph_breaks == []  # no break of the model before
    report = fusioncut.explain(everywhere, compare=False)
    assert len(report.graphs) == len(everywhere.graphs)


@pytest.mark.parametrize("via", ["dynamo", "aot"])
def test_a_compiled_model_is_traced_as_what_it_wraps(via):
    compiled = torch.compile(Lin(), backend="eager")
    assert len(capture(compiled, x8(), via=via).graphs) == 1


@pytest.mark.parametrize("model", [MutatesInput, MutatesBuffer])
def test_models_that_mutate_are_explained_and_compared(model):
    report = fusioncut.explain(model(), x8())
    assert [m.error for m in report.methods] == [None, None, None]


# --- nested compiles -----------------------------------------------------------------------------


def test_capture_inside_a_running_compile_is_refused():
    caught = []

    def backend(gm, example_inputs):
        try:
            fusioncut.explain(Lin(), x8(), compare=False)
        except ValueError as e:
            caught.append(str(e))
        return gm.forward

    torch.compiler.reset()
    torch.compile(lambda x: (x.sin() * 2).sum(), backend=backend)(x8())
    torch.compiler.reset()

    def partition_fn(gm, joint_inputs, **kwargs):
        try:
            fusioncut.pareto(Lin(), x8(), compare=False)
        except ValueError as e:
            caught.append(str(e))
        return min_cut_rematerialization_partition(gm, joint_inputs, **kwargs)

    x = torch.randn(3, requires_grad=True)
    aot_function(lambda x: x.cos().sum(), nop, nop, partition_fn=partition_fn)(x).backward()
    assert caught[0].startswith("explain: called while torch.compile is compiling (inside a "
                                "compiled function, a Dynamo backend or a partitioner)")
    assert caught[1].startswith("pareto: grad mode is off") and "partitioner" in caught[1]


# --- --input ---------------------------------------------------------------------------------


@pytest.mark.parametrize("spec, needle", [
    ("4x8:qint8", "--input '4x8:qint8': unknown dtype 'qint8'; an input is one of bool, uint8"),
    ("4x8:bits8", "unknown dtype 'bits8'"),
    ("4x8:int4", "unknown dtype 'int4'"),
    ("4x8:float8_e4m3fn", "unknown dtype 'float8_e4m3fn'"),
    ("4x8:uint64", "unknown dtype 'uint64'"),
    ("99999999999999999999x0", "dimension 99999999999999999999 is out of range [0, 2**63 - 1]"),
    ("4x" + "9" * 5000, "dimension of 5000 digits is out of range"),
    ("1099511627776x1099511627776x0", "nonzero sizes multiply to more than 2**63 - 1"),
    ("4x８", "expected a shape like 8x128"),
    ("4x8:int8[0,1000)", "the range [0, 1000) does not fit int8, whose values lie in [-128, "
                         "128)"),
    ("4x8:int8[-129,0)", "does not fit int8"),
    ("4x8:uint8[-5,3)", "does not fit uint8, whose values lie in [0, 256)"),
    ("4x8:uint8[0,256]", "the range [0, 257) does not fit uint8"),
    ("4x8:int16[0,40000)", "does not fit int16"),
    ("4x8:int32[0,3000000000)", "does not fit int32"),
    ("4x8:int[0,1e30)", "does not fit int64"),
    ("4x8:int64[0,9223372036854775807]", "the range [0, 9223372036854775808) does not fit "
                                         "int64"),
    ("4x8:int[0," + "9" * 5000 + ")", "a range bound of 5000 digits is out of range"),
    ("4x8:float16[-70000,70000)", "does not fit float16 (bounds within +-65504"),
    ("4x8:bfloat16[0,1e39)", "does not fit bfloat16"),
    ("4x8:float32[-3e38,3e38)", "does not fit float32"),
    ("4x8:float64[-1e308,1e308)", "does not fit float64"),
    ("4x8:float[0,inf)", "the range is empty or not finite"),
    ("4x8:bool[0,1)", "a bool input takes no range"),
    ("4x8:int[0.5,3)", "an integer range needs integer bounds"),
])
def test_bad_input_specs_are_refused_before_torch(spec, needle):
    with pytest.raises(CliError) as info:
        parse_input(spec)
    assert needle in str(info.value), str(info.value)
    assert len(str(info.value)) < 400


@pytest.mark.parametrize("spec, low, high, dtype", [
    ("4x8:int8[-128,127]", -128, 128, "int8"),
    ("4x8:uint8[0,255]", 0, 256, "uint8"),
    ("4x8:int64[-9223372036854775808,9223372036854775806]", -2**63, 2**63 - 1, "int64"),
    ("4x8:int[1e3,2e3)", 1000, 2000, "int64"),
    ("4x8:float16[-65504,65504)", -65504.0, 65504.0, "float16"),
    ("4x8[0,5)", 0, 5, "int64"),
    ("4x8[0.5,1)", 0.5, 1.0, "float32"),
])
def test_edge_ranges_are_drawn_within_their_dtype(spec, low, high, dtype, tmp_path,
                                                  monkeypatch):
    parsed = parse_input(spec)
    assert (parsed.low, parsed.high, parsed.dtype) == (low, high, dtype)
    assert type(parsed.low) is type(low)  # integer bounds exactly, never through a float
    _, (t,), _ = load(_args(tmp_path, monkeypatch, spec))
    assert t.dtype == getattr(torch, dtype) and torch.isfinite(t.double()).all()
    assert low <= t.double().min().item() and t.double().max().item() <= high


def _args(tmp_path, monkeypatch, *inputs, config=None, int_high=None, target="m:make"):
    (tmp_path / "m.py").write_text(
        "import torch\n"
        "def make(n=8):\n    return torch.nn.Embedding(1000, n)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    return SimpleNamespace(target=target, config=config, input=list(inputs),
                           int_high=int_high, seed=0, svg=None, png=None, json=None)


@pytest.mark.parametrize("int_high, needle", [
    (None, "integers are drawn from [0, 1000) (the model's input embedding size), which int8 "
           "cannot hold"),
    (300, "integers are drawn from [0, 300) (--int-high), which int8 cannot hold"),
])
def test_default_integer_range_beyond_the_dtype_is_refused(tmp_path, monkeypatch, int_high,
                                                           needle):
    with pytest.raises(CliError) as info:
        load(_args(tmp_path, monkeypatch, "4x8:int8", int_high=int_high))
    assert needle in str(info.value) and "int8[0,128)" in str(info.value)


# --- --config ------------------------------------------------------------------------------------


def _config_files(tmp_path):
    (tmp_path / "deep.json").write_text('{"n": ' + "[" * 100_000 + "]" * 100_000 + "}")
    (tmp_path / "binary.json").write_bytes(b"\xff\xfe\x00{")
    (tmp_path / "list.json").write_text("[1, 2]")
    (tmp_path / "digits.json").write_text('{"n": ' + "9" * 5000 + "}")
    (tmp_path / "adir").mkdir()
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "fifo.json")


@pytest.mark.parametrize("config, needle", [
    ("deep.json", "--config deep.json: JSON nested too deeply to be a configuration"),
    ("binary.json", "--config binary.json: the file is not UTF-8 text (byte 0xff at offset 0)"),
    ("list.json", "--config list.json: expected a JSON object of keyword arguments, got list"),
    ("digits.json", "--config digits.json: not valid JSON (Exceeds the limit (4300 digits)"),
    ("adir", "--config adir: the file is a directory, not a regular file"),
    pytest.param("fifo.json", "--config fifo.json: the file is a named pipe", marks=
                 pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")),
    pytest.param("/dev/zero", "--config /dev/zero: the file is a character device", marks=
                 pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")),
    ("missing.json", "--config missing.json: no such file, nor a JSON object"),
    ("[]", "--config: expected a JSON object of keyword arguments, got list"),
    ("null", "--config: expected a JSON object of keyword arguments, got NoneType"),
    ("{n: 1}", "--config: not valid JSON"),
])
def test_bad_configs_name_config(tmp_path, monkeypatch, config, needle):
    _config_files(tmp_path)
    with pytest.raises(CliError) as info:
        load(_args(tmp_path, monkeypatch, "4x8:int[0,8)", config=config))
    assert needle in str(info.value), str(info.value)
    assert len(str(info.value)) < 400


def test_command_line_refusals_are_one_line_with_status_2(tmp_path, monkeypatch):
    args = _args(tmp_path, monkeypatch)
    _config_files(tmp_path)
    for argv, needle in (
            (["explain", args.target, "--input", "4x8:int8[0,1000)"], "does not fit int8"),
            (["pareto", args.target, "--input", "4x8:qint8"], "unknown dtype 'qint8'"),
            (["explain", args.target, "--config", "deep.json", "--input", "4x8:int[0,8)"],
             "--config deep.json: JSON nested too deeply"),
            (["explain", "m:make", "--input", "4x8:int8"], "which int8 cannot hold"),
            (["explain", "m:make", "--via", "aot", "--input", "ids=4x8:int[0,8)"],
             "--input ids=...: --via aot takes positional inputs only")):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            assert main(argv) == 2, err.getvalue()
        lines = err.getvalue().strip().splitlines()
        assert len(lines) == 1 and needle in lines[0] and "Traceback" not in lines[0]


# --- what a report writes --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def report():
    return fusioncut.explain(Lin(), x8(), compare=False)


def test_cut_svg_with_huge_hops_ends(report, tmp_path):
    """``hops`` walked every hop even after the drawing held the whole graph: 10**400 (or
    ``--hops 99999999999999999999``) never ended."""
    from fusioncut.report.plot import write_cut_svg

    path = write_cut_svg(report, tmp_path / "cut.svg", hops=10**400)
    assert path.read_text().startswith("<svg")
    with pytest.raises(ValueError, match=r"^cut_svg: hops = an int of 1329 bits is invalid"):
        write_cut_svg(report, tmp_path / "cut.svg", hops=-10**400)


@pytest.mark.parametrize("kwargs, needle", [
    ({"max_rows": -1}, "Report.format: max_rows = -1 is invalid; expected None or an integer "
                       ">= 0"),
    ({"max_rows": "3"}, "max_rows = '3' is invalid"),
    ({"max_rows": 2.5}, "max_rows = 2.5 is invalid"),
    ({"max_rows": True}, "max_rows = True is invalid"),
    ({"clip": 0}, "Report.format: clip = 0 is invalid; expected None or an integer >= 2"),
    ({"clip": "3"}, "clip = '3' is invalid"),
])
def test_report_format_names_bad_arguments(report, kwargs, needle):
    with pytest.raises(ValueError, match=needle.replace("(", r"\(").replace(")", r"\)")):
        report.format(**kwargs)
    assert report.format(max_rows=0, clip=None)


@pytest.mark.parametrize("name, needle", [
    ("chart", "name a .png, .svg or .pdf file"),  # matplotlib would write chart.png
    ("chart.txt", "name a .png, .svg or .pdf file"),
    (".", "is a directory; name a file"),  # matplotlib would write ..png beside it
    ("no/such/dir/chart.png", "directory 'no/such/dir' does not exist"),
])
def test_charts_refuse_a_path_before_drawing(report, tmp_path, monkeypatch, name, needle):
    pytest.importorskip("matplotlib")
    from fusioncut.report.charts import bytes_chart

    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match=f"^bytes_chart: path '{name}': {needle}"):
        bytes_chart(report, name)
    assert sorted(p.name for p in tmp_path.iterdir()) == []
