"""The matrix of several reports: a level column, the kind of each failure, cells linked to reasons.

Reports are built here from records, so each test says which outcome it feeds
in and what the table must show for it.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.reports.json_report import (
    ExampleRecord,
    RequirementRecord,
    RunReport,
    write_report,
)
from conformance.reports.matrix import matrix_rows, reason_anchor, to_markdown, to_rst
from tests import sphinx_app
from tests.paths import RESULTS


def example(outcome: str, kind: str = "", number: int = 1) -> ExampleRecord:
    return ExampleRecord(number, "default", "", outcome, kind, "", f"x.rst::X[{number}]")


def record(
    req_id: str, level: str, outcome: str, *examples: ExampleRecord, message: str = ""
) -> RequirementRecord:
    return RequirementRecord(
        req_id, "core", level, outcome, 0.1, len(examples), message, tuple(examples)
    )


def report(name: str, *records: RequirementRecord) -> RunReport:
    return RunReport(name, "1.0", ("core",), "0.1.0", "2026-01-02T03:04:05+00:00", records)


ENGINE = report(
    "engine",
    record("A-MUST-1", "MUST", "failed", example("passed"), example("failed", "timeout", 2)),
    record("B-SHOULD-1", "SHOULD", "failed", example("failed", "output")),
    record("C-MUST-1", "MUST", "xfailed", example("xfailed", "exception"), message="why C"),
    record("D-MUST-1", "MUST", "passed", example("passed")),
)
OTHER = report("other", record("A-MUST-1", "MUST", "passed", example("passed")))


def test_rows_carry_the_level_and_the_kind_of_failure() -> None:
    header, rows = matrix_rows([ENGINE, OTHER])
    assert header == ["requirement", "profile", "level", "engine 1.0", "other 1.0"]
    by_id = {row[0]: row for row in rows}
    assert by_id["A-MUST-1"] == ["A-MUST-1", "core", "MUST", "**FAIL** (timeout)", "pass"]
    # a failed SHOULD is a FAIL as a failed MUST is; the level column tells them apart
    assert by_id["B-SHOULD-1"][2:4] == ["SHOULD", "**FAIL** (output)"]
    assert by_id["C-MUST-1"][3] == "expected failure (exception)"
    assert by_id["D-MUST-1"][3:] == ["pass", "not run"]


def test_markdown_and_rst_show_the_same_cells() -> None:
    markdown = to_markdown([ENGINE, OTHER])
    assert "| B-SHOULD-1 | core | SHOULD | **FAIL** (output) | not run |" in markdown
    rst = to_rst([ENGINE, OTHER])
    assert "   * - :req:`B-SHOULD-1`\n     - core\n     - SHOULD\n     - **FAIL** (output)" in rst


#: an implementation whose own words try to end a cell, add a row, and mark text up
HOSTILE = RunReport(
    "evil | x\n| FORK-CALLS-1 | core | MUST | pass |",
    "1 **bold** :req:`X` `code`\x1b[31m",
    ("core",),
    "0.1.0\n.. raw:: html",
    "2026-01-02T03:04:05+00:00",
    (record("D-MUST-1", "MUST", "passed", example("passed")),),
)


def test_markdown_cells_hold_a_reports_words_as_text() -> None:
    lines = to_markdown([HOSTILE]).splitlines()
    tables = [line for line in lines if line.startswith("|")]
    # every row of a table has its header's columns: no cell ended early, no row added
    assert all(len(re.split(r"(?<!\\)\|", row)) in (7, 4, 6) for row in tables), tables
    assert not any(line.startswith("| FORK-CALLS-1") for line in lines)
    assert "\x1b" not in "\n".join(lines)
    assert "evil \\| x \\| FORK-CALLS-1 \\| core" in lines[2]
    assert "1 \\*\\*bold\\*\\*" in lines[2]


def test_rst_cells_hold_a_reports_words_as_text() -> None:
    from docutils.core import publish_doctree  # noqa: PLC0415

    rst = to_rst([HOSTILE]).replace(":req:", ":literal:")  # :req: needs Sphinx
    tree = publish_doctree(rst, settings_overrides={"report_level": 5, "halt_level": 5})
    markup = ("system_message", "raw", "strong", "emphasis", "title_reference", "comment")
    assert not [node for node in tree.findall() if getattr(node, "tagname", "") in markup]
    text = tree.astext()
    assert "evil | x | FORK-CALLS-1 | core | MUST | pass | 1 **bold** :req:`X` `code`[31m" in text
    assert "0.1.0 .. raw:: html" in text


def test_the_format_option_is_explained_in_help() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "matrix", "--help"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert re.search(r"--format \{markdown,rst\}\s+markdown \(default\)", done.stdout)


PAGE = """\
Spec
====

.. requirement:: C-MUST-1
   :profile: core
   :level: MUST

   A rule.

.. requirement:: Z-MUST-1
   :profile: core
   :level: MUST

   A rule no recorded run has.

.. conformance-matrix:: engine.json
   :details:
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The HTML of a page holding two requirements and the matrix of ENGINE."""
    root = tmp_path_factory.mktemp("matrix")
    source = root / "src"
    source.mkdir()
    (source / "conf.py").write_text(
        "extensions = ['conformance.sphinx_ext.requirements']\n", encoding="utf-8"
    )
    (source / "index.rst").write_text(PAGE, encoding="utf-8")
    write_report(ENGINE, source / "engine.json")
    sphinx_app.build(source, root / "html", root / "doctrees", "html")
    return (root / "html" / "index.html").read_text(encoding="utf-8")


def test_an_expected_failure_cell_links_to_its_reason(built: str) -> None:
    anchor = reason_anchor(ENGINE, "C-MUST-1")
    assert re.search(rf'<td class="[^"]*forkwait-outcome-xfailed[^"]*">.*?href="#{anchor}"', built)
    assert re.search(rf'<li id="{anchor}">.*?why C', built, re.S)


def test_a_requirement_box_links_to_its_row(built: str) -> None:
    assert re.search(r'<tr [^>]*id="matrix-c-must-1"', built)
    assert re.search(r'<a [^>]*href="#matrix-c-must-1"[^>]*>matrix</a>', built)


def test_a_requirement_without_a_row_gets_no_link(built: str) -> None:
    assert "matrix-z-must-1" not in built


def test_reason_anchors_differ_per_engine() -> None:
    assert reason_anchor(ENGINE, "C-MUST-1") != reason_anchor(OTHER, "C-MUST-1")


def test_recorded_reports_render(tmp_path: Path) -> None:
    results = RESULTS
    files = sorted(str(p) for p in results.glob("*.json"))
    out = tmp_path / "matrix.md"
    subprocess.run(
        [sys.executable, "-m", "conformance.cli", "matrix", *files, "--output", str(out)],
        check=True,
    )
    assert out.read_text(encoding="utf-8").count("\n| ") > 80


def test_a_recorded_report_and_a_new_one_render_side_by_side(tmp_path: Path) -> None:
    write_report(ENGINE, tmp_path / "new.json")
    out = tmp_path / "matrix.md"
    done = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "matrix", str(RESULTS / "threads.json"),
         str(tmp_path / "new.json"), "--output", str(out)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    header = next(line for line in out.read_text().splitlines() if "| requirement |" in line)
    assert header.startswith("| requirement | profile | level | threads Python ")
    assert header.endswith("| engine 1.0 |")
