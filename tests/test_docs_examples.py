"""The documentation's examples run as written: every code block that follows the marker
``<!-- example: tests/test_docs_examples.py runs it -->`` in README.md and docs/*.md.

Python blocks of one file run in order in one namespace (a later block may use what an
earlier one made), in a temporary working directory; each ``python -m fusioncut ...``
command of a bash block (continuation lines joined) runs through ``fusioncut.cli.main`` and
must exit 0.
"""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest

from fusioncut.cli import main

pytest.importorskip("transformers")
pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning")

ROOT = Path(__file__).resolve().parent.parent
MARKER = "<!-- example: tests/test_docs_examples.py runs it -->"
_BLOCK = re.compile(re.escape(MARKER) + r"\s*```(\w+)\n(.*?)```", re.S)
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def examples(page: Path) -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2)) for m in _BLOCK.finditer(page.read_text())]


def commands(script: str) -> list[list[str]]:
    """The ``python -m fusioncut`` commands of a bash block, as argument lists."""
    out = []
    for line in script.replace("\\\n", " ").splitlines():
        words = shlex.split(line, comments=True)
        if words[:3] == ["python", "-m", "fusioncut"]:
            out.append(words[3:])
    return out


def test_docs_examples_are_marked():
    pages = {p.name: examples(p) for p in PAGES}
    assert pages["explain.md"] and pages["README.md"] and pages["dynamic.md"]
    assert all(lang in ("python", "bash") for blocks in pages.values() for lang, _ in blocks)


@pytest.mark.parametrize("page", [p for p in PAGES if examples(p)], ids=lambda p: p.name)
def test_docs_examples_run_as_written(page, tmp_path, monkeypatch, capsys):
    shutil.copytree(ROOT / "docs" / "examples", tmp_path / "docs" / "examples")
    monkeypatch.chdir(tmp_path)  # the examples' paths are relative to the repository root
    namespace: dict = {"__name__": "__docs__"}
    for lang, code in examples(page):
        if lang == "python":
            exec(compile(code, f"{page.name} example", "exec"), namespace)
        else:
            for argv in commands(code):
                assert main(argv) == 0, (argv, capsys.readouterr().err)
