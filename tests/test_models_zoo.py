"""fusioncut.models: every GPT the project used to define is a style of the one GPT, tracing
the same joint graph; the new models (Llama-like, bottleneck ResNet) are what they claim."""

import hashlib

import pytest

torch = pytest.importorskip("torch")

from functorch.compile import aot_module, default_partition, nop  # noqa: E402

from fusioncut import models  # noqa: E402
from fusioncut.demo import DemoConfig, DemoGPT, demo_inputs  # noqa: E402
from fusioncut.models.layers import apply_rotary, rotary_tables  # noqa: E402


def joint_fingerprint(module, *args) -> str:
    """sha256 over the joint graph's nodes: op, target, name, meta shape and dtype, and the
    arguments with nodes replaced by their position."""
    graphs = []

    def record(jm, ji, *, num_fwd_outputs, **kw):
        graphs.append((jm.graph, num_fwd_outputs))
        return default_partition(jm, ji, num_fwd_outputs=num_fwd_outputs)

    aot_module(module, fw_compiler=nop, bw_compiler=nop, partition_fn=record)(*args)
    ((graph, n),) = graphs
    index = {}

    def arg(a):
        if isinstance(a, torch.fx.Node):
            return f"%{index[a]}"
        if isinstance(a, (list, tuple)):
            return [arg(x) for x in a]
        if isinstance(a, dict):
            return sorted((k, arg(v)) for k, v in a.items())
        return repr(a)

    def meta(v):
        if isinstance(v, torch.Tensor):
            return (tuple(v.shape), str(v.dtype))
        if isinstance(v, (list, tuple)):
            return [meta(x) for x in v]
        return type(v).__name__

    h = hashlib.sha256(str(n).encode())
    for i, node in enumerate(graph.nodes):
        index[node] = i
        h.update(repr((node.op, str(node.target), node.name, meta(node.meta.get("val")),
                       arg(node.args), arg(node.kwargs))).encode())
    return h.hexdigest()[:16]


# Fingerprints of the former definitions (demo.py's DemoGPT, tests/models.py's GPT,
# record_torch_networks.py's GPT, train_models.py's GPT2), taken with torch 2.13.0 before
# they were replaced by the zoo, and of the same models on each later torch. Node names and
# argument order depend on torch's tracer: 2.15 traces the reshape after a biased addmm as
# aten._unsafe_view (aten.view before), and nothing else differs.
_FORMER_213 = {"demo": "47c2473fc55c05e6", "tests": "10674c25779ffeeb",
               "record": "eaefa52516a88280", "gpt2": "cd0a4b93ffc34237"}
FORMER = {
    (2, 13): _FORMER_213,
    (2, 14): _FORMER_213,
    (2, 15): {**_FORMER_213, "tests": "da5fd3bd012949ad", "record": "71f3dd4b94cf893c",
              "gpt2": "811096263f6ef7a9"},
}


def _style_cases():
    idx = torch.randint(0, 64, (2, 16), generator=torch.Generator().manual_seed(0))
    c = DemoConfig(n_layer=2, d_model=32, n_head=4, block_size=16, vocab=64, batch=2)
    yield "demo", lambda: (DemoGPT(c), demo_inputs(c))
    t = models.GPTConfig(n_layer=2, dropout=0.1)
    yield "tests", lambda: (models.GPT(t), models.gpt_inputs(t))
    r = models.gpt_config("record", n_layer=2, d_model=32, n_head=2, block_size=16, vocab=64,
                          dropout=0.1)
    yield "record", lambda: (models.GPT(r), (idx, idx))
    g = models.gpt_config("gpt2", n_layer=1, d_model=32, n_head=2, vocab=64, block_size=8)
    tiny_idx = torch.randint(0, 64, (2, 8), generator=torch.Generator().manual_seed(0))
    yield "gpt2", lambda: (models.GPT(g), (tiny_idx,))


@pytest.mark.parametrize("style,build", list(_style_cases()), ids=[s for s, _ in _style_cases()])
def test_gpt_style_traces_the_joint_graph_of_its_former_definition(style, build):
    version = tuple(int(p) for p in torch.__version__.split("+")[0].split(".")[:2])
    if version not in FORMER:
        pytest.skip(f"no fingerprints recorded for torch {torch.__version__} (recorded: "
                    f"{sorted(FORMER)})")
    torch.manual_seed(0)
    module, inputs = build()
    assert joint_fingerprint(module, *inputs) == FORMER[version][style]


def test_gpt_config_names_a_bad_choice():
    with pytest.raises(ValueError, match="GPTConfig: head = 'tied' is not one of"):
        models.GPTConfig(head="tied")
    with pytest.raises(ValueError, match="d_model = 10 is not a multiple of n_head = 4"):
        models.GPTConfig(d_model=10, n_head=4)
    with pytest.raises(ValueError, match="gpt_config: style = 'nano'"):
        models.gpt_config("nano")


def test_gpt_heads_compute_the_same_logits_whatever_their_spelling():
    base = dict(n_layer=1, d_model=16, n_head=2, block_size=8, vocab=32)
    idx, _ = models.gpt_inputs(models.GPTConfig(**base))
    torch.manual_seed(0)
    matmul = models.GPT(models.GPTConfig(**base))
    torch.manual_seed(0)
    linear = models.GPT(models.GPTConfig(**base, head="linear", attention="sdpa", merge="reshape"))
    torch.testing.assert_close(matmul(idx), linear(idx))
    untied = models.GPT(models.GPTConfig(**base, head="untied"))
    assert untied.head.weight.shape == (32, 16) and untied.head.weight is not untied.wte.weight


def test_llama_written_attention_matches_sdpa_and_tied_head_shares_the_embedding():
    cfg = models.LlamaConfig(vocab=64, block_size=16, d_model=32, n_head=2, n_layer=2)
    idx, targets = models.llama_inputs(cfg)
    torch.manual_seed(0)
    sdpa = models.Llama(cfg)
    torch.manual_seed(0)
    written = models.Llama(models.LlamaConfig(**{**cfg.__dict__, "attention": "written"}))
    torch.testing.assert_close(sdpa(idx, targets), written(idx, targets))
    assert cfg.hidden == 96  # 8/3 * 32 rounded up to a multiple of 32
    tied = models.Llama(models.LlamaConfig(**{**cfg.__dict__, "tie_head": True}))
    assert not hasattr(tied, "head") and tied(idx).shape == (2, 16, 64)
    with pytest.raises(ValueError, match="sequence length 32 exceeds block_size 16"):
        sdpa(torch.zeros(1, 32, dtype=torch.long))


def test_rotary_keeps_position_zero_and_norms():
    cos, sin = rotary_tables(8, 4)
    x = torch.randn(1, 1, 8, 4)
    y = apply_rotary(x, cos, sin)
    torch.testing.assert_close(y[..., 0, :], x[..., 0, :])
    torch.testing.assert_close(y.norm(dim=-1), x.norm(dim=-1))
    # the score between positions depends only on their distance
    q, k = torch.randn(4), torch.randn(4)
    rq = apply_rotary(q.expand(1, 1, 8, 4), cos, sin)[0, 0]
    rk = apply_rotary(k.expand(1, 1, 8, 4), cos, sin)[0, 0]
    torch.testing.assert_close(rq[3] @ rk[1], rq[6] @ rk[4])


def test_resnet_layouts_have_the_published_parameter_counts():
    def count(m):
        return sum(p.numel() for p in m.parameters())

    assert count(models.resnet("resnet18")) == 11_689_512
    assert count(models.resnet("resnet50")) == 25_557_032
    small = models.ResNet((1, 1), (4, 8), num_classes=10, imagenet_stem=False, block="bottleneck")
    assert small(torch.randn(2, 3, 8, 8)).shape == (2, 10)
    with pytest.raises(ValueError, match="block = 'wide'"):
        models.ResNet((1,), (4,), 10, False, block="wide")
