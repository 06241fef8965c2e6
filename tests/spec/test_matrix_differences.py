"""docs/matrix.rst explains every rule on which the recorded engines disagree, and only those."""

from __future__ import annotations

import re
from pathlib import Path

from conformance.reports.json_report import read_report
from conformance.reports.matrix import matrix_outcomes
from tests.paths import DOCS

SECTION = re.compile(r"What the differences mean\n-+\n(?P<body>.*?)\n\S[^\n]*\n-+\n", re.S)


def recorded_disagreements() -> set[str]:
    """Rules whose outcome differs among the engines that ran them (profile skips aside)."""
    page = (DOCS / "matrix.rst").read_text(encoding="utf-8")
    files = re.search(r"\.\. conformance-matrix:: (.+)", page)
    assert files, "docs/matrix.rst has no conformance-matrix"
    reports = [read_report(DOCS / name) for name in files.group(1).split()]
    return {
        row.id
        for row in matrix_outcomes(reports)
        if len({c.outcome for c in row.cells if c.outcome != "skipped"}) > 1
    }


def explained() -> set[str]:
    page = (DOCS / "matrix.rst").read_text(encoding="utf-8")
    section = SECTION.search(page)
    assert section, "docs/matrix.rst lacks its 'What the differences mean' section"
    return set(re.findall(r":req:`([A-Z0-9-]+)`", section.group("body")))


def test_every_disagreement_is_explained_and_nothing_else() -> None:
    disagreements = recorded_disagreements()
    assert disagreements, "the recorded engines agree on everything: nothing to explain?"
    lines = explained()
    assert disagreements - lines == set(), "add a line to docs/matrix.rst for these"
    assert lines - disagreements == set(), "the engines agree on these now: drop their lines"


def test_the_matrix_shows_every_recorded_engine() -> None:
    page = (DOCS / "matrix.rst").read_text(encoding="utf-8")
    files = re.search(r"\.\. conformance-matrix:: (.+)", page)
    assert files
    assert sorted(Path(f).stem for f in files.group(1).split()) == sorted(
        p.stem for p in (DOCS / "_results").glob("*.json")
    )
