#!/usr/bin/env bash
# The GPU figures of docs/budget.md and docs/train_bench.md that fit one lent device call
# (about 6 minutes; 15 minutes of device time is the whole lease): build fusioncut against the
# machine's own torch, then, each step under its own timeout so that an overrun loses only
# itself,
#   1. bench/bench_peak.py --device cuda --targets-only, every model side by side (memory only:
#      each process measures its own allocator; the walk of the generated code comes with it),
#      and the generated code that allocates the transformers' (8, 4, 256, 256) buffer
#   2. python -m fusioncut calibrate --device cuda      (device profile, host link)
#   3. bench/train/bench_train.py --device cuda         (tanh_tanh: step time and peak)
#   4. bench/train/calibrate_triton.py --quick
# Everything lands in $W and is packed into $OUT/figures.tgz after each step (a device call
# returns at most 8 files). Usage: OUT=dir bash scripts/gpu_figures.sh
set -u
NAME=figures
. "$(dirname "$0")/gpu_common.sh"
{
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
  $PY -c "import torch, triton, sys; print(sys.version); print('torch', torch.__version__, 'cuda', torch.version.cuda, 'triton', triton.__version__)"
  $PY -c "import transformers; print('transformers', transformers.__version__)"
} >"$W/meta.txt" 2>&1
install_fusioncut
stamp "peak targets"
for m in ${PEAK_MODELS:-gpt llama-sdpa llama-written resnet18 hf-gpt2 hf-llama}; do
  (timeout "${PEAK_SECONDS:-200}" $PY bench/bench_peak.py --device cuda --models "$m" \
     --targets 5 --targets-only --json "$W/targets-$m.json" >"$W/targets-$m.txt" 2>&1
   echo "[rc $?]" >>"$W/targets-$m.txt") &
done
wait; stamp "peak targets done"
# Issue 19's GPU estimate misses an 8 MiB (8, 4, 256, 256) float32 buffer the transformers
# models' backward holds at every budget: keep the generated code that allocates it.
mkdir -p "$W/code"
grep -rl --include=*.py -e "empty_strided_cuda((8, 4, 256, 256)" /tmp/torchinductor_* 2>/dev/null \
  | head -6 | xargs -r cp -t "$W/code"
pack
timeout 60 $PY -m fusioncut calibrate --device cuda --quick --out "$W/h100.json" \
  >"$W/calibrate.txt" 2>&1; stamp "calibrate rc $?"; pack
timeout 60 $PY bench/train/bench_train.py --device cuda --models tanh_tanh \
  --configs torch_default fusioncut_runtime fusioncut_memory fusioncut_budget_50 \
  fusioncut_budget_0 torch_budget_50 torch_budget_0 --timing-budget 15 --shared-cache \
  --json "$W/train-tanh_tanh.json" --table "$W/train-tanh_tanh.md" >"$W/train-tanh_tanh.txt" 2>&1
stamp "train rc $?"; pack
timeout 45 $PY bench/train/calibrate_triton.py --quick --json "$W/calibration.json" \
  >"$W/calibration.txt" 2>&1; stamp "triton calibration rc $?"; pack
grep -h "peak_memory_bytes=\|rc " "$W"/targets-*.txt; cat "$W/calibrate.txt"
