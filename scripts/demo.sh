#!/usr/bin/env bash
# Installs fusioncut into ./.venv and partitions the embedded GPT-style model with fusioncut
# and with PyTorch side by side.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/setup.sh torch,plot
python -m fusioncut demo "$@"
