"""The verdict: per claimed profile and level, and whether the run fails (verdict.py).

Built from report records, as a report read back would give them; the terminal
and JSON sides are checked end to end in tests/suite/test_harness.py.
"""

from __future__ import annotations

from conformance.reports.json_report import ExampleRecord, RequirementRecord
from conformance.reports.results import requirement_outcome
from conformance.reports.verdict import Tally, judge


def requirement(req_id: str, profile: str, level: str, *outcomes: str) -> RequirementRecord:
    """A requirement whose examples ended with ``outcomes`` (its own as a run decides it)."""
    examples = tuple(
        ExampleRecord(n, "default", "", o, "output" if o == "failed" else "", "", f"x::{n}")
        for n, o in enumerate(outcomes, 1)
    )
    outcome = requirement_outcome(outcomes)
    return RequirementRecord(req_id, profile, level, outcome, 0.0, len(outcomes), "", examples)


SPEC = (
    requirement("A-1", "core", "MUST", "passed", "passed"),
    requirement("A-2", "core", "MUST", "passed"),
    requirement("A-3", "core", "SHOULD", "passed"),
    requirement("B-1", "async", "MUST", "passed"),
    requirement("T-1", "trace", "MUST", "skipped"),
)


def test_a_clean_run_conforms_with_one_line_per_level_and_profile() -> None:
    verdict = judge("impl", ["async", "core"], SPEC, strict=False)
    assert verdict.passed
    assert verdict.headline() == "impl conforms: core 2/2 MUST, async 1/1 MUST"
    assert verdict.level_lines() == ["MUST: 3/3 passed", "SHOULD: 1/1 passed", "MAY: 0/0 passed"]
    lines = verdict.lines()
    assert lines[0] == "verdict: impl conforms: core 2/2 MUST, async 1/1 MUST"
    assert " ".join(lines[1].split()) == "core conforms MUST 2/2 passed; SHOULD 1/1 passed"
    # examples counted as pytest counts them; the unclaimed profile is not judged
    assert lines[-1] == "examples: 5/6 passed, 1 skipped"
    assert [p.profile for p in verdict.profiles] == ["core", "async"]


def test_a_failed_should_fails_the_run_only_when_strict() -> None:
    spec = (*SPEC[:2], requirement("A-3", "core", "SHOULD", "passed", "failed"))
    lenient = judge("impl", ["core"], spec, strict=False)
    assert lenient.passed
    assert lenient.profiles[0].status == "conforms"  # conformance is about MUSTs
    assert lenient.level_lines()[1] == (
        "SHOULD: 0/1 passed, 1 failed (a failed SHOULD or MAY fails the run only with --strict)"
    )
    strict = judge("impl", ["core"], spec, strict=True)
    assert strict.failing == ("failed SHOULD or MAY requirements (--strict): A-3",)
    assert strict.level_lines()[1] == "SHOULD: 0/1 passed, 1 failed"


def test_declared_failures_pass_the_run_but_do_not_conform() -> None:
    spec = (requirement("A-1", "core", "MUST", "xfailed"), SPEC[1])
    verdict = judge("impl", ["core"], spec, strict=False)
    assert verdict.passed
    assert verdict.headline() == (
        "impl does not conform (as declared: 1 MUST expected to fail): core 1/2 MUST"
    )
    assert verdict.level_lines()[0] == "MUST: 1/2 passed, 1 xfailed"


def test_failures_unexpected_passes_and_missing_examples_fail_the_run() -> None:
    spec = (
        requirement("A-1", "core", "MUST", "failed"),
        requirement("A-2", "core", "MUST", "xpassed"),
        requirement("A-3", "core", "MUST"),
    )
    verdict = judge("impl", ["core"], spec, strict=False)
    assert not verdict.passed
    assert [reason.partition(":")[0] for reason in verdict.failing] == [
        "failed MUST requirements",
        "expected to fail but passed (remove them from the expected failures)",
        "requirements with no example collected (check their examples' directives)",
    ]


def test_a_partial_run_judges_only_what_ran_and_says_which_selection_it_was() -> None:
    spec = (SPEC[0], requirement("A-2", "core", "MUST"), requirement("B-1", "async", "MUST"))
    verdict = judge("impl", ["core", "async"], spec, selection=["-k A-1"], strict=False)
    assert verdict.passed  # what did not run is no failure of a selection
    assert [p.profile for p in verdict.profiles] == ["core"]
    assert verdict.profiles[0].status == "not fully checked"
    assert verdict.level_lines()[0] == "MUST: 1/1 passed"
    assert verdict.headline() == (
        "impl passes every MUST that ran (partial: -k A-1; not a verdict on the profiles): "
        "core 1/1 MUST"
    )


def test_a_partial_run_never_says_conforms() -> None:
    for selection in (["--quick"], ["-k A", "-m profile_core"], ["node IDs"]):
        verdict = judge("impl", ["core", "async"], SPEC, selection=selection, strict=False)
        assert verdict.passed
        assert "conforms" not in "\n".join(verdict.lines())
        assert f"(partial: {', '.join(selection)};" in verdict.headline()
        failing = (requirement("A-1", "core", "MUST", "failed"), *SPEC[1:])
        failed = judge("impl", ["core"], failing, selection=selection, strict=False)
        assert failed.headline().startswith(
            f"impl does not conform (partial: {', '.join(selection)};"
        )


def test_a_must_checked_in_part_is_not_counted_passed_and_never_reads_conforms() -> None:
    spec = (requirement("A-1", "core", "MUST", "passed", "skipped"), *SPEC[1:])
    assert spec[0].outcome == "partly-checked"
    for strict in (False, True):  # the skip is declared: the run passes, --strict or not
        verdict = judge("impl", ["core", "async"], spec, strict=strict)
        assert verdict.passed
        assert verdict.headline() == (
            "impl conforms, checked in part: core 1/2 MUST (1 checked in part), async 1/1 MUST"
        )
        # the line scripts read: the partly checked MUST is not among the passed
        assert verdict.level_lines()[0] == "MUST: 2/3 passed, 1 partly-checked"
        lines = [" ".join(line.split()) for line in verdict.lines()]
        assert lines[1] == (
            "core conforms, checked in part MUST 1/2 passed, 1 partly-checked; SHOULD 1/1 passed"
        )
        assert lines[2] == "async conforms MUST 1/1 passed"
        # examples are counted as pytest counts them: no example is partly checked
        assert lines[-1] == "examples: 4/6 passed, 2 skipped"
    data = verdict.to_json()
    assert data["profiles"]["core"]["status"] == "conforms, checked in part"
    assert data["levels"]["MUST"]["partly-checked"] == 1
    assert "partly-checked" not in data["examples"]


def test_a_must_not_run_at_all_outweighs_one_checked_in_part() -> None:
    spec = (
        requirement("A-1", "core", "MUST", "passed", "skipped"),
        requirement("A-2", "core", "MUST", "skipped"),
    )
    verdict = judge("impl", ["core"], spec, strict=False)
    assert verdict.profiles[0].status == "not fully checked"
    assert verdict.headline() == "impl is not fully checked: core 0/2 MUST (1 checked in part)"
    assert verdict.level_lines()[0] == "MUST: 0/2 passed, 1 partly-checked, 1 skipped"


def test_a_partial_run_of_a_must_checked_in_part_passes_what_ran() -> None:
    spec = (requirement("A-1", "core", "MUST", "passed", "skipped"),)
    verdict = judge("impl", ["core"], spec, selection=["-k A-1"], strict=False)
    assert verdict.headline() == (
        "impl passes every MUST that ran (partial: -k A-1; not a verdict on the profiles): "
        "core 0/1 MUST (1 checked in part)"
    )


def test_the_json_verdict_carries_the_terminal_lines() -> None:
    verdict = judge("impl", ["core"], SPEC, strict=False)
    data = verdict.to_json()
    assert data["lines"] == verdict.level_lines()
    assert data["levels"]["MUST"] == Tally({"passed": 2}).to_json()
    assert data["profiles"]["core"]["status"] == "conforms"
