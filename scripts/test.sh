#!/usr/bin/env bash
# Installs fusioncut with its test dependencies into ./.venv and runs the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
. .venv/bin/activate
python -m pip install -q --upgrade pip
# Pin the CPU build of torch first: an unpinned torch pulls a multi-GB CUDA build.
python -m pip install -q "torch==2.13.0"
python -m pip install -q ".[torch,test]"
python -m pytest -q -p no:cacheprovider tests "$@"
