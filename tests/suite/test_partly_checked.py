"""A requirement whose examples are partly skipped (as declared) is "partly checked", not passed.

One run of the real suite on a small spec with a skips list, then every place a
user reads its results: the terminal's table, verdict and notes, the JSON report,
``forkwait-conformance matrix`` and the docs' ``.. conformance-matrix::``.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from conformance.reports.json_report import RunReport, read_report, schema
from conformance.reports.matrix import reason_anchor
from tests import sphinx_app
from tests.paths import REPO

SPEC = """\
Parts
=====

.. requirement:: PART-1
   :profile: core
   :level: MUST

   Checked by two examples, the second declared not to run.

.. testcode::

   print(1)

.. testoutput::

   1

.. testcode::

   print("ran")

.. testoutput::

   never: it must not run

.. requirement:: WHOLE-1
   :profile: core
   :level: MUST

   Checked whole.

.. testcode::

   print(2)

.. testoutput::

   2

.. requirement:: SOME-SHOULD-1
   :profile: core
   :level: SHOULD

   A SHOULD checked in part.

.. testcode::

   print(3)

.. testoutput::

   3

.. testcode::

   raise SystemExit("must not run")
"""

SKIPS = """\
["PART-1"]
reason = "hangs on this engine"
examples = [2]

["SOME-SHOULD-1"]
reason = "crashes this engine"
examples = [2]
"""


@dataclass(frozen=True)
class Run:
    """A finished run of the suite: its exit status, terminal output and JSON report."""

    status: int
    lines: list[str]
    report: Path


def run_suite(folder: Path, report: Path, *args: str) -> Run:
    done = subprocess.run(
        [
            sys.executable, "-m", "conformance.cli", "--impl", "reference",
            "--spec-root", str(folder / "spec"), "--skips-file", str(folder / "skips.toml"),
            "--report", str(report), "-n", "0", *args,
        ],
        cwd=REPO, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    return Run(done.returncode, done.stdout.splitlines(), report)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("partly")
    (root / "spec").mkdir()
    (root / "spec" / "parts.rst").write_text(SPEC, encoding="utf-8")
    (root / "skips.toml").write_text(SKIPS, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def run(folder: Path) -> Run:
    return run_suite(folder, folder / "report.json")


def words(line: str) -> str:
    return " ".join(line.split())


def test_the_table_has_a_column_for_it(run: Run) -> None:
    header = next(line for line in run.lines if line.startswith("profile "))
    assert header.split() == [
        "profile", "level", "requirements", "passed", "partly-checked", "failed", "xfailed",
        "xpassed", "skipped", "not-run",
    ]  # fmt: skip
    rows = [line.split() for line in run.lines if line.startswith(("core ", "all "))]
    assert rows == [
        ["core", "MUST", "2", "1", "1", "0", "0", "0", "0", "0"],
        ["core", "SHOULD", "1", "0", "1", "0", "0", "0", "0", "0"],
        ["all", "MUST", "2", "1", "1", "0", "0", "0", "0", "0"],
        ["all", "SHOULD", "1", "0", "1", "0", "0", "0", "0", "0"],
    ]
    assert any(line.startswith("partly-checked = passed what ran") for line in run.lines)


def test_the_verdict_says_conforms_checked_in_part_and_counts_it_apart(run: Run) -> None:
    assert run.status == 0, "\n".join(run.lines[-30:])  # the skips are declared
    verdict = run.lines.index(
        "verdict: reference conforms, checked in part: core 1/2 MUST (1 checked in part)"
    )
    assert [words(line) for line in run.lines[verdict + 1 : verdict + 5]] == [
        "core conforms, checked in part MUST 1/2 passed, 1 partly-checked; "
        "SHOULD 0/1 passed, 1 partly-checked",
        "MUST: 1/2 passed, 1 partly-checked",
        "SHOULD: 0/1 passed, 1 partly-checked",
        "MAY: 0/0 passed",
    ]
    assert "examples: 3/5 passed, 2 skipped" in run.lines  # pytest's own counts
    assert (
        "checked in part (examples skipped as declared): PART-1 (1 of 2 examples skipped), "
        "SOME-SHOULD-1 (1 of 2 examples skipped)"
    ) in run.lines
    assert not [line for line in run.lines if line.startswith("the run fails")]


def test_strict_does_not_fail_a_declared_skip(folder: Path, tmp_path: Path) -> None:
    strict = run_suite(folder, tmp_path / "strict.json", "--strict")
    assert strict.status == 0, "\n".join(strict.lines[-30:])
    assert "MUST: 1/2 passed, 1 partly-checked" in strict.lines
    assert read_report(strict.report).strict


def test_the_report_records_the_outcome_the_counts_and_the_reason(run: Run) -> None:
    data: dict[str, Any] = json.loads(run.report.read_text(encoding="utf-8"))
    jsonschema.validate(data, schema())
    record = {r["id"]: r for r in data["requirements"]}["PART-1"]
    assert record["outcome"] == "partly-checked"
    assert record["message"] == (
        "1 of 2 examples skipped as declared (example 2): hangs on this engine"
    )
    assert [(e["example"], e["outcome"]) for e in record["results"]] == [
        (1, "passed"),
        (2, "skipped"),
    ]
    assert data["summary"]["core"]["partly-checked"] == 2
    assert data["summary"]["core"]["passed"] == 1
    verdict = data["verdict"]
    assert verdict["passed"]
    assert verdict["profiles"]["core"]["status"] == "conforms, checked in part"
    assert verdict["levels"]["MUST"] == {
        "total": 2, "passed": 1, "partly-checked": 1, "failed": 0, "xfailed": 0,
        "xpassed": 0, "skipped": 0, "not-run": 0,
    }  # fmt: skip
    assert verdict["lines"][0] == "MUST: 1/2 passed, 1 partly-checked"
    # read back, the report gives the run's verdict
    assert read_report(run.report).verdict().headline() == verdict["headline"]


def test_the_matrix_cell_says_how_much_was_skipped(run: Run, tmp_path: Path) -> None:
    out = tmp_path / "matrix.md"
    done = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "matrix", str(run.report), "--output", str(out)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = out.read_text(encoding="utf-8").splitlines()
    assert "| PART-1 | core | MUST | partly checked (1 of 2 examples skipped) |" in lines
    assert "| WHOLE-1 | core | MUST | pass |" in lines
    assert "| SOME-SHOULD-1 | core | SHOULD | partly checked (1 of 2 examples skipped) |" in lines
    assert "| core | 1 pass, 2 partly checked |" in lines


PAGE = """\
Matrix
======

.. requirement:: PART-1
   :profile: core
   :level: MUST

   Checked by two examples.

.. conformance-matrix:: report.json
   :details:
"""


def test_the_docs_matrix_colours_the_cell_and_links_it_to_the_reason(
    run: Run, tmp_path: Path
) -> None:
    source = tmp_path / "src"
    source.mkdir()
    (source / "conf.py").write_text(
        "extensions = ['conformance.sphinx_ext.requirements']\n", encoding="utf-8"
    )
    (source / "index.rst").write_text(PAGE, encoding="utf-8")
    (source / "report.json").write_bytes(run.report.read_bytes())
    sphinx_app.build(source, tmp_path / "html", tmp_path / "doctrees", "html")
    html = (tmp_path / "html" / "index.html").read_text(encoding="utf-8")
    report: RunReport = read_report(run.report)
    anchor = reason_anchor(report, "PART-1")
    cell = re.search(
        r'<td class="[^"]*forkwait-outcome-partly-checked[^"]*">(.*?)</td>', html, re.S
    )
    assert cell, "no partly checked cell"
    assert f'href="#{anchor}"' in cell.group(1)
    assert re.search(r"partly checked.*?1 of 2 examples skipped", cell.group(1), re.S)
    reason = re.search(rf'<li id="{anchor}">(.*?)</li>', html, re.S)
    assert reason
    assert re.sub("<[^>]+>", "", reason.group(1)).split(maxsplit=1)[1] == (
        "(partly checked): 1 of 2 examples skipped as declared (example 2): hangs on this engine"
    )
    # the totals and the legend name it with its own colour
    assert re.search(r'forkwait-outcome-partly-checked">2 partly checked<', html)
    assert re.search(r'forkwait-outcome-partly-checked">partly checked<', html)
