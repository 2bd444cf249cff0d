#!/usr/bin/env bash
# The compatibility job (CI runs it after scripts/test.sh): fusioncut's partition, budget,
# higher-order-op, rank and torch-rule tests, the transformers models through Dynamo and the
# demo on the newest torch this machine can
# install: 2.15.0 from the package index (a CUDA build of several GB), else 2.14.1 (on local
# disk here). It says which ran. The venv lives outside the clone
# ($FUSIONCUT_COMPAT_VENV, default ~/.cache/fusioncut/venv-compat) so that the download is
# made once per machine, not once per run.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${FUSIONCUT_COMPAT_VENV:-$HOME/.cache/fusioncut/venv-compat}
newest=${FUSIONCUT_COMPAT_NEWEST:-2.15.0}  # overridable to exercise the fallback
fallback=2.14.1

mkdir -p "$(dirname "$venv")"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
. "$venv/bin/activate"
have=$(python -c "import torch; print(torch.__version__.split('+')[0])" 2>/dev/null || true)
source="cached in $venv"
if [ "$have" != "$newest" ]; then
  start=$(date +%s)
  # This machine's pip configuration caps torch at what lies on local disk; lift it for the
  # one release the job asks the index for.
  # Bounded: an unreachable index must not hold CI for pip's default retries.
  if PIP_CONSTRAINT=/dev/null python -m pip install -q --retries 1 --timeout 60 \
      "torch==$newest"; then
    source="fetched from the package index in $(( $(date +%s) - start )) s"
  elif [ "$have" != "$fallback" ]; then
    echo "compat: torch $newest could not be installed; falling back to $fallback"
    python -m pip install -q "torch==$fallback"
    source="installed from the local disk in $(( $(date +%s) - start )) s (torch $newest could not be fetched)"
  else
    source="cached in $venv (torch $newest could not be fetched)"
  fi
fi
version=$(python -c "import torch; print(torch.__version__)" 2>/dev/null)
echo "compat: torch $version, $source"

# fusioncut itself, with torch pinned so that pip never replaces it; its own build folder.
pin=$(mktemp)
echo "torch==${version%%+*}" > "$pin"
PIP_CONSTRAINT="$pin" python -m pip install -q scikit-build-core pybind11
PIP_CONSTRAINT="$pin" python -m pip install -q --no-build-isolation \
  -C build-dir=build/compat ".[test]"
rm -f "$pin"

demo_log=$(mktemp)
python -m fusioncut demo --layers 4 2>&1 | tee "$demo_log" | tail -n 4
if grep -qi "deprecat" "$demo_log"; then
  echo "compat: the demo printed deprecation lines on torch $version:"
  grep -i "deprecat" "$demo_log" | sort | uniq -c | head
  exit 1
fi
rm -f "$demo_log"

t=tests
python -m pytest -q -p no:cacheprovider \
  $t/test_partition_decisions.py $t/test_partition_hooks.py $t/test_budget_plans.py \
  $t/test_budget_device.py $t/test_hops_decisions.py $t/test_hops_errors.py \
  $t/test_hops_newer.py $t/test_hops_regions.py $t/test_hops_region_partitioner.py \
  $t/test_ranks_sync.py $t/test_ranks_training.py $t/test_compat_rules.py \
  $t/test_quantization.py $t/test_models_zoo.py $t/test_offload.py $t/test_offload_waits.py \
  $t/test_budget_polish.py $t/test_torch_defects.py $t/test_zoo_transformers.py "$@"
echo "compat: the tests above ran on torch $version"
