"""fusioncut.partition's choices, read off the forward module it emits.

The seed patterns are the paper's (sections 1 and 2.3) and the min-cut write-up's: each test
runs AOTAutograd with ``fusioncut.partition`` as ``partition_fn``, checks the gradients
against eager, and checks which joint-graph values the forward returns for the backward.
"""

from __future__ import annotations

import copy
import functools
import operator
import warnings

import pytest
import torch
import torch.nn.functional as F
from functorch.compile import aot_function, make_boxed_func

import fusioncut
from fusioncut import _torch_compat
from fusioncut.options import Options
from models import last_lines_across_processes


def _compiler(gm, _inputs):
    return make_boxed_func(gm)


def run(fn, *args, partition_fn=None):
    """Run ``fn`` through aot_function + fusioncut; return (saved names, fw, bw, joint)."""
    box = {}
    partition_fn = partition_fn or fusioncut.partition

    def record(joint, inputs, **kwargs):
        box["joint"] = copy.deepcopy(joint)
        box["num_fwd_outputs"] = kwargs["num_fwd_outputs"]
        fw, bw = partition_fn(joint, inputs, **kwargs)
        box["fw"], box["bw"] = fw, bw
        return fw, bw

    compiled = aot_function(fn, fw_compiler=_compiler, bw_compiler=_compiler,
                            partition_fn=record)
    eager_args = [a.detach().clone().requires_grad_(a.requires_grad) for a in args]
    out = compiled(*args)
    ref = fn(*eager_args)
    torch.testing.assert_close(out, ref)
    grad = torch.randn_like(out)
    out.backward(grad)
    ref.backward(grad)
    for a, e in zip(args, eager_args):
        if a.requires_grad:
            torch.testing.assert_close(a.grad, e.grad)
    fw = box["fw"]
    outs = list(fw.graph.find_nodes(op="output")[0].args[0])[box["num_fwd_outputs"]:]
    saved = [o.name for o in outs if isinstance(o, torch.fx.Node)]
    return saved, fw, box["bw"], box


def leaves(*shapes, seed=0):
    torch.manual_seed(seed)
    return [torch.randn(*s, requires_grad=True) for s in shapes]


def test_partition_cos_cos_of_sum_saves_only_the_sum():
    saved, _, _, _ = run(lambda a, b, c, d: (a + b + c + d).cos().cos(), *leaves(*[(16,)] * 4))
    assert saved == ["add_2"]


def test_partition_dropout_like_saves_input_and_bool_mask():
    torch.manual_seed(0)
    x = torch.randn(64, requires_grad=True)

    def f(x):
        return x * x * (torch.rand_like(x) < 0.5)

    box = {}

    def record(joint, inputs, **kwargs):
        fw, bw = fusioncut.partition(joint, inputs, **kwargs)
        box["fw"], box["n"] = fw, kwargs["num_fwd_outputs"]
        return fw, bw

    compiled = aot_function(f, fw_compiler=_compiler, bw_compiler=_compiler,
                            partition_fn=record)
    compiled(x).sum().backward()
    outs = list(box["fw"].graph.find_nodes(op="output")[0].args[0])[box["n"]:]
    assert sorted(o.name for o in outs) == ["lt", "primals_1"]
    assert {o.meta["val"].dtype for o in outs} == {torch.bool, torch.float32}


def test_partition_tanh_tanh_saves_only_the_input():
    saved, _, _, _ = run(lambda x: x.tanh().tanh(), *leaves((32,)))
    assert saved == ["primals_1"]


def test_partition_gelu_saves_only_its_input():
    saved, _, _, _ = run(lambda x: F.gelu(x), *leaves((32,)))
    assert saved == ["primals_1"]


def test_partition_gelu_tanh_approximation_saves_only_its_input():
    saved, _, _, _ = run(lambda x: F.gelu(x, approximate="tanh") * 2, *leaves((32,)))
    assert saved == ["primals_1"]


def test_partition_matmul_output_is_saved_not_recomputed():
    saved, _, bw, _ = run(lambda x, w: (x @ w).cos(), *leaves((4, 8), (8, 8)))
    assert "mm" in saved
    bw_names = {n.name for n in bw.graph.nodes}
    assert "mm" not in bw_names or "mm" in {n.name for n in bw.graph.find_nodes(op="placeholder")}


def test_partition_native_dropout_saves_the_bool_mask_not_random_floats():
    # Dropout draws differ from eager's, so this compares decisions only.
    x, w = leaves((8, 16), (16, 16))
    box = {}

    def record(joint, inputs, **kwargs):
        fw, bw = fusioncut.partition(joint, inputs, **kwargs)
        box["fw"], box["n"] = fw, kwargs["num_fwd_outputs"]
        return fw, bw

    compiled = aot_function(lambda x, w: F.dropout((x @ w).cos(), p=0.5, training=True),
                            fw_compiler=_compiler, bw_compiler=_compiler, partition_fn=record)
    compiled(x, w).sum().backward()
    outs = list(box["fw"].graph.find_nodes(op="output")[0].args[0])[box["n"]:]
    assert torch.bool in [o.meta["val"].dtype for o in outs]
    for o in outs:  # neither a random op nor dropout's float output is saved
        assert not (o.op == "call_function" and "rand" in str(o.target))
        if o.target is operator.getitem:
            assert not (o.args[1] == 0 and "dropout" in str(o.args[0].target))


def test_partition_no_backward_work_saves_nothing():
    x = torch.randn(8, requires_grad=True)
    w = torch.randn(8, requires_grad=True)
    saved, _, _, _ = run(lambda x, w: x * 2 + w, x, w)
    assert saved == []


def test_partition_nothing_recomputable_saves_the_matmul_outputs():
    saved, _, bw, _ = run(lambda x, w: (x @ w) @ w, *leaves((4, 8), (8, 8)))
    assert "mm" in saved
    assert all(n.name != "mm" or n.op == "placeholder" for n in bw.graph.nodes)


def test_partition_memory_mode_through_functools_partial():
    def f(x, w):
        return (F.layer_norm(x, (8,)) @ w).cos().cos()

    part = functools.partial(fusioncut.partition, options=Options(mode="memory"))
    saved_mem, _, _, _ = run(f, *leaves((4, 8), (8, 8)), partition_fn=part)
    saved_rt, _, _, _ = run(f, *leaves((4, 8), (8, 8)))
    # Runtime mode never recomputes the unfusible layer norm: it saves its output and
    # statistics. Memory mode recomputes it from the input.
    assert saved_mem == ["primals_1", "primals_2", "mm"]
    assert {"getitem", "getitem_1", "getitem_2", "mm"} <= set(saved_rt)


def test_partition_accepts_compiler_and_unknown_kwargs():
    x = torch.randn(8, requires_grad=True)
    part = functools.partial(fusioncut.partition, compiler="inductor", some_future_flag=True)
    saved, _, _, _ = run(lambda x: x.sin().sin(), x, partition_fn=part)
    assert saved == ["primals_1"]


def test_partition_rejects_options_of_the_wrong_type():
    x = torch.randn(8, requires_grad=True)
    part = functools.partial(fusioncut.partition, options={"mode": "memory"})
    with pytest.raises(Exception, match="fusioncut.Options"):
        run(lambda x: x.sin(), x, partition_fn=part)


def test_partition_memory_budget_config_is_honoured_without_fallback():
    x = torch.randn(8, requires_grad=True)
    with _torch_compat.functorch_config().patch(activation_memory_budget=0.5):
        with warnings.catch_warnings():
            warnings.simplefilter("error", fusioncut.FallbackWarning)
            run(lambda x: x.sin().cos(), x)


def test_partition_decide_is_deterministic_across_processes():
    code = (
        "import torch, fusioncut, copy\n"
        "from functorch.compile import aot_function, make_boxed_func\n"
        "box = {}\n"
        "def rec(j, i, **kw):\n"
        "    d = fusioncut.decide(copy.deepcopy(j), num_fwd_outputs=kw['num_fwd_outputs'])\n"
        "    box['s'] = [n.name for n in d.saved_nodes]\n"
        "    return fusioncut.partition(j, i, **kw)\n"
        "f = aot_function(lambda x, w: ((x @ w).tanh() * x.sum()).sin().sum(),"
        " lambda g, _: make_boxed_func(g), lambda g, _: make_boxed_func(g), partition_fn=rec)\n"
        "x = torch.randn(4, 4, requires_grad=True)\n"
        "f(x, torch.randn(4, 4, requires_grad=True)).backward()\n"
        "print(box['s'])\n"
    )
    assert len(last_lines_across_processes(code, seeds=("0", "12345"))) == 1


def test_partition_dynamic_shapes_pass_symints_and_match_eager():
    from functorch.compile import aot_module_simplified

    box = {}

    def record(joint, inputs, **kwargs):
        fw, bw = fusioncut.partition(joint, inputs, **kwargs)
        box["fw"], box["n"] = fw, kwargs["num_fwd_outputs"]
        return fw, bw

    def backend(gm, example_inputs):
        return aot_module_simplified(gm, example_inputs, fw_compiler=_compiler,
                                     bw_compiler=_compiler, partition_fn=record)

    def fn(x, w):
        return ((x.view(-1, x.shape[-1]) @ w).relu() * x.sum()).tanh().tanh()

    torch._dynamo.reset()
    compiled = torch.compile(fn, backend=backend, dynamic=True)
    x, w = leaves((5, 7), (7, 3))
    compiled(x, w).sum().backward()
    gx, gw = x.grad.clone(), w.grad.clone()
    x.grad = w.grad = None
    fn(x, w).sum().backward()
    torch.testing.assert_close(gx, x.grad)
    torch.testing.assert_close(gw, w.grad)
    outs = list(box["fw"].graph.find_nodes(op="output")[0].args[0])[box["n"]:]
    names = {o.name for o in outs}
    assert "mm" in names and "sum_1" in names  # banned: matmul; reduction 4x+ smaller
    assert not names & {"tanh", "tanh_1", "relu"}  # fused chain recomputed
    assert any(isinstance(o.meta.get("val"), torch.SymInt) for o in outs)


def test_partition_memory_budget_annotation_is_honoured_and_conflicts_take_the_strictest():
    seen = {}

    def one_budget(joint, inputs, **kwargs):
        add = next(n for n in joint.graph.nodes if n.op == "call_function")
        add.meta["memory_budget"] = 0.5
        return fusioncut.partition(joint, inputs, report=lambda r: seen.setdefault("r", r),
                                   **kwargs)

    x = torch.randn(8, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error", fusioncut.FallbackWarning)
        run(lambda x: x.sin().cos(), x, partition_fn=one_budget)
    assert seen["r"].decision.budget.target == "memory_budget = 0.5"

    def two_budgets(joint, inputs, **kwargs):
        calls = [n for n in joint.graph.nodes if n.op == "call_function"]
        calls[0].meta["memory_budget"] = 0.5
        calls[1].meta["memory_budget"] = 0.25
        return fusioncut.partition(joint, inputs, **kwargs)

    x = torch.randn(8, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error", fusioncut.FallbackWarning)
        with pytest.warns(fusioncut.BudgetWarning, match=r"conflicting activation memory "
                          r"budget annotations \(0.25 on node cos, 0.5 on node sin\).*the "
                          r"strictest, 0.25"):
            run(lambda x: x.sin().cos(), x, partition_fn=two_budgets)


def test_partition_higher_order_op_without_val_is_an_error_naming_it():
    from fusioncut.graph import JointGraph

    g = torch.fx.Graph()
    x = g.placeholder("primals_1")
    x.meta["val"] = torch.empty(2)
    hop = g.call_function(torch.ops.higher_order.cond, (x, x, x, (x,)))
    g.output([hop, None])  # the backward returns no gradient
    gm = torch.fx.GraphModule(torch.nn.Module(), g)
    with pytest.raises(ValueError, match=r"partition: node 'cond' \(calls .*cond\) has no "
                                         r"meta\['val'\]"):
        JointGraph.from_fx(gm, 1)


def test_partition_unused_input_requiring_grad():
    x = torch.randn(8, requires_grad=True)
    unused = torch.randn(8, requires_grad=True)
    box = {}

    def record(joint, inputs, **kwargs):
        fw, bw = fusioncut.partition(joint, inputs, **kwargs)
        box["fw"], box["n"] = fw, kwargs["num_fwd_outputs"]
        return fw, bw

    compiled = aot_function(lambda x, u: torch.sin(x) * 2, fw_compiler=_compiler,
                            bw_compiler=_compiler, partition_fn=record)
    compiled(x, unused).sum().backward()
    torch.testing.assert_close(x.grad, 2 * torch.cos(x))
    assert unused.grad is None or not unused.grad.any()
    outs = list(box["fw"].graph.find_nodes(op="output")[0].args[0])[box["n"]:]
    assert [o.name for o in outs] == ["primals_1"]


def test_partition_gpt_never_recomputes_matmuls_and_saves_fewer_bytes_than_torch():
    from functorch.compile import min_cut_rematerialization_partition

    import models

    cfg = models.GPTConfig(vocab=64, block_size=16, d_model=32, n_head=2, n_layer=2,
                           dropout=0.1)
    torch.manual_seed(0)
    cap = models.capture_joint(None, *models.gpt_inputs(cfg), module=models.GPT(cfg))

    def saved_bytes(part):
        gm = copy.deepcopy(cap.joint_module)
        fw, bw = part(gm, cap.joint_inputs, num_fwd_outputs=cap.num_fwd_outputs,
                      static_lifetime_input_indices=cap.static_lifetime_input_indices)
        outs = list(fw.graph.find_nodes(op="output")[0].args[0])[cap.num_fwd_outputs:]
        total = sum(o.meta["val"].numel() * o.meta["val"].dtype.itemsize for o in outs
                    if o.op != "placeholder" and isinstance(o.meta.get("val"), torch.Tensor))
        return total, fw, bw

    ours, fw, bw = saved_bytes(fusioncut.partition)
    theirs, _, _ = saved_bytes(min_cut_rematerialization_partition)
    assert ours <= theirs
    heavy = {"mm", "bmm", "addmm"}
    fw_heavy = {n.name for n in fw.graph.nodes if n.op == "call_function"
                and getattr(n.target, "overloadpacket", None) is not None
                and n.target.overloadpacket.__name__ in heavy}
    bw_calls = {n.name for n in bw.graph.nodes if n.op == "call_function"}
    assert fw_heavy and not fw_heavy & bw_calls
