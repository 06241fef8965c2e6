"""One vocabulary at the end of a run: the table counts what the verdict counts (per profile
and level), says what its words mean, and every run says where to read on."""

from __future__ import annotations

import re

import pytest

from tests.paths import DOCS
from tests.running import run_spec

pytest_plugins = ["pytester"]


def _requirement(req_id: str, profile: str, level: str, prints: int, expected: int) -> str:
    return (
        f".. requirement:: {req_id}\n   :profile: {profile}\n   :level: {level}\n\n"
        f"   It {level} print {expected}.\n\n"
        f".. testcode::\n\n   print({prints})\n\n.. testoutput::\n\n   {expected}\n\n"
    )


#: two profiles, each with MUSTs and a SHOULD; one MUST and one SHOULD fail
MIXED = "Mixed\n=====\n\n" + "".join(
    [
        _requirement("CORE-MUST-1", "core", "MUST", 1, 1),
        _requirement("CORE-MUST-2", "core", "MUST", 2, 2),
        _requirement("CORE-SHOULD-1", "core", "SHOULD", 3, 4),
        _requirement("ASYNC-MUST-1", "async", "MUST", 5, 6),
        _requirement("ASYNC-SHOULD-1", "async", "SHOULD", 7, 7),
    ]
)
ROW = re.compile(r"^(\w+)\s+(MUST|SHOULD|MAY)\s+(\d+)\s+(\d+)(?:\s+\d+){6}$", re.MULTILINE)


def test_the_tables_rows_are_the_verdicts_counts(pytester: pytest.Pytester) -> None:
    (pytester.path / "mixed.rst").write_text(MIXED)
    result = run_spec(pytester)
    text = result.stdout.str()
    rows = {(m[1], m[2]): (int(m[3]), int(m[4])) for m in ROW.finditer(text)}
    assert rows == {
        ("core", "MUST"): (2, 2),
        ("core", "SHOULD"): (1, 0),
        ("async", "MUST"): (1, 0),
        ("async", "SHOULD"): (1, 1),
        ("all", "MUST"): (3, 2),
        ("all", "SHOULD"): (2, 1),
    }, text
    # the verdict's words for the same counts: "core 2/2 MUST", "MUST: 2/3 passed"
    headline = re.search(r"^verdict: .*$", text, re.MULTILINE)
    assert headline is not None, text
    for (profile, level), (total, passed) in rows.items():
        if profile == "all":
            assert re.search(rf"^{level}: {passed}/{total} passed", text, re.MULTILINE), text
        else:
            assert re.search(rf"^  {profile}\s.*{level} {passed}/{total} passed", text, re.M)
            if level == "MUST":
                assert f"{profile} {passed}/{total} MUST" in headline[0]


def test_not_run_is_explained_under_the_table(pytester: pytest.Pytester) -> None:
    (pytester.path / "mixed.rst").write_text(MIXED.replace(".. testcode::", ".. test-code::", 1))
    result = run_spec(pytester)
    lines = result.stdout.str().splitlines()
    last_row = max(i for i, line in enumerate(lines) if line.startswith("all "))
    legend = " ".join(lines[last_row + 1 : last_row + 3])
    assert legend.startswith("partly-checked = passed what ran, but some of its examples"), lines
    assert "xfailed = failed as declared; xpassed = declared to fail" in legend
    assert "not-run = no result (deselected, interrupted" in legend


def test_a_passing_run_says_where_to_read_on(pytester: pytest.Pytester) -> None:
    clean = MIXED.replace("print(3)", "print(4)").replace("print(5)", "print(6)")
    (pytester.path / "mixed.rst").write_text(clean)
    result = run_spec(pytester, "--docs-url", "https://spec.example/")
    assert result.ret == pytest.ExitCode.OK, result.stdout.str()
    result.stdout.fnmatch_lines(
        [
            "verdict: reference conforms*",
            "*the spec as HTML*: forkwait-conformance spec --open",
            "how to read these results: https://spec.example/validating.html#reports",
        ]
    )


def test_the_page_on_reading_results_has_the_section_linked() -> None:
    page = (DOCS / "validating.rst").read_text()
    assert "\nReports\n-------\n" in page  # its anchor is #reports
