"""The models whose measured peak memory the budget benchmarks compare with fusioncut's
estimate: the zoo's GPT and Llama (fused and written-out attention), a ResNet-18 layout, and
GPT-2, Llama and T5 from Hugging Face transformers built from tiny configs (random weights:
nothing is downloaded).

``build(name, quick=False)`` returns ``(module, inputs)``, seeded; the module's output is a
scalar loss (ResNet's logits are summed by the step). The transformers models return logits
and the cross-entropy is taken here, outside Hugging Face's loss code, so that each compiles
to one graph (no graph break: one joint graph per step, whose peak is the step's). Sizes are
the issue's: batch 8, sequence 256 for the transformers models; ``quick`` shrinks every model
for a smoke test.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

from fusioncut.models import (GPT, Autocast, Llama, LlamaConfig, gpt_config, gpt_inputs,
                              llama_inputs, resnet)

try:
    import transformers  # the bench extra; only the hf-* models need it
except ImportError:
    transformers = None

__all__ = ["ALL", "MIXED", "MODELS", "TEST_EXTRA", "UNSEEN", "UNSEEN_LATER", "UNSEEN_NEWER",
           "UNSEEN_SHAPES", "UNSEEN_VISION", "build"]

MODELS = ("gpt", "llama-sdpa", "llama-written", "resnet18", "hf-gpt2", "hf-llama", "hf-t5")
# Models the estimate was never shaped on (not in the default run): a check of the margin.
UNSEEN = ("hf-bert", "hf-mistral", "hf-gptneox", "hf-opt")
# Twelve more, measured first on 2026-11-28 to re-derive ``Options.peak_margin``.
UNSEEN_LATER = ("hf-qwen2", "hf-qwen3", "hf-gemma", "hf-phi", "hf-falcon", "hf-gptj",
                "hf-bloom", "hf-gptneo", "hf-stablelm", "hf-roberta", "hf-electra", "hf-bart")
# The rest of the test extra's transformers models (tests/test_zoo_transformers.py), measured
# first on 2026-11-28: a vision transformer and a speech encoder-decoder.
TEST_EXTRA = ("hf-vit", "hf-whisper")
# Six more, measured first on 2026-11-28 (later): two mixtures of experts (top-2 routing over
# four experts, Qwen2-MoE with a shared expert), Gemma 2 (logit soft-capping, sliding windows),
# OLMo 2 (norms after attention and MLP), ModernBERT (alternating local attention) and DeBERTa
# v2 (disentangled relative attention).
UNSEEN_NEWER = ("hf-mixtral", "hf-qwen2moe", "hf-gemma2", "hf-olmo2", "hf-modernbert",
                "hf-deberta")
# Five image classifiers from transformers, measured first on 2026-11-28 (the stop after):
# convolution networks the estimate was not shaped on (the zoo's one is the ResNet-18 layout),
# built without torchvision: ConvNeXt (depthwise 7 x 7, layer norm), ResNet, MobileNet v2
# (inverted residuals, ReLU6), RegNet (grouped convolutions) and a Swin transformer (shifted
# windows).
UNSEEN_VISION = ("hf-convnext", "hf-resnet", "hf-mobilenetv2", "hf-regnet", "hf-swin")
# Six more, measured first on 2026-11-28 (a later session), at another shape than every model
# above: three layers, d 96, six heads (two key-value heads where the model groups them),
# vocab 1024, batch 4, sequence 384 (attention's share of the memory grows with the sequence):
# Phi-3 (fused QKV and gate-up projections), StarCoder2 (GELU MLP with biases, layer norm),
# Granite (scaled residuals and logits), GPT-BigCode (multi-query attention), Cohere (attention
# and MLP in parallel off one layer norm) and SmolLM3 (no rotary embedding on every fourth
# layer).
UNSEEN_SHAPES = ("hf-phi3", "hf-starcoder2", "hf-granite", "hf-gptbigcode", "hf-cohere",
                 "hf-smollm3")
# Mixed precision, as transformers are trained: a model above with its forward under
# ``torch.autocast`` to bfloat16 on the CPU (matmuls and their outputs in bfloat16, weights cast
# in the graph, norms, softmax and the loss in float32), the loss returned in float32. Any name
# above with ``+bf16`` builds so; these are the ones measured first (2026-11-28, late).
MIXED = ("gpt+bf16", "llama-sdpa+bf16", "hf-gpt2+bf16", "hf-llama+bf16", "hf-t5+bf16",
         "hf-mistral+bf16", "hf-qwen2+bf16", "hf-bert+bf16")
ALL = (MODELS + UNSEEN + UNSEEN_LATER + UNSEEN_NEWER + UNSEEN_VISION + UNSEEN_SHAPES
       + TEST_EXTRA + MIXED)


class CausalLM(torch.nn.Module):
    """A Hugging Face model's logits, then the mean cross-entropy against ``labels``;
    ``seq2seq`` feeds the labels as decoder inputs (teacher forcing)."""

    def __init__(self, model: torch.nn.Module, seq2seq: bool = False):
        super().__init__()
        self.model = model
        self.seq2seq = seq2seq

    def forward(self, ids, labels):
        if self.seq2seq:
            logits = self.model(input_ids=ids, decoder_input_ids=labels).logits
        else:
            logits = self.model(input_ids=ids).logits
        return F.cross_entropy(logits.flatten(0, 1), labels.flatten())


class Classifier(torch.nn.Module):
    """A Hugging Face image classifier's logits, then the mean cross-entropy."""

    def __init__(self, model: torch.nn.Module):
        super().__init__()
        self.model = model

    def forward(self, pixels, labels):
        return F.cross_entropy(self.model(pixel_values=pixels).logits, labels)


class SpeechToText(torch.nn.Module):
    """A Hugging Face speech encoder-decoder's logits on teacher-forced labels, then the mean
    cross-entropy."""

    def __init__(self, model: torch.nn.Module):
        super().__init__()
        self.model = model

    def forward(self, features, labels):
        logits = self.model(input_features=features, decoder_input_ids=labels).logits
        return F.cross_entropy(logits.flatten(0, 1), labels.flatten())


def _test_extra(name: str, quick: bool, g: torch.Generator):
    """One of ``TEST_EXTRA`` at the benchmark's sizes: ViT on 8 images of 64 x 64 (patches of 8:
    65 tokens), Whisper on 8 clips of 256 frames (128 encoder positions) with 256 target tokens;
    two layers (two each for Whisper's encoder and decoder), d 64, four heads, no dropout."""
    tf = transformers
    batch, d = (2, 32) if quick else (8, 64)
    if name == "hf-vit":
        side, classes = (16, 5) if quick else (64, 10)
        cfg = tf.ViTConfig(image_size=side, patch_size=4 if quick else 8, num_channels=3,
                           hidden_size=d, num_hidden_layers=2, num_attention_heads=4,
                           intermediate_size=2 * d, hidden_dropout_prob=0.0,
                           attention_probs_dropout_prob=0.0, num_labels=classes)
        return Classifier(tf.ViTForImageClassification(cfg)), (
            torch.randn(batch, 3, side, side, generator=g),
            torch.randint(0, classes, (batch,), generator=g))
    frames, seq, vocab, mels = (16, 16, 128, 8) if quick else (256, 256, 512, 16)
    cfg = tf.WhisperConfig(vocab_size=vocab, num_mel_bins=mels, encoder_layers=2,
                           decoder_layers=2, encoder_attention_heads=4, decoder_attention_heads=4,
                           d_model=d, encoder_ffn_dim=2 * d, decoder_ffn_dim=2 * d,
                           max_source_positions=frames // 2, max_target_positions=seq,
                           dropout=0.0, attention_dropout=0.0, activation_dropout=0.0,
                           decoder_start_token_id=1, pad_token_id=0, bos_token_id=1,
                           eos_token_id=2)
    return SpeechToText(tf.WhisperForConditionalGeneration(cfg)), (
        torch.randn(batch, mels, frames, generator=g),
        torch.randint(3, vocab, (batch, seq), generator=g))


def _vision(name: str, quick: bool, g: torch.Generator):
    """One of ``UNSEEN_VISION``: 8 images of 64 x 64 (2 of 32 x 32 ``quick``), 10 classes,
    four stages (two for Swin), no dropout."""
    tf = transformers
    batch, side, classes = (2, 32, 10) if quick else (8, 64, 10)
    widths = [8, 16, 32, 64] if quick else [32, 64, 128, 256]
    if name == "hf-convnext":
        model = tf.ConvNextForImageClassification(tf.ConvNextConfig(
            hidden_sizes=widths, depths=[1, 1, 2, 1], num_labels=classes))
    elif name == "hf-resnet":
        model = tf.ResNetForImageClassification(tf.ResNetConfig(
            embedding_size=widths[0], hidden_sizes=widths, depths=[1, 1, 1, 1],
            layer_type="basic", num_labels=classes))
    elif name == "hf-mobilenetv2":
        model = tf.MobileNetV2ForImageClassification(tf.MobileNetV2Config(
            image_size=side, depth_multiplier=0.25 if quick else 0.5, num_labels=classes,
            classifier_dropout_prob=0.0))
    elif name == "hf-regnet":
        model = tf.RegNetForImageClassification(tf.RegNetConfig(
            embedding_size=widths[0], hidden_sizes=widths, depths=[1, 1, 2, 1],
            groups_width=8, num_labels=classes))
    else:
        model = tf.SwinForImageClassification(tf.SwinConfig(
            image_size=side, patch_size=4, embed_dim=widths[1] // 2, depths=[2, 2],
            num_heads=[2, 4], window_size=4, drop_path_rate=0.0, hidden_dropout_prob=0.0,
            attention_probs_dropout_prob=0.0, num_labels=classes))
    return Classifier(model), (torch.randn(batch, 3, side, side, generator=g),
                               torch.randint(0, classes, (batch,), generator=g))


def _later(name: str, vocab: int, seq: int, d: int) -> torch.nn.Module:
    """One of ``UNSEEN_LATER``: two layers (one encoder and one decoder layer for BART), four
    heads (two key-value heads where the model groups them), no dropout."""
    tf = transformers
    common = dict(vocab_size=vocab, hidden_size=d, num_hidden_layers=2, num_attention_heads=4,
                  intermediate_size=2 * d, max_position_embeddings=seq)
    no_drop = dict(hidden_dropout=0.0, attention_dropout=0.0)
    if name == "hf-qwen2":
        return CausalLM(tf.Qwen2ForCausalLM(tf.Qwen2Config(num_key_value_heads=2, **common)))
    if name == "hf-qwen3":
        return CausalLM(tf.Qwen3ForCausalLM(tf.Qwen3Config(num_key_value_heads=2, head_dim=d // 4,
                                                           **common)))
    if name == "hf-gemma":
        return CausalLM(tf.GemmaForCausalLM(tf.GemmaConfig(num_key_value_heads=2, head_dim=d // 4,
                                                           **common)))
    if name == "hf-phi":
        return CausalLM(tf.PhiForCausalLM(tf.PhiConfig(resid_pdrop=0.0, embd_pdrop=0.0,
                                                       attention_dropout=0.0, **common)))
    if name == "hf-stablelm":
        return CausalLM(tf.StableLmForCausalLM(tf.StableLmConfig(num_key_value_heads=2, **no_drop,
                                                                 **common)))
    if name == "hf-falcon":
        return CausalLM(tf.FalconForCausalLM(tf.FalconConfig(
            vocab_size=vocab, hidden_size=d, num_hidden_layers=2, num_attention_heads=4,
            **no_drop)))
    if name == "hf-bloom":
        return CausalLM(tf.BloomForCausalLM(tf.BloomConfig(vocab_size=vocab, hidden_size=d,
                                                           n_layer=2, n_head=4, **no_drop)))
    if name == "hf-gptj":
        return CausalLM(tf.GPTJForCausalLM(tf.GPTJConfig(
            vocab_size=vocab, n_embd=d, n_layer=2, n_head=4, n_positions=seq, rotary_dim=8,
            resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0, bos_token_id=0, eos_token_id=0)))
    if name == "hf-gptneo":
        return CausalLM(tf.GPTNeoForCausalLM(tf.GPTNeoConfig(
            vocab_size=vocab, hidden_size=d, num_layers=2, num_heads=4,
            max_position_embeddings=seq, attention_types=[[["global", "local"], 1]],
            window_size=seq // 4, resid_dropout=0.0, embed_dropout=0.0, attention_dropout=0.0,
            bos_token_id=0, eos_token_id=0)))
    if name in ("hf-roberta", "hf-electra"):
        drop = dict(hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0)
        if name == "hf-roberta":  # its positions start after the padding index
            cfg = tf.RobertaConfig(**drop, **{**common, "max_position_embeddings": seq + 2})
            return CausalLM(tf.RobertaForMaskedLM(cfg))
        cfg = tf.ElectraConfig(embedding_size=d, **drop, **common)
        return CausalLM(tf.ElectraForMaskedLM(cfg))
    cfg = tf.BartConfig(vocab_size=vocab, d_model=d, encoder_layers=1, decoder_layers=1,
                        encoder_attention_heads=4, decoder_attention_heads=4,
                        encoder_ffn_dim=2 * d, decoder_ffn_dim=2 * d, max_position_embeddings=seq,
                        dropout=0.0, attention_dropout=0.0, activation_dropout=0.0)
    return CausalLM(tf.BartForConditionalGeneration(cfg), seq2seq=True)


def _newer(name: str, vocab: int, seq: int, d: int) -> torch.nn.Module:
    """One of ``UNSEEN_NEWER``, built like ``_later``'s models."""
    tf = transformers
    common = dict(vocab_size=vocab, hidden_size=d, num_hidden_layers=2, num_attention_heads=4,
                  intermediate_size=2 * d, max_position_embeddings=seq)
    if name == "hf-mixtral":
        return CausalLM(tf.MixtralForCausalLM(tf.MixtralConfig(
            num_key_value_heads=2, num_local_experts=4, num_experts_per_tok=2, **common)))
    if name == "hf-qwen2moe":
        return CausalLM(tf.Qwen2MoeForCausalLM(tf.Qwen2MoeConfig(
            num_key_value_heads=2, num_experts=4, num_experts_per_tok=2, moe_intermediate_size=d,
            shared_expert_intermediate_size=d, **common)))
    if name == "hf-gemma2":
        return CausalLM(tf.Gemma2ForCausalLM(tf.Gemma2Config(
            num_key_value_heads=2, head_dim=d // 4, sliding_window=seq // 2, **common)))
    if name == "hf-olmo2":
        return CausalLM(tf.Olmo2ForCausalLM(tf.Olmo2Config(
            num_key_value_heads=2, pad_token_id=0, bos_token_id=0, eos_token_id=0, **common)))
    if name == "hf-modernbert":
        return CausalLM(tf.ModernBertForMaskedLM(tf.ModernBertConfig(pad_token_id=0, **common)))
    return CausalLM(tf.DebertaV2ForMaskedLM(tf.DebertaV2Config(
        hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0, **common)))


def _tokens(vocab: int, batch: int, seq: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Seeded token ids and labels of a language model, (batch, seq) each."""
    g = torch.Generator().manual_seed(0)
    return (torch.randint(0, vocab, (batch, seq), generator=g),
            torch.randint(0, vocab, (batch, seq), generator=g))


def _shapes(name: str, quick: bool):
    """One of ``UNSEEN_SHAPES``, with its inputs (see there for the shape; ``quick``: one
    layer, d 48, batch 2, sequence 32)."""
    tf = transformers
    layers, batch, seq, vocab, d = (1, 2, 32, 128, 48) if quick else (3, 4, 384, 1024, 96)
    common = dict(vocab_size=vocab, hidden_size=d, num_hidden_layers=layers,
                  num_attention_heads=6, intermediate_size=3 * d, max_position_embeddings=seq)
    if name == "hf-phi3":
        model = tf.Phi3ForCausalLM(tf.Phi3Config(
            num_key_value_heads=2, resid_pdrop=0.0, embd_pdrop=0.0, attention_dropout=0.0,
            pad_token_id=0, bos_token_id=0, eos_token_id=0, **common))
    elif name == "hf-starcoder2":
        model = tf.Starcoder2ForCausalLM(tf.Starcoder2Config(
            num_key_value_heads=2, residual_dropout=0.0, embedding_dropout=0.0,
            attention_dropout=0.0, bos_token_id=0, eos_token_id=0, **common))
    elif name == "hf-granite":
        model = tf.GraniteForCausalLM(tf.GraniteConfig(
            num_key_value_heads=2, embedding_multiplier=2.0, residual_multiplier=0.5,
            attention_multiplier=0.1, logits_scaling=4.0, pad_token_id=0, bos_token_id=0,
            eos_token_id=0, **common))
    elif name == "hf-gptbigcode":
        model = tf.GPTBigCodeForCausalLM(tf.GPTBigCodeConfig(
            vocab_size=vocab, n_positions=seq, n_embd=d, n_layer=layers, n_head=6,
            n_inner=3 * d, multi_query=True, resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0,
            bos_token_id=0, eos_token_id=0))
    elif name == "hf-cohere":
        model = tf.CohereForCausalLM(tf.CohereConfig(
            num_key_value_heads=2, pad_token_id=0, bos_token_id=0, eos_token_id=0, **common))
    else:
        model = tf.SmolLM3ForCausalLM(tf.SmolLM3Config(
            num_key_value_heads=2, pad_token_id=0, bos_token_id=0, eos_token_id=0, **common))
    return CausalLM(model), _tokens(vocab, batch, seq)


def _hf(name: str, quick: bool):
    batch, seq, vocab, d = (2, 32, 128, 32) if quick else (8, 256, 512, 64)
    if name == "hf-gpt2":
        cfg = transformers.GPT2Config(vocab_size=vocab, n_positions=seq, n_embd=d, n_layer=2,
                                      n_head=4, resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0,
                                      bos_token_id=0, eos_token_id=0)
        model = CausalLM(transformers.GPT2LMHeadModel(cfg))
    elif name == "hf-llama":
        cfg = transformers.LlamaConfig(vocab_size=vocab, hidden_size=d, intermediate_size=2 * d,
                                       num_hidden_layers=2, num_attention_heads=4,
                                       num_key_value_heads=2, max_position_embeddings=seq,
                                       attention_dropout=0.0, bos_token_id=0, eos_token_id=0)
        model = CausalLM(transformers.LlamaForCausalLM(cfg))
    elif name == "hf-bert":
        cfg = transformers.BertConfig(vocab_size=vocab, hidden_size=d, num_hidden_layers=2,
                                      num_attention_heads=4, intermediate_size=2 * d,
                                      max_position_embeddings=seq, hidden_dropout_prob=0.0,
                                      attention_probs_dropout_prob=0.0)
        model = CausalLM(transformers.BertForMaskedLM(cfg))
    elif name == "hf-mistral":
        cfg = transformers.MistralConfig(vocab_size=vocab, hidden_size=d, intermediate_size=2 * d,
                                         num_hidden_layers=2, num_attention_heads=4,
                                         num_key_value_heads=2, max_position_embeddings=seq,
                                         sliding_window=seq // 2, attention_dropout=0.0,
                                         bos_token_id=0, eos_token_id=0)
        model = CausalLM(transformers.MistralForCausalLM(cfg))
    elif name == "hf-gptneox":
        cfg = transformers.GPTNeoXConfig(vocab_size=vocab, hidden_size=d, num_hidden_layers=2,
                                         num_attention_heads=4, intermediate_size=2 * d,
                                         max_position_embeddings=seq, hidden_dropout=0.0,
                                         attention_dropout=0.0, bos_token_id=0, eos_token_id=0)
        model = CausalLM(transformers.GPTNeoXForCausalLM(cfg))
    elif name in UNSEEN_LATER:
        model = _later(name, vocab, seq, d)
    elif name in UNSEEN_NEWER:
        model = _newer(name, vocab, seq, d)
    elif name == "hf-opt":
        cfg = transformers.OPTConfig(vocab_size=vocab, hidden_size=d, num_hidden_layers=2,
                                     ffn_dim=2 * d, num_attention_heads=4,
                                     max_position_embeddings=seq, dropout=0.0,
                                     attention_dropout=0.0, word_embed_proj_dim=d,
                                     bos_token_id=0, eos_token_id=0, pad_token_id=1)
        model = CausalLM(transformers.OPTForCausalLM(cfg))
    else:
        cfg = transformers.T5Config(vocab_size=vocab, d_model=d, d_kv=d // 4, d_ff=2 * d,
                                    num_layers=2, num_decoder_layers=2, num_heads=4,
                                    dropout_rate=0.0, decoder_start_token_id=0, pad_token_id=0,
                                    eos_token_id=1)
        model = CausalLM(transformers.T5ForConditionalGeneration(cfg), seq2seq=True)
    return model, _tokens(vocab, batch, seq)


def build(name: str, quick: bool = False):
    """``(module, inputs)`` of the model ``name`` (one of ``ALL``; any of them with ``+bf16``
    runs under bfloat16 autocast), seeded."""
    if name.endswith("+bf16"):
        module, inputs = build(name[:-len("+bf16")], quick)
        return Autocast(module), inputs
    torch.manual_seed(0)
    if name == "gpt":
        cfg = gpt_config("demo", n_layer=2 if quick else 4, d_model=64, n_head=4,
                         block_size=64, vocab=128)
        return GPT(cfg), gpt_inputs(cfg, batch=4)
    if name in ("llama-sdpa", "llama-written"):
        cfg = LlamaConfig(n_layer=2 if quick else 4, d_model=64, n_head=4, block_size=64,
                          vocab=128, attention=name.split("-")[1])
        return Llama(cfg), llama_inputs(cfg, batch=4)
    if name == "resnet18":
        widths = (8, 16, 32, 64) if quick else (32, 64, 128, 256)
        model = resnet("resnet18", num_classes=10, widths=widths, imagenet_stem=False)
        return model, (torch.randn(2 if quick else 8, 3, 32, 32),)
    if name not in ALL:
        raise ValueError(f"peak_models.build: name = {name!r} is not one of {ALL}")
    if transformers is None:  # every other model is a transformers one
        raise ImportError(f"peak_models.build: {name} needs transformers (the bench extra)")
    if name in TEST_EXTRA:
        return _test_extra(name, quick, torch.Generator().manual_seed(0))
    if name in UNSEEN_SHAPES:
        return _shapes(name, quick)
    if name in UNSEEN_VISION:
        return _vision(name, quick, torch.Generator().manual_seed(0))
    return _hf(name, quick)
