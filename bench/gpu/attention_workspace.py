"""What the CUDA attention kernels allocate beyond their inputs and outputs (issue 19: the
estimate missed a backward workspace of ``_efficient_attention_backward`` on an H100).

    python bench/gpu/attention_workspace.py --json out.json

For each shape (batch, heads, query and key length, head size; a float attention bias of
shape (B, 1|H, M, N) or none; causal or not), in float32 and bfloat16, one forward and one
backward call of ``aten._scaled_dot_product_efficient_attention`` (and the flash kernel where
the dtype allows), each under the profiler: every allocation inside the call (bytes), the
call's peak above its start, and its outputs' bytes. Workspace = peak - outputs.
"""

from __future__ import annotations

import argparse
import json
import sys

import torch
from torch.profiler import ProfilerActivity, profile

aten = torch.ops.aten


def _allocations(fn):
    torch.cuda.synchronize()
    base = torch.cuda.memory_allocated()
    torch.cuda.reset_peak_memory_stats()
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        out = fn()
        torch.cuda.synchronize()
    events = [e for e in prof.profiler.kineto_results.events()
              if e.name() == "[memory]" and str(e.device_type()).endswith("CUDA")]
    sizes = [e.nbytes() for e in sorted(events, key=lambda e: e.start_ns()) if e.nbytes() > 0]
    return out, torch.cuda.max_memory_allocated() - base, sizes


def _nbytes(xs):
    return sum(x.numel() * x.element_size() for x in xs
               if isinstance(x, torch.Tensor) and x.is_cuda)


def case(b, h, m, n, d, bias, causal, dtype, kernel):
    g = torch.Generator(device="cuda").manual_seed(0)
    q = torch.randn(b, h, m, d, device="cuda", dtype=dtype, generator=g)
    k = torch.randn(b, h, n, d, device="cuda", dtype=dtype, generator=g)
    v = torch.randn(b, h, n, d, device="cuda", dtype=dtype, generator=g)
    ab = None
    if bias:
        ab = torch.zeros(b, 1 if bias == "B1MN" else h, m, n, device="cuda", dtype=dtype)
        ab = ab.expand(b, h, m, n)
    row = {"kernel": kernel, "B": b, "H": h, "M": m, "N": n, "D": d, "bias": bias,
           "causal": causal, "dtype": str(dtype).split(".")[-1]}
    if kernel == "efficient":
        fw, fw_peak, fw_sizes = _allocations(lambda: aten._scaled_dot_product_efficient_attention(
            q, k, v, ab, True, 0.0, causal))
        out, lse, seed, offset = fw
        go = torch.randn_like(out)
        bw, bw_peak, bw_sizes = _allocations(
            lambda: aten._scaled_dot_product_efficient_attention_backward(
                go, q, k, v, ab, out, lse,
                seed, offset, 0.0, [True, True, True, False], causal))
    else:
        fw, fw_peak, fw_sizes = _allocations(lambda: aten._scaled_dot_product_flash_attention(
            q, k, v, 0.0, causal, False))
        out, lse, cq, ck, mq, mk, seed, offset, _ = fw
        go = torch.randn_like(out)
        bw, bw_peak, bw_sizes = _allocations(
            lambda: aten._scaled_dot_product_flash_attention_backward(
                go, q, k, v, out, lse, cq, ck, mq, mk, 0.0, causal, seed, offset))
    row.update(fw_peak=fw_peak, fw_out=_nbytes(fw), fw_allocs=fw_sizes,
               bw_peak=bw_peak, bw_out=_nbytes(bw), bw_allocs=bw_sizes,
               qkv_bytes=_nbytes((q, k, v)))
    row["fw_workspace"] = fw_peak - row["fw_out"]
    row["bw_workspace"] = bw_peak - row["bw_out"]
    return row


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--json", required=True)
    args = p.parse_args(argv)
    if not torch.cuda.is_available():
        print("attention_workspace: needs CUDA", file=sys.stderr)
        return 2
    shapes = [(8, 4, 256, 256, 16), (8, 4, 256, 256, 64), (2, 8, 1024, 1024, 64),
              (1, 16, 2048, 2048, 64), (4, 12, 512, 512, 64), (8, 4, 64, 64, 16),
              (16, 2, 256, 256, 32), (1, 1, 4096, 4096, 128)]
    rows = []
    for dtype in (torch.float32, torch.bfloat16):
        for s in shapes:
            for bias in (None, "B1MN", "BHMN"):
                for causal in (False, True):
                    if bias and causal:
                        continue
                    kernels = ["efficient"] + (["flash"] if dtype != torch.float32 and not bias
                                               else [])
                    for kern in kernels:
                        try:
                            r = case(*s, bias, causal, dtype, kern)
                        except Exception as e:  # noqa: BLE001 - record and go on
                            r = {"shape": s, "bias": bias, "causal": causal, "kernel": kern,
                                 "dtype": str(dtype), "error": repr(e)[:300]}
                        rows.append(r)
                        print({k: r.get(k) for k in ("kernel", "dtype", "B", "H", "M", "D", "bias",
                                                     "causal", "fw_workspace", "bw_workspace",
                                                     "bw_allocs", "error")}, flush=True)
    props = torch.cuda.get_device_properties(0)
    with open(args.json, "w") as f:
        json.dump({"device": props.name, "sm": props.multi_processor_count,
                   "torch": torch.__version__, "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
