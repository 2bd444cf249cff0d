"""fusioncut's model zoo: the models the demo, the tests and the benchmarks trace.

One definition of each, so that a benchmark, a test and the demo that name the same model
trace the same joint graph. Everything is plain ``torch.nn`` (no torchvision, no transformers).

    gpt        GPT, GPTConfig, gpt_config(style), STYLES, gpt_inputs: one configurable GPT;
               each GPT the project uses is a style (tests, demo, record, gpt2)
    llama      Llama, LlamaConfig, llama_inputs: RMSNorm, SwiGLU, rotary embeddings
    encoder    transformer_encoder: a stack of nn.TransformerEncoderLayer
    resnet     ResNet (basic or bottleneck blocks), resnet("resnet18" | "resnet50" | ...)
    small      the seed patterns (CosCos, TanhTanh, GeLU, DropoutLike) and small graph
               shapes (MLP, ConvBN, EvoNormS0, LSTMUnrolled, InPlace, MultiOutput,
               DropoutMLP, NoBackwardWork)
    layers     RMSNorm, gelu_tanh, rotary tables, causal attention (written out or fused),
               Autocast (any model trained in mixed precision)

Needs torch (imported by nothing else in fusioncut but ``fusioncut.demo``).
"""

from fusioncut.models.encoder import transformer_encoder
from fusioncut.models.gpt import GPT, STYLES, GPTConfig, gpt_config, gpt_inputs
from fusioncut.models.layers import Autocast, RMSNorm, gelu_tanh
from fusioncut.models.llama import Llama, LlamaConfig, llama_inputs
from fusioncut.models.resnet import LAYOUTS, BasicBlock, Bottleneck, ResNet, resnet
from fusioncut.models.small import (
    MLP, ConvBN, CosCos, DropoutLike, DropoutMLP, EvoNormS0, GeLU, InPlace, LSTMUnrolled,
    MultiOutput, NoBackwardWork, TanhTanh, dropout_like_grads,
)

__all__ = [
    "GPT", "LAYOUTS", "MLP", "STYLES", "Autocast", "BasicBlock", "Bottleneck", "ConvBN",
    "CosCos", "DropoutLike", "DropoutMLP", "EvoNormS0", "GPTConfig", "GeLU", "InPlace",
    "LSTMUnrolled", "Llama", "LlamaConfig", "MultiOutput", "NoBackwardWork", "RMSNorm", "ResNet", "TanhTanh",
    "dropout_like_grads", "gelu_tanh", "gpt_config", "gpt_inputs", "llama_inputs", "resnet",
    "transformer_encoder",
]
