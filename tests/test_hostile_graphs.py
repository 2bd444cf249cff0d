"""Hostile joint graphs, second round: every public entry point checks a graph as ``partition``
does, and no graph reaches PyTorch's partitioner on the way to a known-wrong answer.

- a node without ``meta["val"]``: one ``ValueError`` naming it and how to trace a graph that
  has it, from ``partition``, ``decide``, ``pareto``, ``plan``, ``explain_joint``,
  ``pareto_report``, ``InductorPartitioner``, ``annotate`` and ``AnnotatingPartitioner`` alike
  (operators that return nothing need none);
- a graph without a backward (``num_fwd_outputs`` = every output): refused by every entry point;
- an ``invoke_subgraph`` call whose subgraph or operands are of the wrong kind;
- activation-memory-budget annotations and torch's setting outside ``[0, 1]`` (10**400, NaN,
  True, ...): named; annotations that disagree: decided natively at the strictest budget with a
  ``BudgetWarning`` (PyTorch's partitioner, on torch 2.13, re-draws ``native_dropout`` in the
  backward under any budget below 1), and ``pareto``'s comparison says when PyTorch's plan
  re-draws random values.
"""

from __future__ import annotations

import copy
import threading
import warnings

import numpy as np
import pytest
import torch
import torch.fx as fx
from functorch.compile import aot_function, nop

import fusioncut
from fusioncut import Options
from fusioncut.graph import JointGraph
from fusioncut.budget_annotation import REGION_KEY
from fusioncut.report import explain_joint
from fusioncut.report.pareto import format_pareto, pareto_report

from models import capture_joint
from test_hops_errors import region_joint

pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning")
aten = torch.ops.aten


@pytest.fixture(scope="module")
def joint():
    """``(relu(x @ w) * 2).sum()``: nodes mm, relu, mul, sum_1, ..., threshold_backward."""
    x, w = torch.randn(4, 8, requires_grad=True), torch.randn(8, 8, requires_grad=True)
    return capture_joint(lambda x, w: (torch.relu(x @ w) * 2).sum(), x, w)


def entry_points(n: int) -> dict:
    return {
        "partition": lambda gm: fusioncut.partition(gm, None, num_fwd_outputs=n),
        "decide": lambda gm: fusioncut.decide(gm, num_fwd_outputs=n),
        "pareto": lambda gm: fusioncut.pareto(gm, num_fwd_outputs=n).points,
        "plan": lambda gm: fusioncut.plan(gm, num_fwd_outputs=n),
        "explain_joint": lambda gm: explain_joint(gm, num_fwd_outputs=n, compare=False),
        "pareto_report": lambda gm: pareto_report(gm, num_fwd_outputs=n, compare=False,
                                                  budgets=(0.5,)),
        "InductorPartitioner": lambda gm: fusioncut.InductorPartitioner()(
            gm, None, num_fwd_outputs=n),
        "partition_for_sizes": lambda gm: fusioncut.partition_for_sizes(
            gm, None, num_fwd_outputs=n),
        "annotate": lambda gm: fusioncut.annotate(gm, num_fwd_outputs=n),
        "AnnotatingPartitioner": lambda gm: fusioncut.AnnotatingPartitioner()(
            gm, None, num_fwd_outputs=n),
    }


NAMED = {"InductorPartitioner": "partition", "partition_for_sizes": "partition",
         "AnnotatingPartitioner": "annotate",
         "pareto_report": "pareto"}


def refused(fn, *needles):
    """``fn()`` raises ValueError holding every needle, with no fallback on the way."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", fusioncut.FallbackWarning)
        with pytest.raises(ValueError) as info:
            fn()
    for needle in needles:
        assert needle in str(info.value), str(info.value)
    return str(info.value)


# --- meta["val"] ------------------------------------------------------------------------------


@pytest.mark.parametrize("entry", sorted(entry_points(1)))
@pytest.mark.parametrize("name,what", [("mm", "calls aten.mm.default"),
                                       ("tangents_1", "is a placeholder"),
                                       ("threshold_backward",
                                        "calls aten.threshold_backward.default")])
def test_a_node_without_val_is_named_alike_by_every_entry_point(joint, entry, name, what):
    gm = copy.deepcopy(joint.joint_module)
    del next(n for n in gm.graph.nodes if n.name == name).meta["val"]
    refused(lambda: entry_points(joint.num_fwd_outputs)[entry](gm),
            f"{NAMED.get(entry, entry)}: node {name!r} ({what}) has no meta['val']",
            "aot_function", "make_fx(fn, tracing_mode='fake')")


def test_operators_that_return_nothing_need_no_val_and_are_partitioned_natively(joint):
    """torch._check in a compiled model leaves ``aten._assert_scalar`` nodes without
    ``meta["val"]``; they were a fallback to PyTorch, they are fusioncut's now."""
    gm = copy.deepcopy(joint.joint_module)
    mm = next(n for n in gm.graph.nodes if n.name == "mm")
    with gm.graph.inserting_after(mm):
        gm.graph.call_function(aten._assert_scalar.default, (True, "mm is finite"))
    gm.recompile()
    with warnings.catch_warnings():
        warnings.simplefilter("error", fusioncut.FallbackWarning)
        fw, bw = fusioncut.partition(gm, None, num_fwd_outputs=joint.num_fwd_outputs)
    assert [n.target for n in fw.graph.nodes].count(aten._assert_scalar.default) == 1


def test_a_graph_with_no_backward_is_refused_by_every_entry_point():
    from torch.fx.experimental.proxy_tensor import make_fx

    gm = make_fx(lambda a, b: ((a @ b).relu() * 2,), tracing_mode="fake")(
        torch.randn(4, 8), torch.randn(8, 8))
    for entry, fn in entry_points(1).items():
        refused(lambda: fn(copy.deepcopy(gm)),
                f"{NAMED.get(entry, entry)}: num_fwd_outputs = 1 makes every output of the "
                f"joint graph a forward output: there is no backward to partition")


# --- invoke_subgraph calls --------------------------------------------------------------------


def _operand(value):
    def edit(gm, hop):
        hop.args = (*hop.args[:2], value)
    return edit


def _subgraph(kind):
    def edit(gm, hop):
        if kind == "placeholder":
            sub = next(iter(gm.graph.find_nodes(op="placeholder")))
        elif kind == "call_function":
            with gm.graph.inserting_before(hop):
                sub = gm.graph.call_function(aten.sin.default, (hop.args[2],))
            sub.meta["val"] = torch.empty(4)
        elif kind == "tensor":
            gm.register_buffer("not_a_graph", torch.zeros(1))
            with gm.graph.inserting_before(hop):
                sub = gm.graph.get_attr("not_a_graph")
        else:
            sub = kind
        hop.args = (sub, *hop.args[1:])
    return edit


def _int_input(gm, hop):
    next(iter(gm.sub.graph.find_nodes(op="placeholder"))).meta["val"] = 3


def _identifier(gm, hop):
    hop.args = (hop.args[0], 7, *hop.args[2:])


@pytest.mark.parametrize("edit,needle", [
    (_operand(3.0), "with operand 0 = 3.0 (float), which no subgraph input takes"),
    (_operand("x"), "with operand 0 = 'x' (str), which no subgraph input takes"),
    (_operand((1, 2)), "with operand 0 = (1, 2) (tuple), which no subgraph input takes"),
    (_operand(None), "with operand 0 = None (NoneType), not a tensor; the subgraph's input "
                     "'arg0' is (4,) torch.float32"),
    (_operand(1), "with operand 0 = 1 (int), not a tensor"),
    (_operand(True), "with operand 0 = True (bool), not a tensor"),
    (_int_input, "with operand 0 ('primals_2') = (4,) torch.float32, not an int or SymInt"),
    (_subgraph("placeholder"), "takes its subgraph from a get_attr node; its first argument "
                               "is node 'primals_2' (a placeholder)"),
    (_subgraph("call_function"), "its first argument is node 'sin_default' (a call_function)"),
    (_subgraph("tensor"), "calls 'not_a_graph', which is a Tensor, not a subgraph"),
    (_subgraph("sub"), "its first argument is 'sub'"),
    (_subgraph(None), "its first argument is None"),
    (_identifier, "identifier = 7 is invalid; expected a string or None"),
])
@pytest.mark.parametrize("entry", ["partition", "decide", "plan", "annotate"])
def test_invoke_subgraph_calls_of_the_wrong_kind_are_errors_naming_the_operand(edit, needle,
                                                                               entry):
    gm, n = region_joint()
    hop = next(nd for nd in gm.graph.nodes if nd.name == "invoke_subgraph")
    edit(gm, hop)
    refused(lambda: entry_points(n)[entry](gm), f"{entry}: invoke_subgraph node "
            f"'invoke_subgraph'", needle)


def test_invoke_subgraph_operands_matching_their_inputs_are_accepted():
    gm, n = region_joint()
    hop = next(nd for nd in gm.graph.nodes if nd.name == "invoke_subgraph")
    last = list(gm.sub.graph.find_nodes(op="placeholder"))[-1]
    for name, val in (("k", 3), ("nothing", None)):  # two more inputs: an int and None
        with gm.sub.graph.inserting_after(last):
            last = gm.sub.graph.placeholder(name)
        last.meta["val"] = val
    hop.args = (*hop.args, 5, None)
    fusioncut.decide(gm, num_fwd_outputs=n)


# --- budgets from annotations and from torch's setting -----------------------------------------

BAD_BUDGETS = [pytest.param(10**5000, id="int16610bits"), pytest.param(10**400, id="int1329bits"),
               float("nan"), float("inf"), -0.5, 2.0, True, "0.5", 1 + 0j]


def _annotate(gm, key, value):
    node = next(n for n in gm.graph.nodes if n.name == "relu")
    if key == "custom":
        node.meta["custom"] = {REGION_KEY: value}
    else:
        node.meta["memory_budget"] = value


@pytest.mark.parametrize("key", ["custom", "memory_budget"])
@pytest.mark.parametrize("value", BAD_BUDGETS)
def test_budget_annotations_outside_0_1_name_node_key_and_range(joint, key, value):
    gm = copy.deepcopy(joint.joint_module)
    _annotate(gm, key, value)
    where = f"meta['custom'][{REGION_KEY!r}]" if key == "custom" else "meta['memory_budget']"
    for entry in ("partition", "decide", "annotate"):
        refused(lambda: entry_points(joint.num_fwd_outputs)[entry](gm),
                f"{entry}: the activation memory budget {where} of node 'relu' = ",
                "is invalid; expected a number in [0, 1]")


@pytest.mark.parametrize("key", ["custom", "memory_budget"])
def test_a_numpy_budget_annotation_is_read_as_the_float(joint, key):
    for value in (np.float32(0.25), np.float64(0.25), np.int64(0)):
        gm = copy.deepcopy(joint.joint_module)
        _annotate(gm, key, value)
        graph = JointGraph.from_fx(gm, joint.num_fwd_outputs)
        assert graph.memory_budget == float(value) and type(graph.memory_budget) is float


@pytest.mark.parametrize("value", BAD_BUDGETS)
def test_torch_activation_memory_budget_outside_0_1_is_named(joint, value):
    with torch._functorch.config.patch(activation_memory_budget=value):
        refused(lambda: fusioncut.partition(copy.deepcopy(joint.joint_module), None,
                                            num_fwd_outputs=joint.num_fwd_outputs),
                "partition: torch._functorch.config.activation_memory_budget = ",
                "is invalid; expected a number in [0, 1]")


def test_a_region_call_with_a_huge_annotation_is_named_not_a_digit_limit_error():
    """The region cache's key holds annotations; a value repr cannot print must not escape."""
    g = fx.Graph()
    x, t = g.placeholder("primals_0"), g.placeholder("tangents_0")
    x.meta["val"] = t.meta["val"] = torch.empty(4)
    sin = g.call_function(aten.sin.default, (x,))
    cos = g.call_function(aten.cos.default, (x,))
    grad = g.call_function(aten.mul.Tensor, (t, cos))
    for node in (sin, cos, grad):
        node.meta["val"] = torch.empty(4)
    sin.meta["custom"] = {REGION_KEY: 10**5000}
    g.output((sin, grad))
    refused(lambda: fusioncut.partition(fx.GraphModule(torch.nn.Module(), g), [],
                                        num_fwd_outputs=1),
            "node 'sin_default' = an int of 16610 bits is invalid")


def f_dropout(x, w1, w2):
    h = torch.nn.functional.dropout(torch.relu(x @ w1), 0.5, training=True)
    return torch.nn.functional.dropout(torch.tanh(h @ w2), 0.3, training=True).sum()


def _dropout_inputs():
    torch.manual_seed(1)
    return [torch.randn(16, 32, requires_grad=True), torch.randn(32, 32, requires_grad=True),
            torch.randn(32, 32, requires_grad=True)]


def _two_budgets(joint):
    """0.2 on the first half of the forward, 0.7 on the rest, as region annotations."""
    forward = [n for n in joint.graph.nodes if n.op == "call_function"][:10]
    for k, node in enumerate(forward):
        node.meta["custom"] = {REGION_KEY: 0.2 if k < 5 else 0.7}


def test_disagreeing_region_budgets_are_decided_natively_at_the_strictest():
    reports = []

    def partition_fn(joint, inputs, **kwargs):
        _two_budgets(joint)
        return fusioncut.partition(joint, inputs, report=reports.append, **kwargs)

    xs = _dropout_inputs()
    compiled = aot_function(f_dropout, fw_compiler=nop, bw_compiler=nop,
                            partition_fn=partition_fn)
    with warnings.catch_warnings():
        warnings.simplefilter("error", fusioncut.FallbackWarning)
        with pytest.warns(fusioncut.BudgetWarning, match=r"conflicting activation memory "
                          r"budget annotations \(0.2 on node mm, 0.7 on node .*\).* the "
                          r"strictest, 0.2"):
            torch.manual_seed(7)
            compiled(*xs).backward()
    assert reports[0].decision.budget.target == "memory_budget = 0.2"
    eager = _dropout_inputs()
    torch.manual_seed(7)
    f_dropout(*eager).backward()
    for got, want in zip(xs, eager):  # the same masks: no random op recomputed
        torch.testing.assert_close(got.grad, want.grad)


def test_pareto_says_when_pytorchs_plan_redraws_random_values():
    cap = capture_joint(f_dropout, *_dropout_inputs())
    report = pareto_report(cap.joint_module, cap.joint_inputs,
                           num_fwd_outputs=cap.num_fwd_outputs, budgets=(1.0, 0.2))
    rows = {r.budget: r for r in report.rows}
    assert rows[1.0].torch.redrawn == [] and "native_dropout" in rows[0.2].torch.redrawn
    assert all(not r.fusioncut.redrawn for r in report.rows)
    assert all(not p.redrawn for p in report.frontier)
    text = format_pareto(report)
    assert "* PyTorch's plan at budget 0.2 recomputes native_dropout" in text
    assert "draws new random numbers there" in text


@pytest.mark.filterwarnings("ignore::fusioncut.budget.BudgetWarning")
def test_partitions_of_disagreeing_budgets_agree_across_threads():
    cap = capture_joint(f_dropout, *_dropout_inputs())
    _two_budgets(cap.joint_module)
    saved: list = []

    def run():
        fw, _ = fusioncut.partition(copy.deepcopy(cap.joint_module), None,
                                    num_fwd_outputs=cap.num_fwd_outputs)
        saved.append([n.name for n in fw.graph.find_nodes(op="output")[0].args[0]])

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(saved) == 4 and all(s == saved[0] for s in saved)


