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

from fusioncut.models import GPT, Llama, LlamaConfig, gpt_config, gpt_inputs, llama_inputs, resnet

try:
    import transformers  # the bench extra; only the hf-* models need it
except ImportError:
    transformers = None

__all__ = ["MODELS", "build"]

MODELS = ("gpt", "llama-sdpa", "llama-written", "resnet18", "hf-gpt2", "hf-llama", "hf-t5")
# Models the estimate was never shaped on (not in the default run): a check of the margin.
UNSEEN = ("hf-bert", "hf-mistral", "hf-gptneox", "hf-opt")


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


def _hf(name: str, quick: bool):
    if transformers is None:
        raise ImportError(f"peak_models.build: {name} needs transformers (the bench extra)")
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
    g = torch.Generator().manual_seed(0)
    ids = torch.randint(0, vocab, (batch, seq), generator=g)
    labels = torch.randint(0, vocab, (batch, seq), generator=g)
    return model, (ids, labels)


def build(name: str, quick: bool = False):
    """``(module, inputs)`` of the model ``name`` (one of ``MODELS``), seeded."""
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
    if name in ("hf-gpt2", "hf-llama", "hf-t5") + UNSEEN:
        return _hf(name, quick)
    raise ValueError(f"peak_models.build: name = {name!r} is not one of {MODELS + UNSEEN}")
