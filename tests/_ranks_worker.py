"""One rank of a multi-process test (tests/test_ranks_*.py); run as a script:

    python tests/_ranks_worker.py SCENARIO RANK WORLD INIT_FILE OUT_DIR

Each rank joins a gloo process group through a file store, runs SCENARIO and writes what it
saw to ``OUT_DIR/rank{RANK}.pt`` (``torch.save`` of plain lists, strings and tensors), or the
traceback to ``OUT_DIR/rank{RANK}.err``. Scenarios:

    ddp      torch.compile(DDP(Net)), 2 SGD steps, and the same steps uncompiled
    fsdp2    torch.compile of a Net whose blocks and root are fully_shard'ed (FSDP2)
    sp       a sequence-parallel MLP (all_gather in the forward, reduce_scatter in the
             backward, traced into the graph) with _sync_decision_cross_ranks = True
    tp       a tensor-parallel MLP (DTensor, parallelize_module: column-wise then row-wise
             Linear; the device mesh enters the joint graph as opaque objects)
    direct   fusioncut.partition through aot_function (no Inductor) with the flag set:
             rank 1 decides with other Options (static shapes, and dynamic ones through
             partition_for_sizes), a graph without collectives, ranks with different graphs

Every compiled run records, per joint graph the partitioner saw: the saved values (the
forward's outputs after the first num_fwd_outputs), the collectives of the joint graph and of
each emitted module, and every FallbackWarning.
"""

from __future__ import annotations

import copy
import faulthandler
import functools
import logging
import os
import sys
import traceback
import warnings

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F

import fusioncut
from fusioncut.fallback import FallbackWarning
from fusioncut.inductor import InductorPartitioner
from fusioncut.ops import COLLECTIVE_NAMESPACES
from fusioncut.options import Options

STEPS = 2
LR = 0.1


class Block(nn.Module):
    def __init__(self, d: int):
        super().__init__()
        self.ln = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, 2 * d)
        self.fc2 = nn.Linear(2 * d, d)

    def forward(self, x):
        return x + self.fc2(F.gelu(self.fc1(self.ln(x))))


class Net(nn.Module):
    def __init__(self, d: int = 16, layers: int = 2):
        super().__init__()
        self.inp = nn.Linear(8, d)
        self.blocks = nn.ModuleList(Block(d) for _ in range(layers))
        self.out = nn.Linear(d, 4)

    def forward(self, x):
        h = torch.tanh(self.inp(x))
        for block in self.blocks:
            h = block(h)
        return self.out(h)


class SequenceParallelMLP(nn.Module):
    """Each rank holds a slice of the rows; the second layer sees all of them."""

    def __init__(self, d: int = 16):
        super().__init__()
        self.a = nn.Linear(d, 2 * d)
        self.b = nn.Linear(2 * d, d)

    def forward(self, x):
        h = F.gelu(self.a(x)) * 2
        g = all_gather_rows(h)
        return torch.tanh(self.b(g)).cos()


def all_gather_rows(h):
    import torch.distributed._functional_collectives as funcol

    gather = getattr(funcol, "all_gather_single_autograd", None) or \
        funcol.all_gather_tensor_autograd
    return funcol.wait_tensor(gather(h, 0, dist.group.WORLD))


def batch(rank: int, step: int, rows: int = 4, cols: int = 8) -> torch.Tensor:
    g = torch.Generator().manual_seed(1000 * step + rank)
    return torch.randn(rows, cols, generator=g)


def collectives(gm) -> list[str]:
    """Names of the collective nodes of a graph (ops in a collective namespace)."""
    return [n.name for n in gm.graph.nodes if n.op == "call_function"
            and getattr(n.target, "namespace", None) in COLLECTIVE_NAMESPACES]


def opaque_objects(gm) -> list[str]:
    """Names of the nodes of a graph whose value is an opaque object (a DTensor's mesh)."""
    from torch._library.fake_class_registry import FakeScriptObject

    return [n.name for n in gm.graph.nodes
            if isinstance(n.meta.get("val"), (FakeScriptObject, torch.ScriptObject))]


def collective_ops(gm) -> list[str]:
    return [str(n.target) for n in gm.graph.nodes if n.op == "call_function"
            and getattr(n.target, "namespace", None) in COLLECTIVE_NAMESPACES]


def saved_names(fw, num_fwd_outputs: int) -> list[str]:
    out = fw.graph.find_nodes(op="output")[0]
    leaves = [a for a in torch.utils._pytree.tree_leaves(list(out.args))
              if isinstance(a, torch.fx.Node)]
    return [a.name for a in leaves[num_fwd_outputs:]]


class Recorder:
    """Wraps a partition function; records what each call saved and where collectives went."""

    def __init__(self, inner):
        self.inner = inner
        self.graphs: list[dict] = []

    def __call__(self, gm, joint_inputs, **kwargs):
        joint_collectives = collectives(gm)
        joint_ops = collective_ops(gm)
        joint_objects = opaque_objects(gm)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", FallbackWarning)
            fw, bw = self.inner(gm, joint_inputs, **kwargs)
        self.graphs.append({
            "saved": saved_names(fw, kwargs["num_fwd_outputs"]),
            "joint_collectives": joint_collectives, "joint_ops": joint_ops,
            "joint_objects": joint_objects,
            "fw_collectives": collectives(fw), "bw_collectives": collectives(bw),
            "fallbacks": [str(w.message) for w in caught
                          if issubclass(w.category, FallbackWarning)],
        })
        return fw, bw


class RecordingInductorPartitioner(InductorPartitioner):
    def __init__(self, options=None):
        super().__init__(options)
        self.recorder = Recorder(super().__call__)

    def __call__(self, gm, joint_inputs, **kwargs):
        return self.recorder(gm, joint_inputs, **kwargs)


class LogRecords(logging.Handler):
    def __init__(self):
        super().__init__(logging.INFO)
        self.messages: list[str] = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def full(t: torch.Tensor) -> torch.Tensor:
    """A gradient as a plain tensor (FSDP2 gradients are sharded DTensors: gather them)."""
    return t.full_tensor().clone() if hasattr(t, "full_tensor") else t.detach().clone()


def train(model, call, rank: int, make_input=batch) -> list[list[torch.Tensor]]:
    """STEPS SGD steps of ``call(make_input(rank, step)).pow(2).mean()``; the gradients of
    every step, in parameter order."""
    opt = torch.optim.SGD(model.parameters(), lr=LR)
    grads = []
    for step in range(STEPS):
        opt.zero_grad(set_to_none=True)
        call(make_input(rank, step)).pow(2).mean().backward()
        grads.append([full(p.grad) for p in model.parameters()])
        opt.step()
    return grads


def compiled_and_eager(rank: int, build, wrap, make_input=batch, options=None) -> dict:
    """Train ``wrap(build())`` under torch.compile with a recording InductorPartitioner, and
    an identical ``wrap(build())`` uncompiled, on the same inputs."""
    torch.manual_seed(0)
    base = build()
    eager_model = wrap(copy.deepcopy(base))
    compiled_model = wrap(copy.deepcopy(base))
    partitioner = RecordingInductorPartitioner(options)
    torch._dynamo.reset()
    with torch._inductor.config.patch(custom_partitioner_fn=partitioner, fx_graph_cache=False,
                                      compile_threads=1), \
            torch._functorch.config.patch(enable_autograd_cache=False):
        got = train(compiled_model, torch.compile(compiled_model), rank, make_input)
    want = train(eager_model, eager_model, rank, make_input)
    return {"graphs": partitioner.recorder.graphs, "compiled_grads": got, "eager_grads": want}


def scenario_ddp(rank: int) -> dict:
    from torch.nn.parallel import DistributedDataParallel as DDP

    return compiled_and_eager(rank, Net, DDP)


def scenario_fsdp2(rank: int) -> dict:
    from torch.distributed.fsdp import fully_shard

    def wrap(model):
        for block in model.blocks:
            fully_shard(block)
        return fully_shard(model)

    return compiled_and_eager(rank, Net, wrap)


def scenario_sp(rank: int) -> dict:
    torch._functorch.config._sync_decision_cross_ranks = True
    return compiled_and_eager(rank, SequenceParallelMLP, lambda m: m,
                              functools.partial(batch, cols=16))


class TensorParallelMLP(nn.Module):
    def __init__(self, d: int = 16):
        super().__init__()
        self.a = nn.Linear(d, 4 * d)
        self.b = nn.Linear(4 * d, d)

    def forward(self, x):
        return self.b(torch.tanh(self.a(x)).tanh()).sin()


def scenario_tp(rank: int) -> dict:
    from torch.distributed.device_mesh import init_device_mesh
    from torch.distributed.tensor.parallel import (
        ColwiseParallel, RowwiseParallel, parallelize_module,
    )

    mesh = init_device_mesh("cpu", (dist.get_world_size(),))

    def wrap(model):
        return parallelize_module(model, mesh, {"a": ColwiseParallel(), "b": RowwiseParallel()})

    # tensor parallelism replicates the input: every rank trains on rank 0's batch
    return compiled_and_eager(rank, TensorParallelMLP, wrap,
                              lambda rank, step: batch(0, step, cols=16))


def _sp_function(x, w1, w2):
    return (torch.tanh(all_gather_rows(F.gelu(x @ w1) * 2) @ w2).sin()).sum()


def _local_function(x, w1, w2):
    return (torch.tanh((F.gelu(x @ w1) * 2) @ w2).sin()).sum()


def _other_function(x, w1, w2):  # rank 1's graph in the mismatch case: sin where tanh was
    return (torch.sin(all_gather_rows(F.gelu(x @ w1) * 2) @ w2).sin()).sum()


def _aot_run(fn, partition_fn, rank: int, dynamic: bool = False):
    """Gradients of ``fn`` eager and through aot_function with ``partition_fn``."""
    from functorch.compile import aot_function, nop

    torch.manual_seed(0)
    x = batch(rank, 0, cols=16)
    w1 = torch.randn(16, 32, requires_grad=True)
    w2 = torch.randn(32, 8, requires_grad=True)
    compiled = aot_function(fn, nop, nop, partition_fn=partition_fn, dynamic=dynamic)
    got = torch.autograd.grad(compiled(x, w1, w2), (w1, w2))
    want = torch.autograd.grad(fn(x, w1, w2), (w1, w2))
    return [g.clone() for g in got], [g.clone() for g in want]


def scenario_direct(rank: int) -> dict:
    torch._functorch.config._sync_decision_cross_ranks = True
    # rank 1 would save less (a byte budget of 0: the least-storage plan); with the flag it
    # takes rank 0's set
    options = Options() if rank == 0 else Options(memory_budget_bytes=0)
    out: dict = {}
    cap = fusioncut.capture(_sp_function, batch(rank, 0, cols=16),
                            torch.randn(16, 32, requires_grad=True),
                            torch.randn(32, 8, requires_grad=True), via="aot")
    own = fusioncut.decide(cap.joint_module, num_fwd_outputs=cap.num_fwd_outputs,
                           options=options)
    out["own_saved"] = [n.name for n in own.saved_nodes]
    recorder = Recorder(functools.partial(fusioncut.partition, options=options))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # BudgetWarning: a budget of 0 cannot be met
        out["sp_got"], out["sp_want"] = _aot_run(_sp_function, recorder, rank)
    out["sp_graphs"] = recorder.graphs
    sized = Recorder(functools.partial(fusioncut.partition_for_sizes, options=options,
                                       sizes=lambda plan: plan.hints()))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out["sized_got"], out["sized_want"] = _aot_run(_sp_function, sized, rank, dynamic=True)
    out["sized_graphs"] = sized.graphs
    local = Recorder(functools.partial(fusioncut.partition, options=options))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _aot_run(_local_function, local, rank)
    out["local_graphs"] = local.graphs
    mismatch = _other_function if rank == 1 else _sp_function
    try:
        _aot_run(mismatch, fusioncut.partition, rank)
        out["mismatch_error"] = None
    except Exception as e:  # noqa: BLE001 (the test reads what was raised)
        err = e
        while err is not None and type(err).__name__ != "StructureMismatchError":
            err = err.__cause__ or err.__context__
        out["mismatch_error"] = (type(err).__name__, str(err), err.rank, err.index) \
            if err is not None else (type(e).__name__, str(e), None, None)
    return out


SCENARIOS = {"ddp": scenario_ddp, "fsdp2": scenario_fsdp2, "sp": scenario_sp,
             "tp": scenario_tp, "direct": scenario_direct}


def main(argv: list[str]) -> int:
    scenario, rank, world, init_file, out_dir = argv
    rank, world = int(rank), int(world)
    faulthandler.dump_traceback_later(120, exit=True)  # a hang ends with a traceback
    warnings.filterwarnings("ignore", category=FutureWarning)
    handler = LogRecords()
    logger = logging.getLogger("fusioncut")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    dist.init_process_group("gloo", init_method=f"file://{init_file}", rank=rank,
                            world_size=world)
    try:
        result = SCENARIOS[scenario](rank)
        result["log"] = handler.messages
        result["hash_seed"] = os.environ.get("PYTHONHASHSEED")
        torch.save(result, os.path.join(out_dir, f"rank{rank}.pt"))
        code = 0
    except BaseException:
        with open(os.path.join(out_dir, f"rank{rank}.err"), "w") as f:
            f.write(traceback.format_exc())
        code = 1
    dist.destroy_process_group()
    return code


if __name__ == "__main__":
    code = main(sys.argv[1:])
    sys.stdout.flush()
    sys.stderr.flush()
    # Skip interpreter teardown: gloo's threads sometimes abort it ("terminate called without
    # an active exception") after everything was written.
    os._exit(code)


def launch(scenario: str, directory: str, world: int = 2, timeout_s: float = 150.0
           ) -> list[dict]:
    """Run SCENARIO on ``world`` ranks, each its own interpreter with its own PYTHONHASHSEED;
    return each rank's results. Raises AssertionError with a rank's traceback if one failed,
    and kills every rank still running after ``timeout_s`` (a hang fails, never blocks)."""
    import subprocess
    import time

    init = os.path.join(directory, "init")
    procs, logs = [], []
    for rank in range(world):
        env = dict(os.environ, PYTHONHASHSEED=str(rank + 1), OMP_NUM_THREADS="1",
                   TORCHINDUCTOR_COMPILE_THREADS="1")
        log = open(os.path.join(directory, f"rank{rank}.log"), "w")
        logs.append(log)
        procs.append(subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), scenario, str(rank), str(world), init,
             directory], env=env, stdout=log, stderr=subprocess.STDOUT))
    deadline = time.monotonic() + timeout_s
    try:
        for p in procs:
            p.wait(timeout=max(1.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        pass
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
        for log in logs:
            log.close()
    failures = []
    for rank, p in enumerate(procs):
        err = os.path.join(directory, f"rank{rank}.err")
        if os.path.exists(err):
            with open(err) as f:
                failures.append(f"rank {rank} failed:\n{f.read()}")
        elif p.returncode != 0:
            with open(os.path.join(directory, f"rank{rank}.log")) as f:
                tail = f.read()[-4000:]
            failures.append(f"rank {rank} exited with {p.returncode} (killed after "
                            f"{timeout_s:.0f} s if negative):\n{tail}")
    if failures:
        raise AssertionError(f"{scenario}: " + "\n".join(failures))
    return [torch.load(os.path.join(directory, f"rank{rank}.pt"), weights_only=False)
            for rank in range(world)]
