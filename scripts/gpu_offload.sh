#!/usr/bin/env bash
# Issue 20's GPU figures (docs/budget.md, "Offloading"), sized for one lent device call of
# about 9 minutes: build fusioncut against the machine's torch, then the training harness on the
# Llama workload (GPU size: 12 layers, d 1024, sequence 2048) under torch's default, its
# knapsack at budget 0, its offload of every forward value, and fusioncut's plans at budget 0
# with and without offloading and at 0.5 with it (torch's side stream and prefetch on the GPU):
# step time, the allocator's peak (torch.cuda.max_memory_allocated) and the largest batch each
# trains at (the largest batch for torch's default, torch's offload of everything and fusioncut's
# offload at budget 0 only: each batch tried compiles anew, about 20 s a compile at this size).
# Each part runs under its own timeout, and each configuration logs a line once compiled, so a
# timeout loses only the timing; everything is packed into $OUT/offload.tgz. First run
# (2026-11-28, H200, torch 2.11): both parts timed out with no line logged, and torch 2.11's
# side stream failed to compile (bench/recorded/gpu-h200-2026-11-28b/offload).
# Usage: OUT=dir bash scripts/gpu_offload.sh; CONFIGS, BATCH_CONFIGS, STEP_SECONDS,
# BATCH_SECONDS, STEPS (timed rounds, default 15) and BISECT_STEPS override the defaults to fit
# a shorter lease. Second run (2026-11-28 16:28, bench/recorded/gpu-h200-2026-11-28d): a
# configuration takes 45-55 s to compile and check at this size, and bench_train's CUDA default
# of 50 timed rounds of about 0.5 s each did not fit four configurations in 230 s; two timed
# fine (IQR/2 0.14 ms on 462 ms), so 15 rounds are the default here.
set -u
NAME=offload
. "$(dirname "$0")/gpu_common.sh"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv >"$W/meta.txt" 2>&1
install_fusioncut
# The defaults are what is still missing after the 16:28 run (torch's default step, fusioncut's
# at budget 0 with offloading and torch default's largest batch, 64, are measured): four
# configurations timed (about 200 s to compile and check, 30 s to time) and two batch searches.
CONFIGS=${CONFIGS:-"torch_default torch_offload_all fusioncut_offload_budget_0
  fusioncut_offload_budget_50"}
BATCH_CONFIGS=${BATCH_CONFIGS:-"torch_offload_all fusioncut_offload_budget_0"}
stamp "steps"
timeout "${STEP_SECONDS:-300}" $PY bench/train/bench_train.py --device cuda --models llama \
  --configs $CONFIGS --timing-budget 20 --steps "${STEPS:-15}" --shared-cache \
  --json "$W/steps.json" --table "$W/steps.md" >"$W/steps.txt" 2>&1
stamp "steps rc $?"; pack
timeout "${BATCH_SECONDS:-230}" $PY bench/train/bench_train.py --device cuda --models llama \
  --configs $BATCH_CONFIGS --timing-budget 5 --max-batch --bisect-steps "${BISECT_STEPS:-1}" \
  --shared-cache --json "$W/batch.json" --table "$W/batch.md" >"$W/batch.txt" 2>&1
stamp "largest batch rc $?"; pack
grep -h "prepared:\|max batch\|^| llama\|^#" "$W/steps.txt" "$W/batch.txt"
