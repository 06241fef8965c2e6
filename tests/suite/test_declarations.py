"""Declarations that stay true: a redraft keeps every declaration the run counted (skips
included); drafted reasons not yet confirmed are counted, and fail a --strict run; an
example whose outcome depends on timing is declared flaky (both outcomes accepted, counted
apart); the matrix shows each declaration's reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.catalog.expectations import XfailsError, load_entries
from conformance.reports.drafts import SKIPS, TO_CONFIRM, XFAILS, drafts, write_drafts
from conformance.reports.json_report import ExampleRecord, RequirementRecord, RunReport
from conformance.reports.matrix import declarations, to_markdown
from tests.running import run_spec

pytest_plugins = ["pytester"]


def _example(
    req_id: str, number: int, outcome: str, message: str, **fields: object
) -> ExampleRecord:
    return ExampleRecord(
        number,
        "default",
        "",
        outcome,
        "",
        message,
        f"a.rst::{req_id}[{number}]",
        **fields,  # type: ignore[arg-type]
    )


def _declared_run(*, strict: bool = False) -> RunReport:
    """A clean run with declarations only: ten skips, an expected failure, a flaky one."""
    skipped = RequirementRecord("R-SKIP", "core", "MUST", "skipped", 0.0, 0, "", tuple(
        _example("R-SKIP", n, "skipped", f"R-SKIP example {n}: not run (hangs on exit)")
        for n in range(1, 11)
    ))  # fmt: skip
    xfailed = RequirementRecord("R-XFAIL", "core", "MUST", "xfailed", 0.1, 1, "", (
        _example("R-XFAIL", 1, "xfailed", f"R-XFAIL example 1: {TO_CONFIRM}KeyError: 'x'"),
    ))  # fmt: skip
    flaky = RequirementRecord("R-FLAKY", "core", "MUST", "passed", 0.1, 1, "", (
        _example("R-FLAKY", 1, "passed", "R-FLAKY example 1: exit races the pool", flaky=True),
    ))  # fmt: skip
    return RunReport(
        "impl", "1", ("core",), "0.1.0", "2026-12-01T00:00:00+00:00",
        (skipped, xfailed, flaky), strict=strict,
    )  # fmt: skip


def test_a_redraft_keeps_every_declaration_the_run_counted(tmp_path: Path) -> None:
    """A redraft said "skips.toml: 0 requirements" of a run that used ten skips."""
    report = _declared_run()
    drafted = drafts(report)
    assert [d.requirement.id for d in drafted[SKIPS]] == ["R-SKIP"]
    assert [d.requirement.id for d in drafted[XFAILS]] == ["R-XFAIL", "R-FLAKY"]
    written = write_drafts(report, tmp_path, "r.json")
    assert list(written.values()) == [2, 1]
    skips = load_entries(tmp_path / "skips.toml", "skips")
    assert skips["R-SKIP"].examples == frozenset(range(1, 11))
    assert skips["R-SKIP"].reason == "hangs on exit"  # a confirmed reason stays confirmed
    xfails = load_entries(tmp_path / "xfails.toml")
    assert xfails["R-XFAIL"].reason == f"{TO_CONFIRM}KeyError: 'x'"  # and a draft a draft
    assert xfails["R-FLAKY"].flaky
    assert xfails["R-FLAKY"].reason == "exit races the pool"


def test_drafted_reasons_are_counted_and_fail_a_strict_run() -> None:
    verdict = _declared_run().verdict()
    assert verdict.passed
    assert verdict.unconfirmed == ("R-XFAIL",)
    assert (
        "declarations to confirm: 1 requirement declared with a drafted reason (TO CONFIRM): "
        "R-XFAIL (--strict fails on them)"
    ) in verdict.lines()
    assert verdict.flaky == ("R-FLAKY example 1: passed",)
    strict = _declared_run(strict=True).verdict()
    assert not strict.passed
    assert strict.failing == ("declarations with a drafted reason to confirm (--strict): R-XFAIL",)


def test_the_matrix_shows_each_declaration_s_reason() -> None:
    report = _declared_run()
    assert [(d.requirement, d.declared, d.reason) for d in declarations(report)] == [
        ("R-SKIP", "skip", "hangs on exit"),
        ("R-XFAIL", "expected failure", f"{TO_CONFIRM}KeyError: 'x'"),
        ("R-FLAKY", "flaky", "exit races the pool"),
    ]
    text = to_markdown([report])
    assert "| impl 1 | R-SKIP | skip | 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 | hangs on exit |" in text
    assert "| impl 1 | R-FLAKY | flaky | 1 | exit races the pool |" in text


@pytest.mark.parametrize(
    ("text", "what", "said"),
    [
        ('["R-1"]\nreason = "r"\nflaky = "yes"\n', "expected-failures", "flaky must be true"),
        ('["R-1"]\nreason = "r"\nflaky = true\n', "skips", "flaky belongs in the expected"),
    ],
)
def test_a_flaky_key_is_checked(tmp_path: Path, text: str, what: str, said: str) -> None:
    path = tmp_path / "e.toml"
    path.write_text(text)
    with pytest.raises(XfailsError, match=said):
        load_entries(path, what)


def test_a_flaky_example_passes_or_fails_as_declared_and_is_named_in_the_verdict(
    pytester: pytest.Pytester,
) -> None:
    """LIMIT-PLAIN-1's first example passes and its second fails: declared flaky, both
    are accepted, and the verdict says how each ended."""
    xfails, skips = pytester.path / "xfails.toml", pytester.path / "skips.toml"
    xfails.write_text(
        '["LIMIT-KWARGS-1"]\nreason = "positional arguments only"\n'
        '["LIMIT-PICKLE-1"]\nreason = "tasks are pickled"\n'
        '["LIMIT-PLAIN-1"]\nreason = "the pickling of a lock races the pool"\nflaky = true\n'
    )
    skips.write_text('["LIMIT-NEST-1"]\nreason = "a nesting limit: deep forks hang"\n')
    run = run_spec(
        pytester, "--impl", "tests.suite.adapters.limited:adapter", "--example-timeout", "2",
        "--xfails-file", str(xfails), "--skips-file", str(skips), fixture="limits.rst",
    )  # fmt: skip
    assert run.ret == pytest.ExitCode.OK, run.stdout.str()
    run.stdout.fnmatch_lines(
        [
            "declared flaky (timing decides; either outcome accepted): 2 examples: "
            "LIMIT-PLAIN-1 example 1: passed, LIMIT-PLAIN-1 example 2: xfailed"
        ]
    )
