"""Unit tests of the training benchmark's parts (bench/train, bench/common.py), on CPU and
without compiling: the gradient-tolerance rule, the largest-batch search, the interleaved
timing record and the record of the machine."""

import importlib
import math
import os
import stat

import pytest

torch = pytest.importorskip("torch")

# bench/ and bench/train/ are on sys.path (tests/conftest.py).
batch_search = importlib.import_module("batch_search")
common = importlib.import_module("common")
configs = importlib.import_module("configs")
gradcheck = importlib.import_module("gradcheck")
report = importlib.import_module("report")
suite = importlib.import_module("suite")
timing = importlib.import_module("timing")
train_models = importlib.import_module("train_models")


# --- gradient tolerance ----------------------------------------------------------------------


def test_grad_tolerance_scales_with_eager_error_and_has_a_floor():
    rule = gradcheck.GradTolerance(k=10, floor=1e-5)
    assert rule.tolerance(3e-6) == (pytest.approx(3e-5), "eager")
    assert rule.tolerance(0.0) == (1e-5, "floor")
    v = rule.verdict(2e-5, 3e-6)
    assert v["grad_ok"] and v["grad_verdict"] == "ok" and v["grad_tol_from"] == "eager"
    assert v["grad_tol"] == pytest.approx(3e-5) and v["grad_eager_err"] == 3e-6
    assert rule.verdict(4e-5, 3e-6)["grad_verdict"] == "MISMATCH"
    with pytest.raises(ValueError, match="GradTolerance: k = 0.5 must be"):
        gradcheck.GradTolerance(k=0.5)
    with pytest.raises(ValueError, match="GradTolerance: floor = 0.0 must be"):
        gradcheck.GradTolerance(floor=0.0)


def test_grad_tolerance_holds_partitioners_to_torchs_own_compile():
    """Inductor's float32 backward 9e-3 from float64, eager 3e-6 (the CPU bottleneck ResNet):
    every partitioner at 9e-3 is ok, one at 0.05 is not; torch_default is compiler-limited."""
    rule = gradcheck.GradTolerance(k=10, floor=1e-5, k_compiled=2, max_compiled_noise=0.1)
    ok = rule.verdict(9.2e-3, 3e-6, compiled_err=9.2e-3)
    assert ok["grad_verdict"] == "ok" and ok["grad_tol_from"] == "torch_default"
    assert ok["grad_tol"] == pytest.approx(1.84e-2)
    assert rule.verdict(5e-2, 3e-6, compiled_err=9.2e-3)["grad_verdict"] == "MISMATCH"
    base = rule.verdict(9.2e-3, 3e-6, compiled_err=9.2e-3, baseline=True)
    assert base["grad_verdict"] == "compiler-limited" and not base["grad_ok"]
    assert base["grad_tol_from"] == "eager"  # torch_default is held to eager
    # a torch_default further than max_compiled_noise is no measure of noise
    broken = rule.verdict(0.3, 3e-6, compiled_err=0.3)
    assert broken["grad_verdict"] == "MISMATCH" and broken["grad_tol_from"] == "eager"
    assert rule.verdict(0.3, 3e-6, baseline=True)["grad_verdict"] == "MISMATCH"


def test_apply_verdicts_uses_the_baseline_row_once_all_are_known():
    rule = gradcheck.GradTolerance()
    ref = suite.Reference("float64 eager", [], 3e-6)
    rows = {"eager": {"status": "ok", "grad_err": 3e-6},
            "fusioncut_runtime": {"status": "ok", "grad_err": 9e-3},
            "torch_default": {"status": "ok", "grad_err": 9e-3},
            "broken": {"status": "ok", "grad_err": 0.5}}
    suite.apply_verdicts(rows, ref, rule)
    assert [rows[n]["grad_verdict"] for n in rows] == ["ok", "ok", "compiler-limited", "MISMATCH"]
    assert rows["eager"]["grad_tol_from"] == "eager" and rows["eager"]["grad_tol"] == 3e-5
    assert rows["fusioncut_runtime"]["grad_tol_from"] == "torch_default"


def test_grad_error_is_max_normalised_and_infinite_on_missing_or_nan():
    ref = [torch.tensor([1.0, -4.0]), None]
    assert gradcheck.grad_error([torch.tensor([1.0, -3.0]), None], ref) == pytest.approx(0.25)
    assert gradcheck.grad_error([None, None], ref) == math.inf
    assert gradcheck.grad_error([torch.tensor([math.nan, 0.0]), None], ref) == math.inf


def _resnet_case():
    opts = suite.RunOptions(device=torch.device("cpu"), size="tiny",
                            timing=timing.TimingPlan(0, 1, 1, 0.1, 1.0, True),
                            grad=gradcheck.GradTolerance())
    workload = train_models.WORKLOADS["resnet"]
    case = suite.build_case(workload, opts)
    return workload, case, opts


def _grads_after(case, model, inputs, grad_out):
    from measure import grad_leaves, train_step

    leaves = grad_leaves(model, inputs)
    out = train_step(model, inputs, leaves, grad_out)
    return inputs, leaves, out


def test_reordered_float32_convolutions_pass_and_a_wrong_batchnorm_fails():
    """Against the float64 reference, float32 computed in another memory format (other
    reduction orders, as cuDNN or Inductor pick) is within the tolerance; a step whose
    BatchNorm uses another epsilon (a wrong value, small in size) is not."""
    from measure import fresh_copy

    workload, case, opts = _resnet_case()
    ref = suite.references(workload, case, opts)
    assert ref.kind == "float64 eager" and 0 < ref.eager_err < 1e-5

    model, inputs = fresh_copy(case)
    model = model.to(memory_format=torch.channels_last)
    inputs = tuple(x.detach().to(memory_format=torch.channels_last).requires_grad_() for x in inputs)
    inputs, leaves, out = _grads_after(case, model, inputs, case.grad_out)
    ok = suite.check_grads(workload, ref, inputs, leaves, out, case.grad_out, opts.grad)
    assert ok["grad_ok"] and ok["grad_check"] == "float64 eager", ok

    model, inputs = fresh_copy(case)
    for m in model.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.eps = 1e-3
    inputs, leaves, out = _grads_after(case, model, inputs, case.grad_out)
    bad = suite.check_grads(workload, ref, inputs, leaves, out, case.grad_out, opts.grad)
    assert not bad["grad_ok"] and bad["grad_err"] > 100 * bad["grad_tol"], bad


def test_random_workload_is_checked_against_its_oracle():
    opts = _resnet_case()[2]
    workload = train_models.WORKLOADS["dropout_mask"]
    case = suite.build_case(workload, opts)
    ref = suite.references(workload, case, opts)
    assert ref.kind == "oracle" and ref.eager_err < 1e-6
    from measure import fresh_copy

    model, inputs = fresh_copy(case)
    inputs, leaves, out = _grads_after(case, model, inputs, case.grad_out)
    leaves[0].grad = leaves[0].grad * 1.01  # a wrong gradient for this step's mask
    bad = suite.check_grads(workload, ref, inputs, leaves, out, case.grad_out, opts.grad)
    assert bad["grad_check"] == "oracle" and not bad["grad_ok"]


@pytest.mark.parametrize("name,chunks", [("gpt2", 2), ("gelu", 4), ("evonorm_a", 2)])
def test_float64_reference_accumulated_over_slices_of_the_batch_is_the_same(name, chunks):
    opts = _resnet_case()[2]
    case = suite.build_case(train_models.WORKLOADS[name], opts)
    whole, sliced = suite.float64_grads(case, 1), suite.float64_grads(case, chunks)
    assert len(whole) == len(sliced)
    for a, b in zip(whole, sliced):
        torch.testing.assert_close(a, b, rtol=1e-12, atol=1e-12)


def test_float64_reference_out_of_memory_slices_the_batch_or_gives_up(monkeypatch):
    opts = _resnet_case()[2]
    real = suite.float64_grads

    def only_in_slices(case, chunks=1):
        if chunks < 2:
            raise torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB")
        return real(case, chunks)

    monkeypatch.setattr(suite, "float64_grads", only_in_slices)
    gpt = train_models.WORKLOADS["gpt2"]
    ref = suite.references(gpt, suite.build_case(gpt, opts), opts)
    assert ref.kind == "float64 eager (2 slices of the batch)" and ref.eager_err < 1e-5
    resnet = train_models.WORKLOADS["resnet"]  # BatchNorm couples the samples
    ref = suite.references(resnet, suite.build_case(resnet, opts), opts)
    assert ref.kind is None and "ran out of memory" in ref.note
    verdict = suite.check_grads(resnet, ref, (), [], None, None, opts.grad)
    assert verdict == {"grad_check": ref.note, "grad_err": None, "grad_ok": None,
                       "grad_verdict": "not checked"}


# --- largest batch ---------------------------------------------------------------------------


def _oom_above(limit, calls):
    def step(batch):
        calls.append(batch)
        if batch > limit:
            raise torch.OutOfMemoryError(f"CUDA out of memory. Tried to allocate {batch} GiB")

    return step


def test_batch_search_doubles_then_bisects_to_the_largest_fitting_batch():
    calls = []
    found = batch_search.largest_batch(batch_search.oom_as_false(_oom_above(37, calls)), 4,
                                       bisect_steps=10)
    assert found.largest == 37 and found.smallest_failed == 38 and found.stopped_by == "oom"
    assert calls[:5] == [4, 8, 16, 32, 64]  # doubling until the first failure
    assert [b for b, r in found.tried if r == "oom"][0] == 64


def test_batch_search_has_no_cap_but_stops_at_the_memory_estimate():
    calls = []
    fits = batch_search.oom_as_false(_oom_above(math.inf, calls))
    big = batch_search.largest_batch(fits, 8, bisect_steps=0)
    assert big.largest == 8 * 2**batch_search.MAX_DOUBLINGS and big.stopped_by == "doublings"
    calls.clear()
    footprint = batch_search.linear_footprint(8, fixed_bytes=1e9, per_base_batch_bytes=2e9)
    bounded = batch_search.largest_batch(fits, 8, footprint=footprint, capacity_bytes=80e9,
                                         bisect_steps=3)
    # footprint(b) = 1e9 + 2e9 * b / 8 <= 80e9 up to b = 316: 8 ... 256 run, 512 is not
    # tried; three bisections between 256 and 512 try 384, 448, 480 (all run here)
    assert calls == [8, 16, 32, 64, 128, 256, 384, 448, 480]
    assert bounded.stopped_by == "estimate" and bounded.smallest_failed == 512
    assert bounded.largest == 480


def test_batch_search_goes_below_the_base_batch_and_passes_other_errors_through():
    found = batch_search.largest_batch(batch_search.oom_as_false(_oom_above(5, [])), 16,
                                       bisect_steps=10)
    assert found.largest == 5
    wrapped = RuntimeError("backend compiler failed")
    wrapped.__cause__ = RuntimeError("CUDA error: out of memory")
    assert not batch_search.oom_as_false(lambda b: (_ for _ in ()).throw(wrapped))(4)

    def broken(batch):
        raise ValueError("shape mismatch")

    with pytest.raises(ValueError, match="shape mismatch"):
        batch_search.largest_batch(batch_search.oom_as_false(broken), 4)
    with pytest.raises(ValueError, match="largest_batch: base = 0 must be >= 1"):
        batch_search.largest_batch(lambda b: True, 0)


# --- interleaved timing ----------------------------------------------------------------------


def test_median_ci_uses_the_order_statistics_of_the_binomial_interval():
    xs = list(range(1, 21))
    assert timing.median_ci(xs) == (6, 15)
    assert timing.median_ci([3.0, 1.0, 2.0]) == (1.0, 3.0)
    s = timing.summary([1.0, 2.0, 3.0, 4.0, 100.0])
    assert s["median"] == 3.0 and s["iqr"] == 2.0 and s["max"] == 100.0


def _scripted(monkeypatch, times):
    """Step times from a script (name -> list of ms), recording the order of the calls."""
    calls, it = [], {k: iter(v) for k, v in times.items()}

    def fake_timed_step(step, device):
        name = step()
        calls.append(name)
        ms = next(it[name])
        return ms, ms

    monkeypatch.setattr(timing, "_timed_step", fake_timed_step)
    return {k: (lambda k=k: k) for k in times}, calls


def test_interleaved_rounds_rotate_and_stop_once_precise(monkeypatch):
    steps, calls = _scripted(monkeypatch, {"a": [10.0] * 100, "b": [5.0] * 100, "c": [20.0] * 100})
    plan = timing.TimingPlan(warmup=1, min_steps=4, max_steps=50, precision=0.01, budget_s=60,
                             use_cpu_time=True)
    series = timing.time_interleaved(steps, torch.device("cpu"), plan, baseline="a")
    # warm-up calls the steps without timing them; every timed round rotates the order
    assert calls[:6] == ["a", "b", "c", "b", "c", "a"]
    assert all(len(s.wall_ms) == 4 for s in series.values())  # constant times: precise at once
    fields = timing.timing_fields(series["b"], True, series["a"])
    assert fields["step_vs_default"] == 0.5 and fields["step_vs_default_ci"] == [0.5, 0.5]
    assert fields["within_noise"] is False and fields["time_kind"] == "cpu"
    base = timing.timing_fields(series["a"], True, series["a"])
    assert base["step_vs_default"] == 1.0 and base["within_noise"] is False


def test_noisy_equal_configs_run_to_max_steps_and_are_flagged_within_noise(monkeypatch):
    import random

    rng = random.Random(0)
    noisy = {k: [10.0 * (1 + 0.3 * rng.random()) for _ in range(40)] for k in "ab"}
    steps, _ = _scripted(monkeypatch, noisy)
    plan = timing.TimingPlan(warmup=0, min_steps=5, max_steps=12, precision=0.001,
                             budget_s=60, use_cpu_time=True)
    series = timing.time_interleaved(steps, torch.device("cpu"), plan, baseline="a")
    assert len(series["a"].wall_ms) == 12  # never precise to 0.1%: max_steps bounds it
    fields = timing.timing_fields(series["b"], True, series["a"])
    lo, hi = fields["step_vs_default_ci"]
    assert lo <= fields["step_vs_default"] <= hi and fields["within_noise"]
    assert fields["steps"] == 12 and len(fields["step_ms_all"]) == 12


def test_timing_plan_rejects_bad_bounds():
    with pytest.raises(ValueError, match="TimingPlan: need warmup >= 0"):
        timing.TimingPlan(0, 10, 5, 0.01, 1.0, True)


def test_real_steps_are_timed_with_thread_cpu_time():
    def spin(ms):
        def step():
            end = __import__("time").thread_time() + ms / 1e3
            while __import__("time").thread_time() < end:
                pass
        return step

    plan = timing.TimingPlan(0, 5, 5, 0.5, 10.0, True)
    series = timing.time_interleaved({"slow": spin(4), "fast": spin(1)}, torch.device("cpu"),
                                     plan, baseline="slow")
    fields = timing.timing_fields(series["fast"], True, series["slow"])
    assert 0.1 < fields["step_vs_default"] < 0.5 and len(series["slow"].cpu_ms) == 5


# --- the record of the machine ---------------------------------------------------------------


def test_environment_records_versions_device_and_cpu():
    env = common.environment("cpu")
    for key in ("date_utc", "python", "torch", "triton", "cuda", "cudnn", "driver", "cpu_model",
                "cpu_count", "torch_threads", "loadavg", "device_name", "fusioncut_build"):
        assert key in env, key
    assert env["torch"] == torch.__version__ and env["device"] == "cpu"
    assert env["device_name"] == common.cpu_model() and env["cpu_count"] >= 1
    assert env["torch_threads"] == torch.get_num_threads()


def test_nvidia_driver_is_read_from_nvidia_smi(tmp_path, monkeypatch):
    smi = tmp_path / "nvidia-smi"
    smi.write_text("#!/bin/sh\necho 550.54.15\n")
    smi.chmod(smi.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    assert common._nvidia_driver() == "550.54.15"


# --- the configuration registry and the table -------------------------------------------------


def test_a_fusioncut_variant_is_one_registration(monkeypatch):
    monkeypatch.setattr(configs, "CONFIGS", dict(configs.CONFIGS))
    config = configs.add_fusioncut_config("fusioncut_test_variant", mode="memory")
    assert configs.CONFIGS["fusioncut_test_variant"] is config and config.needs_fusioncut
    assert "Options(mode='memory')" in config.description
    with pytest.raises(ValueError, match="already registered"):
        configs.add_fusioncut_config("fusioncut_test_variant", mode="memory")


def test_offload_configurations_run_only_when_named_and_offload_on_the_cpu_synchronously():
    bench_train = importlib.import_module("bench_train")
    offload = set(configs.OFFLOAD_CONFIGS)
    assert offload <= set(configs.CONFIGS)
    assert not offload & set(bench_train.parse_args([]).configs)
    assert set(bench_train.parse_args(["--configs", *sorted(offload)]).configs) == offload
    on_cpu = configs._offload_settings([torch.zeros(2)])
    assert on_cpu == dict(activation_offload_separate_stream=False,
                          activation_reload_prefetch=False)


def test_offload_configurations_copy_synchronously_where_torch_cannot_compile_a_side_stream(
        monkeypatch):
    on_gpu = [torch.empty(2, device="meta")]  # any device but the CPU asks for the side stream
    assert configs._offload_settings(on_gpu)["activation_offload_separate_stream"] is (
        configs.side_stream_fault() is None)
    monkeypatch.setattr(configs, "side_stream_fault", lambda: "a staged defect")
    assert configs._offload_settings(on_gpu) == dict(activation_offload_separate_stream=False,
                                                     activation_reload_prefetch=False)


def test_compiled_configurations_get_code_objects_of_their_own():
    model = torch.nn.Linear(2, 2)
    a, b = configs.compile_model(model, "a"), configs.compile_model(model, "b")
    code = lambda f: getattr(f, "_torchdynamo_orig_callable", f).__code__  # noqa: E731
    assert code(a) is not code(b) and "a" in code(a).co_filename


def test_table_marks_noise_and_mismatches():
    row = {"model": "m", "config": "fusioncut_runtime", "status": "ok", "time_ms": 2.0,
           "time_iqr_ms": 0.2, "time_kind": "cpu", "step_vs_default": 1.01,
           "step_vs_default_ci": [0.97, 1.05], "within_noise": True, "steps": 40,
           "saved_act_bytes": 2**20, "saved_act_vs_default": 0.5, "saved_bytes": 2**21,
           "compile_s": 1.0, "grad_ok": False, "grad_err": 1e-2, "grad_tol": 1e-5,
           "grad_verdict": "MISMATCH"}
    md = report.table([row], {"device": "cpu"})
    assert "1.01 [0.97-1.05] ~" in md and "MISMATCH (1e-02 / tol 1e-05)" in md
    assert "cpu ms" in md.splitlines()[0]


def test_each_configuration_reports_a_line_once_compiled_before_the_timing():
    """A run cut short by its limit still says what it measured (the GPU offload run of
    2026-11-28 printed nothing in 440 s)."""
    lines = []
    opts = importlib.import_module("bench_train").options(
        importlib.import_module("bench_train").parse_args(["--quick"]))
    rows = suite.run_workload("tanh_tanh", ["torch_default", "eager"], opts, log=lines.append)
    assert [r["config"] for r in rows] == ["torch_default", "eager"]
    prepared = [line for line in lines if "prepared:" in line]
    assert len(prepared) == 2 and "torch_default" in prepared[0] and "eager" in prepared[1]
    assert all("saved act" in line and "grads ok" in line for line in prepared)
    failed = report.prepared_line({"model": "m", "config": "c", "status": "error: Boom\nmore"},
                                  None)
    assert failed.endswith("prepared: error: Boom")
