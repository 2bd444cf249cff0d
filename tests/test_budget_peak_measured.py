"""Peak targets hold when measured: a small zoo GPT compiled with ``torch.compile`` (Inductor's
C++ kernels) and fusioncut as the partitioner; one training step's peak from the CPU
profiler's memory events (``bench/budget_peak.py``, gradients of the previous step freed
before the window opens).

Asserted: under ``peak_memory_bytes = N`` the measured peak is at most N (+2% for allocator
rounding) at targets across fusioncut's range; the measured peak never rises as
``memory_budget`` falls; the estimate is within the margin ``Options.peak_margin`` of what is
measured. bench/bench_peak.py runs the same checks on the larger models of docs/budget.md.
"""

import json
import warnings

import numpy as np
import pytest
import torch
import torch._inductor.codegen.wrapper as inductor_wrapper

import bench_peak  # noqa: E402  (bench/ is on sys.path: tests/conftest.py)
import inductor_decisions  # noqa: E402
import peak_diff  # noqa: E402
import peak_replay  # noqa: E402
import _peak_reference as reference  # noqa: E402  (tests/ is on sys.path)
from budget_peak import Session  # noqa: E402
from inductor_walk import walk  # noqa: E402

from fusioncut import peak
from fusioncut.budget import raised
from fusioncut.graph import Role
from fusioncut.models import GPT, gpt_config, gpt_inputs
from fusioncut.options import PEAK_MARGIN, Options
from models import Autocast

ROUNDING = 1.02


@pytest.fixture(scope="module")
def gpt():
    cfg = gpt_config("demo", n_layer=1, d_model=32, n_head=2, block_size=32, vocab=64)
    torch.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return Session("gpt-tiny", model=(GPT(cfg), gpt_inputs(cfg, batch=2)))


def _measure(session, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return session.measure(Options(**options))


def test_peak_target_holds_when_measured(gpt):
    front = gpt.plan(Options(memory_budget=0.0)).budget.frontier
    margin = PEAK_MARGIN  # a CPU graph: Options().peak_margin = None resolves to it
    lo = raised(front.least.peak.peak, margin)
    hi = raised(front.runtime.peak.peak, margin)
    for n in (lo, hi):
        r = _measure(gpt, peak_memory_bytes=n)
        assert r["emitted_as_decided"]
        assert r["measured"] <= n * ROUNDING, (n, r["measured"], r["estimate"])


def test_measured_peak_is_monotone_in_the_budget(gpt):
    peaks = [_measure(gpt, memory_budget=b)["measured"] for b in (0.0, 0.5, 1.0)]
    assert peaks == sorted(peaks), peaks


def test_estimate_is_within_the_margin_of_the_measured_peak(gpt):
    margin = PEAK_MARGIN  # a CPU graph: Options().peak_margin = None resolves to it
    for b in (0.0, 1.0):
        r = _measure(gpt, memory_budget=b)
        assert r["measured"] <= raised(r["estimate"], margin), (b, r["measured"], r["estimate"])
        assert r["estimate"] <= r["measured"] * (1 + margin), (b, r["measured"], r["estimate"])


def test_estimate_stores_a_reused_tanh_whose_readers_run_in_two_kernels(gpt):
    # At budget 0 the backward recomputes the MLP first (its GeLU's tanh feeds the recomputed
    # output there) and reads the tanh again in the GeLU's derivative, a kernel later: Inductor's
    # C++ backend stores a reused tanh (peak._stored_on_reuse). Without that rule the estimate
    # was 15% under the measured peak; with it, within 2%.
    r = _measure(gpt, memory_budget=0.0)
    assert abs(r["estimate"] - r["measured"]) <= 0.02 * r["measured"], (r["estimate"],
                                                                        r["measured"])


class _Head(torch.nn.Module):
    """A language-model head: its logits dominate the step's memory."""

    def __init__(self, d: int = 32, vocab: int = 512):
        super().__init__()
        self.up = torch.nn.Linear(d, d)
        self.out = torch.nn.Linear(d, vocab)

    def forward(self, x, labels):
        logits = self.out(torch.nn.functional.gelu(self.up(x)))
        return torch.nn.functional.cross_entropy(logits.flatten(0, 1), labels.flatten())


def test_estimate_frees_a_loss_gradient_input_a_matmul_reads_before_its_column_sum():
    # The loss gradient (softmax minus one-hot) is written over the saved logits; the weight
    # gradient's matmul reads it, and only then the bias gradient (a column sum) does. The sum
    # reads the stored gradient; it does not compute it again from the logits, so the logits
    # die in the first backward kernel. Counting them alive until the sum put the estimate 82-87%
    # over the measured peak (BERT from transformers +19.7%, docs/budget.md).
    torch.manual_seed(0)
    x, labels = torch.randn(4, 256, 32), torch.randint(0, 512, (4, 256))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        head = Session("lm-head", model=(_Head(), (x, labels)))
    for b in (0.0, 1.0):
        r = _measure(head, memory_budget=b)
        assert abs(r["estimate"] - r["measured"]) <= 0.05 * r["measured"], (
            b, r["estimate"], r["measured"])


class _SharedBias(torch.nn.Module):
    """Two attention layers that add one position bias to their scores (T5's relative bias)."""

    def __init__(self, d: int = 32, heads: int = 2, seq: int = 128, buckets: int = 32):
        super().__init__()
        self.heads = heads
        self.bias = torch.nn.Embedding(buckets, heads)
        self.qkv = torch.nn.ModuleList(torch.nn.Linear(d, 3 * d, bias=False) for _ in range(2))
        self.out = torch.nn.ModuleList(torch.nn.Linear(d, d, bias=False) for _ in range(2))
        pos = torch.arange(seq)
        rel = (pos[None, :] - pos[:, None]).clamp(-buckets // 2, buckets // 2 - 1) + buckets // 2
        self.register_buffer("bucket", rel, persistent=False)

    def forward(self, x):
        b, s, d = x.shape
        bias = self.bias(self.bucket).permute(2, 0, 1)[None]
        for qkv, out in zip(self.qkv, self.out):
            q, k, v = qkv(x).view(b, s, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
            p = torch.softmax(q @ k.transpose(-1, -2) + bias, dim=-1)
            x = x + out((p @ v).transpose(1, 2).reshape(b, s, d))
        return x.square().mean()


def test_estimate_runs_recomputed_kernels_that_read_one_bias_as_one(monkeypatch):
    # A plan that recomputes both layers' attention probabilities gets them from one kernel:
    # Inductor fuses kernels that read a common buffer (the bias) and runs the fused kernel where
    # the first stood, so the second layer's probabilities live across the first's backward and
    # recomputing them lowers the measured peak by nothing (docs/budget.md: T5 measured 16-21%
    # above an estimate that ran the two apart). The estimate runs them as one kernel
    # (peak.py's horizontal rule); without it, it was 8% under the measured peak.
    torch.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        bias = Session("shared-bias", model=(_SharedBias(), (torch.randn(2, 128, 32),)))
    monkeypatch.setattr(peak, "_HORIZONTAL_DISTANCE", 0)
    apart = _measure(bias, memory_budget=0.0)  # the plan the estimate without the rule picks
    assert {"div", "div_1"}.isdisjoint(apart["saved"]), apart["saved"]  # both recomputed
    monkeypatch.undo()
    graph = bias.plan(Options()).graph
    index = {node.name: i for i, node in enumerate(graph.nodes)}
    saved = np.array(sorted(index[name] for name in apart["saved"]), dtype=np.int64)
    fused = peak.estimate_peak(graph, saved).peak
    assert abs(fused - apart["measured"]) <= 0.06 * apart["measured"], (fused, apart)
    assert apart["estimate"] < 0.95 * apart["measured"], apart  # what the rule corrects
    chosen = _measure(bias, memory_budget=0.0)
    assert chosen["measured"] <= apart["measured"], (chosen, apart)


def test_replay_estimates_the_stored_plans_as_the_measurement_did(gpt):
    # peak_replay re-estimates the plans bench_peak stored (its --cache) on a graph captured
    # anew: the same plan, the same estimate, the same error.
    r = _measure(gpt, memory_budget=0.0)
    plans = {r["key"]: {k: r[k] for k in ("measured", "measured_forward", "measured_kept",
                                          "measured_backward", "saved")}}
    (row,) = peak_replay.replay("gpt-tiny", plans, session=gpt)
    assert row["estimate"] == r["estimate"] and row["measured"] == r["measured"]
    assert row["error"] == pytest.approx((r["estimate"] - r["measured"]) / r["measured"])
    assert peak_replay.summary("gpt-tiny", [row])["plans"] == 1
    assert row["late_reads"] >= 0


def test_replay_refuses_a_plan_the_graph_does_not_have(gpt, capsys, tmp_path):
    r = _measure(gpt, memory_budget=1.0)
    plan = {k: r[k] for k in ("measured", "measured_forward", "measured_kept",
                              "measured_backward")}
    plans = {r["key"]: {**plan, "saved": r["saved"] + ["no_such_node"]}}
    with pytest.raises(ValueError, match="no_such_node.*does not have"):
        peak_replay.replay("gpt-tiny", plans, session=gpt)
    stored = tmp_path / "plans.json"
    stored.write_text(json.dumps({}))
    assert peak_replay.main(["--plans", str(stored), "--models", "gpt",
                             "--json", str(tmp_path / "out.json")]) == 2
    assert "no stored plan of gpt" in capsys.readouterr().err


@pytest.mark.parametrize("model", ["gpt", "hf-bert", "hf-stablelm"])
def test_bench_peak_targets_only_reports_the_targets(tmp_path, model):
    # The short-lease path of the benchmark (a GPU run measures its targets first): no budget
    # sweep, the targets table alone, each target measured and held. hf-bert is BERT from
    # transformers (peak_models.UNSEEN, a model the estimate was not shaped on); its budget
    # sweep is left to the benchmark: at this size, 0.2 MiB, neighbouring budgets' peaks
    # differ by the allocator's rounding. hf-stablelm (UNSEEN_LATER: grouped key-value heads,
    # partial rotary embeddings) came furthest above its estimate at full size (+17.0%), the
    # excess the default margin is derived from.
    if model.startswith("hf-"):
        pytest.importorskip("transformers")
    out = tmp_path / "peak.json"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert bench_peak.main(["--quick", "--models", model, "--targets", "2",
                                "--targets-only", "--json", str(out)]) == 0
    result = json.loads(out.read_text())["results"][0]
    assert result["model"] == model
    assert result["estimate"] == [] and result["monotone"] == []
    assert result["monotone_holds"] is None
    assert len(result["targets"]) == 2
    assert all(r["measured"] > 0 and r["holds"] for r in result["targets"])


def test_bench_peak_says_how_far_a_sweep_breaks_monotonicity():
    # The monotone table's last column: the most a budget's measured peak exceeds that of a
    # higher budget (StableLM's sweep at 954d65f: 15.09 MiB at b = 0.3, 14.74 at 0.4).
    mib = 2 ** 20
    sweep = [13.60, 14.59, 15.09, 15.09, 14.74, 15.74, 17.74]
    rise, relative = bench_peak.worst_rise([p * mib for p in sweep])
    assert rise == pytest.approx(0.35 * mib) and relative == pytest.approx(0.35 / 14.74)
    assert bench_peak.worst_rise([1, 2, 2, 3]) == (0, 0.0)
    assert bench_peak.worst_rise([3, 1, 2]) == (2, 2.0)  # against the least above, not the next
    assert bench_peak.worst_rise([]) == (0, 0.0)


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the message without CUDA")
def test_bench_peak_on_cuda_without_cuda_says_so(capsys):
    assert bench_peak.main(["--device", "cuda", "--models", "gpt"]) == 2
    assert "torch.cuda.is_available() is False" in capsys.readouterr().err


TRITON_WRAPPER = '''
def call(self, args):
    primals_1, tangents_1 = args
    args.clear()
    assert_size_stride(tangents_1, (64, 64), (64, 1))
    buf0 = empty_strided_cuda((64, 64), (64, 1), torch.float32)
    triton_poi_fused_mul_0.run(tangents_1, buf0, 4096, stream=stream0)
    del tangents_1
    buf1 = empty_strided_cuda((64, 128), (128, 1), torch.float32)
    extern_kernels.mm(buf0, primals_1, out=buf1)
    buf2 = buf0; del buf0  # reuse
    triton_poi_fused_add_1.run(buf2, 4096, stream=stream0)
    del buf1
    return (buf2, )
'''


def test_walk_reads_a_triton_wrapper(tmp_path):
    # The GPU run walks Triton's wrapper code like the C++ backend's: CUDA allocations, frees,
    # reuse; the owned tangent counts from entry until its del.
    path = tmp_path / "wrapper.py"
    path.write_text(TRITON_WRAPPER)
    w = walk(str(path))
    assert w.start == 64 * 64 * 4
    assert w.peak == (64 * 64 + 64 * 64 + 64 * 128) * 4 - 64 * 64 * 4  # tangent freed first
    assert w.end == 64 * 64 * 4
    assert w.peak_line.startswith("buf1 = empty_strided_cuda")


def test_peak_diff_names_what_each_walk_holds(gpt):
    # bench/peak_diff.py: the estimate's backward through the pool, each storage named by the
    # values it held, reproduces the estimate's peak; the generated backward is walked beside it.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        d = gpt.plan(Options(memory_budget=0.0))
    names = sorted(d.graph.nodes[i].name for i in d.saved)
    r = peak_diff.diff(gpt, names, held=8)
    assert r["walk_agrees"], (r["walk_peak"], r["estimate"].backward_peak)
    sizes = [size for size, _ in r["estimate_held"]]
    assert 0 < len(sizes) <= 8 and sizes == sorted(sizes, reverse=True)
    assert sum(sizes) <= r["estimate"].backward_peak
    assert r["code_peak"] == walk(r["code"]).peak > 0
    assert len(r["timeline"]) >= 5 and all(row["estimate"] > 0 for row in r["timeline"])
    with pytest.raises(ValueError, match="does not have"):
        peak_diff.diff(gpt, ["no_such_node"])


def test_peak_diff_refuses_a_key_it_cannot_find(tmp_path, capsys):
    plans = tmp_path / "plans.json"
    plans.write_text(json.dumps({"gpt:aa1": {}, "gpt:aa2": {}}))
    assert peak_diff.main(["gpt:aa", "--plans", str(plans)]) == 2
    assert "2 plans" in capsys.readouterr().err
    assert peak_diff.main(["gpt:b", "--plans", str(plans)]) == 2


def test_inductor_decisions_records_its_reorders_and_reuses_then_restores_them(gpt):
    # bench/inductor_decisions.py: Inductor's reorder_for_peak_memory estimates and its
    # conditional buffer reuse, recorded during one compile of a plan.
    before = inductor_wrapper.AllocateLine.should_reuse_buffer
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        d = gpt.plan(Options(memory_budget=0.0))
    names = sorted(d.graph.nodes[i].name for i in d.saved)
    with inductor_decisions.recorded() as decisions:
        peak_diff.compile_plan(gpt, names)
    assert inductor_wrapper.AllocateLine.should_reuse_buffer is before
    assert len(decisions.reorders) == 2  # the forward and the backward
    assert all(orders["baseline"] > 0 and len(orders) == 4 for orders in decisions.reorders)
    rows = [r for graph in decisions.reuses for r in graph]
    assert rows and all(r["bytes"] > 0 and r["freed_at"] < r["allocated_at"] for r in rows)
    # Adjacent nodes always reuse; otherwise a reuse never lifts the peak past the overall.
    for r in rows:
        if r["peak_between"] is None:
            assert r["reused"]
        else:
            assert r["reused"] == (r["bytes"] + r["peak_between"] <= r["overall"])


def test_inductor_decisions_refuses_a_key_it_cannot_find(tmp_path, capsys):
    plans = tmp_path / "plans.json"
    plans.write_text(json.dumps({"gpt:aa1": {}, "gpt:aa2": {}}))
    assert inductor_decisions.main(["gpt:aa", "--plans", str(plans)]) == 2
    assert "2 plans" in capsys.readouterr().err


def test_estimate_keeps_a_softmax_exp_read_by_its_sum_and_division_under_bfloat16():
    # Inductor's C++ backend stores a reused exp (StorageBox.mark_reuse) and keeps it in memory
    # when a reduction and a later pointwise op read it: the softmax's sum, then its division,
    # in the next loop of one kernel. In float32 the division writes over it; under bfloat16
    # autocast the exp is float32 and the output bfloat16, so the kernel holds both (the zoo
    # GPT's forward was 13% under before the estimate counted it; docs/budget.md, "Mixed
    # precision on the CPU").
    cfg = gpt_config("demo", n_layer=1, d_model=32, n_head=2, block_size=64, vocab=64)
    torch.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        session = Session("gpt-bf16", model=(Autocast(GPT(cfg)), gpt_inputs(cfg, batch=4)))
        graph = session.plan(Options()).graph
    sums = torch.ops.aten.sum.dim_IntList
    exps = [i for i, node in enumerate(graph.nodes)
            if node.target is torch.ops.aten.exp.default and graph.role[i] == Role.FORWARD
            and {graph.nodes[u].target is sums for u in graph.users(i)} == {True, False}]
    assert exps, "the softmax is decomposed in Inductor's joint graph"
    none = np.zeros(0, dtype=np.int64)
    walked = peak.phase_events(graph, none)
    for got, want in zip(walked[:2], reference.phase_events(graph, none)[:2]):  # the rule in both
        for name in ("alloc_node", "alloc_t", "alloc_s", "free_node", "free_t", "free_s"):
            np.testing.assert_array_equal(getattr(got, name), getattr(want, name), err_msg=name)
    forward = walked[0]
    stored = dict(zip(forward.alloc_node.tolist(), forward.alloc_s.tolist()))
    for i in exps:
        assert graph.itemsize[i] == 4 and stored.get(i) == graph.numel[i] * 4, graph.nodes[i].name
    r = _measure(session, memory_budget=1.0)
    # On a CPU with AVX512-BF16, oneDNN's bfloat16 matmuls allocate scratchpads of their own,
    # which the estimate does not model (docs/budget.md, "oneDNN's scratchpads"): compared here
    # is what the generated code allocates, the matmuls' transients set aside.
    code = r["measured_forward_code"]
    assert r["measured_forward"] <= code + r["measured_scratch"], r
    assert abs(r["estimate_forward"] - code) <= 0.05 * code, (r["estimate_forward"], code,
                                                              r["measured_forward"])
