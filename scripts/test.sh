#!/usr/bin/env bash
# Installs fusioncut with its test dependencies into ./.venv and runs the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/setup.sh torch,test,bench
python -m pytest -q -p no:cacheprovider tests "$@"
