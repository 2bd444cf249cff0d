#!/usr/bin/env bash
# Creates ./.venv and installs fusioncut into it with the extras named in $1 (default: torch).
# Sourced by demo.sh and test.sh, so the venv stays activated for the caller.
set -euo pipefail
extras=${1:-torch}
python3 -m venv .venv
. .venv/bin/activate
python -m pip install -q --upgrade pip
# Pin the CPU build of torch first: an unpinned torch pulls a multi-GB CUDA build.
python -m pip install -q "torch==2.13.0"
python -m pip install -q ".[${extras}]"
