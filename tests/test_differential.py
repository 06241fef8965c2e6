"""The harness and ``sphinx-build -b doctest`` agree on every fixture document.

Each fixture is built alone by Sphinx's doctest builder (with this project's
requirement extension and global setup) and run by the harness; the numbers of
tests and failures must match, and both must match what the fixture was
written to produce.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, run_spec

pytest_plugins = ["pytester"]

CONF = """
extensions = ["sphinx.ext.doctest", "conformance.sphinxext"]
from conformance.implementation import DOCTEST_GLOBAL_SETUP as doctest_global_setup
doctest_test_doctest_blocks = ""
"""

# fixture -> (tests, failures): written down by reading the fixture
EXPECTED = {"groups.rst": (7, 0), "failing.rst": (6, 3)}


def sphinx_counts(fixture: str, tmp_path: Path) -> tuple[int, int]:
    source = tmp_path / "src"
    source.mkdir()
    shutil.copy(FIXTURES / fixture, source / "index.rst")
    (source / "conf.py").write_text(CONF)
    out = tmp_path / "out"
    subprocess.run(
        [sys.executable, "-m", "sphinx", "-q", "-b", "doctest", str(source), str(out)],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    summary = (out / "output.txt").read_text()
    tests = re.search(r"^\s*(\d+) tests?$", summary, re.MULTILINE)
    failures = re.search(r"^\s*(\d+) failures? in tests$", summary, re.MULTILINE)
    assert tests, summary
    assert failures, summary
    return int(tests.group(1)), int(failures.group(1))


def harness_counts(fixture: str, pytester: pytest.Pytester) -> tuple[int, int]:
    result = run_spec(
        pytester,
        fixture,
        fixture=fixture,
    )
    outcomes = result.parseoutcomes()
    items = outcomes.get("passed", 0) + outcomes.get("failed", 0)
    # Sphinx counts each ">>>" of a doctest block; the harness has one item per block
    text = (FIXTURES / fixture).read_text()
    extra_doctest_examples = sum(
        block.count(">>>") - 1 for block in re.findall(r"\.\. doctest::.*?(?=\n\S|\Z)", text, re.S)
    )
    return items + extra_doctest_examples, outcomes.get("failed", 0)


@pytest.mark.parametrize("fixture", sorted(EXPECTED))
def test_harness_and_sphinx_doctest_agree(
    fixture: str, pytester: pytest.Pytester, tmp_path: Path
) -> None:
    sphinx = sphinx_counts(fixture, tmp_path)
    harness = harness_counts(fixture, pytester)
    assert sphinx == harness == EXPECTED[fixture]
