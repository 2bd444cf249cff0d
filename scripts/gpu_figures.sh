#!/usr/bin/env bash
# The GPU figures of docs/train_bench.md and docs/budget.md, cut to fit one lent device
# call (about 9 minutes): build fusioncut against the machine's own torch, then, each step
# under its own timeout so that one overrun loses only itself,
#   1. python -m fusioncut calibrate --device cuda   (device profile, host link)
#   2. bench/bench_peak.py --device cuda              (peak_memory_bytes = N, measured)
#   3. bench/train/bench_train.py --device cuda       (step time and peak, budget configs)
#   4. bench/train/calibrate_triton.py --quick
# Steps 2 and 3 run side by side: 2 measures memory only (its own process's allocator), 3
# times steps with every configuration interleaved, so both see the same CPU load.
# Everything lands in $W and is packed into $OUT/figures.tgz after each step (a device call
# returns at most 8 files). Usage: OUT=dir bash scripts/gpu_figures.sh
set -u
OUT=${OUT:-/tmp/gpu-figures}
W=/tmp/gpu-figures-work
mkdir -p "$OUT" "$W"
pack() { tar czf "$OUT/figures.tgz" -C "$W" . 2>/dev/null; }
PY=${PYTHON:-python3}
export PIP_NO_INDEX=1 CMAKE_BUILD_PARALLEL_LEVEL=16 PYTHONUNBUFFERED=1
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
{
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
  $PY -c "import torch, triton, sys; print(sys.version); print('torch', torch.__version__, 'cuda', torch.version.cuda, 'triton', triton.__version__)"
  $PY -c "import transformers; print('transformers', transformers.__version__)"
} >"$W/meta.txt" 2>&1
stamp "install"
timeout 120 $PY -m pip install -q --no-build-isolation --no-deps -C build-dir=/tmp/fcbuild . \
  >"$W/install.log" 2>&1 || { stamp "install failed"; pack; tail -30 "$W/install.log"; exit 1; }
stamp "calibrate"
timeout 60 $PY -m fusioncut calibrate --device cuda --quick --out "$W/h100.json" \
  >"$W/calibrate.txt" 2>&1; stamp "calibrate rc $?"; pack
(
  for m in ${PEAK_MODELS:-gpt llama-sdpa hf-llama resnet18}; do
    timeout "${PEAK_SECONDS:-70}" $PY bench/bench_peak.py --device cuda --models "$m" --targets 7 \
      --json "$W/peak-$m.json" >"$W/peak-$m.txt" 2>&1
    echo "[peak $m rc $?]" >>"$W/peak-$m.txt"
  done
) &
peak=$!
for mt in ${TRAIN_MODELS:-tanh_tanh:45 gpt2:140 resnet:90}; do
  m=${mt%%:*}
  timeout "${mt##*:}" $PY bench/train/bench_train.py --device cuda --models "$m" \
    --configs torch_default fusioncut_runtime fusioncut_memory fusioncut_budget_50 \
    fusioncut_budget_0 torch_budget_50 torch_budget_0 --timing-budget 15 --shared-cache \
    --json "$W/train-$m.json" --table "$W/train-$m.md" >"$W/train-$m.txt" 2>&1
  stamp "train $m rc $?"; pack
done
wait $peak; stamp "peak done"; pack
timeout 45 $PY bench/train/calibrate_triton.py --quick --json "$W/calibration.json" \
  >"$W/calibration.txt" 2>&1; stamp "triton calibration rc $?"; pack
tail -4 "$W"/peak-*.txt; tail -12 "$W"/train-*.md; cat "$W/calibrate.txt"
