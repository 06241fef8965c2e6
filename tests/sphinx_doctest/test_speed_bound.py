"""The benchmark's bound (benchmarks/minimal_protocol.py) runs what the engine runs.

Its figure bounds what any one-item-per-test protocol can reach only if it does the
same work: the same items, each run (a wrong output fails under both), each with
its phase reports.
"""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.append(str(REPO / "benchmarks"))  # last: its trace.py must not hide the stdlib

from doctest_vs_sphinx import make_project  # noqa: E402 - found through the line above


def outcomes(source: Path, junit: Path, *plugins: str) -> dict[str, str]:
    """Each test's name and outcome ('passed' or the tag of what went wrong)."""
    command = [sys.executable, "-m", "pytest", "-p", "conformance.sphinx_doctest", *plugins]
    command += ["-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-q", str(source)]
    done = subprocess.run(
        [*command, f"--junitxml={junit}", "--sphinx-cache-dir", str(junit.parent / junit.stem)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1, done.stdout + done.stderr  # one test fails
    cases = ET.parse(junit).getroot().iter("testcase")
    return {
        f"{case.get('classname')}::{case.get('name')}": next(
            (child.tag for child in case if child.tag != "properties"), "passed"
        )
        for case in cases
    }


def test_the_bound_runs_every_test_the_engine_runs_to_the_same_outcome(tmp_path: Path) -> None:
    source = make_project(tmp_path / "project", documents=2, pairs=3)
    document = source / "doc001.rst"
    text = document.read_text(encoding="utf-8")
    document.write_text(text.replace("   2 1\n", "   2 7\n", 1), encoding="utf-8")
    engine = outcomes(source, tmp_path / "engine.xml")
    bound = outcomes(source, tmp_path / "bound.xml", "-p", "benchmarks.minimal_protocol")
    assert len(engine) == 2 * (3 + 1)  # the pairs and the doctest block of each document
    assert sorted(engine.values()).count("failure") == 1
    assert bound == engine
