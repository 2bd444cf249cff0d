"""Shared test set-up: the benchmark folders are importable (their smoke tests import the
benchmark scripts as modules), and torch's deprecation noise from deep-copying GraphModules is
silenced for every test."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for path in (os.path.join(ROOT, "bench"), os.path.join(ROOT, "bench", "train")):
    if path not in sys.path:
        sys.path.insert(0, path)


def pytest_configure(config):
    config.addinivalue_line(
        "filterwarnings", "ignore:.*isinstance\\(treespec, LeafSpec\\).*:FutureWarning")
