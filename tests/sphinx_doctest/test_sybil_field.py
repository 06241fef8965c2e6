"""The benchmark's ``>>>``-only field (benchmarks/sybil_field.py) compares like with like.

Its ratios mean something only if stock sybil, the bounds and the engine through
both routes collect the same items from the same files and reach the same
verdicts: here one wrong example among six fails under every contender.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.append(str(REPO / "benchmarks"))  # last: its trace.py must not hide the stdlib

import doctest_vs_sphinx as bench  # noqa: E402 - found through the line above
from sybil_field import make_doctest_project  # noqa: E402 - likewise


def outcome(command: list[str]) -> str:
    done = subprocess.run(
        command, cwd=REPO, capture_output=True, text=True, check=False, timeout=300
    )
    found = re.search(r"^(\d+ failed, \d+ passed)", done.stdout, re.MULTILINE)
    assert found, done.stdout + done.stderr
    return found.group(1)


@pytest.mark.parametrize("name", [c.name for c in bench.sybil_contenders()[1:]])
def test_every_pytest_contender_runs_the_same_items_to_the_same_verdicts(
    tmp_path: Path, name: str
) -> None:
    source = make_doctest_project(tmp_path / "project", documents=2, blocks=3)
    document = source / "doc001.rst"
    text = document.read_text(encoding="utf-8")
    document.write_text(
        text.replace("   >>> 1 + 1\n   2\n", "   >>> 1 + 1\n   3\n"), encoding="utf-8"
    )
    contender = next(c for c in bench.sybil_contenders() if c.name == name)
    command = contender.command(bench.Project(source, source), tmp_path / "out")
    assert outcome(command) == "1 failed, 5 passed"
