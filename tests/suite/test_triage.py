"""From a first red run to a clean, declared one with the suite's own commands.

An engine with three limits (tests/suite/adapters/limited_engine.py, behind the adapter
limited.py: no keyword arguments, tasks that must pickle, a nesting limit whose deep forks
hang) fails six examples of
fixtures/limits.rst for three causes. The run groups them by cause (in the terminal, in
the short summary, in ``forkwait-conformance triage``), ``triage --write-expectations``
drafts the files that declare them, and a second run with those files passes.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from conformance.catalog.expectations import load_entries
from conformance.executor.handle import ExecutorFault
from conformance.executor.processes import AFTER_A_CRASH, AFTER_ENDING_IT, crash_cause, hang_cause
from conformance.executor.remote import RebuildFailed
from conformance.reports.cause_lines import exception_line, first_difference, signature
from conformance.reports.drafts import SKIP_KINDS, TO_CONFIRM, drafts
from conformance.reports.json_report import (
    ExampleRecord,
    RequirementRecord,
    RunReport,
    read_report,
    schema,
    write_report,
)
from conformance.reports.triage import failures as failures_of
from conformance.reports.triage import groups
from conformance.run.diagnosis import diagnose
from conformance.sphinx_doctest.model import Location
from conformance.sphinx_doctest.outcome import DeadlineExceeded, FailureKind
from conformance.sphinx_doctest.runners import WHERE_NOTE, DoctestResult, ExampleFailure
from tests.running import run_spec

pytest_plugins = ["pytester"]

LIMITED = "tests.suite.adapters.limited:adapter"
PICKLE_LOCK = "TypeError: cannot pickle '_thread.lock' object"
PICKLE_GENERATOR = "TypeError: cannot pickle 'generator' object"
NO_KWARGS = "TypeError: a remote call takes positional arguments only, got"


def triage(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "conformance.cli", "triage", *args],
        capture_output=True, text=True, timeout=120, check=False, cwd=folder,
    )  # fmt: skip


def run_limited(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return run_spec(
        pytester, "--impl", LIMITED, "--example-timeout", "2", *args, fixture="limits.rst"
    )


def test_a_red_run_is_sorted_by_cause_and_declared_into_a_clean_one(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "240")  # the short summary lines, untrimmed
    first = run_limited(pytester, "--report", "first.json")
    assert first.ret == pytest.ExitCode.TESTS_FAILED
    report = read_report(pytester.path / "first.json")
    found = [
        (len(g.failures), g.kind, [f.name for f in g.failures]) for g in groups(failures_of(report))
    ]
    assert found == [
        (3, "exception", ["LIMIT-PICKLE-1[1]", "LIMIT-PICKLE-1[2]", "LIMIT-PLAIN-1[2]"]),
        (2, "exception", ["LIMIT-KWARGS-1[1]", "LIMIT-KWARGS-1[2]"]),
        (1, "timeout", ["LIMIT-NEST-1[1]"]),
    ]
    # the terminal: the groups with their counts, one line per example with its own cause
    first.stdout.fnmatch_lines(
        [
            "*= failures by cause =*",
            "6 failed examples, 3 causes (the most frequent first):",
            f"[[]3] exception: {PICKLE_LOCK} (at limited_engine.py, line *, in submit)",
            f"    LIMIT-PICKLE-1[[]2]  exception  {PICKLE_GENERATOR}",
            f"[[]2] exception: {NO_KWARGS} *'factor'* (at limited_engine.py, line *, in submit)",
            # a timeout's cause is where it hung: the engine's line, not the spec's
            "[[]1] timeout: timed out after 2 s; at limits.rst, line 75: return 0 if depth*"
            " (at limited_engine.py, line *, in _at_depth)",
            "*forkwait-conformance triage first.json --write-expectations DIR",
            "*= forkwait conformance: limited 1 =*",
        ]
    )
    # pytest's short summary gives each failure's cause, not the requirement's header
    first.stdout.fnmatch_lines([f"FAILED limits.rst::LIMIT-KWARGS-1[[]2] - {NO_KWARGS} *'x'*"])
    assert not [line for line in first.outlines if line.startswith("FAILED") and "(MUST" in line]

    # the same view from the report, and the drafted files
    shown = triage(pytester.path, "first.json", "--write-expectations", "declared")
    assert shown.returncode == 0, shown.stderr
    assert f"[3] exception: {PICKLE_LOCK} (at limited_engine.py" in shown.stdout
    xfails_file, skips_file = (
        pytester.path / "declared/xfails.toml",
        pytester.path / "declared/skips.toml",
    )
    xfails, skips = load_entries(xfails_file), load_entries(skips_file, "skips")
    assert {i: sorted(e.examples or ()) for i, e in xfails.items()} == {
        "LIMIT-KWARGS-1": [1, 2],
        "LIMIT-PICKLE-1": [1, 2],
        "LIMIT-PLAIN-1": [2],
    }
    assert {i: sorted(e.examples or ()) for i, e in skips.items()} == {"LIMIT-NEST-1": [1]}
    assert all(e.reason.startswith(TO_CONFIRM) for e in [*xfails.values(), *skips.values()])
    assert xfails["LIMIT-PLAIN-1"].reason == TO_CONFIRM + PICKLE_LOCK
    assert PICKLE_GENERATOR in xfails["LIMIT-PICKLE-1"].reason
    assert skips["LIMIT-NEST-1"].reason.startswith(TO_CONFIRM + "timed out after 2 s")
    assert "--xfails-file declared/xfails.toml --skips-file declared/skips.toml" in shown.stdout

    # drafts are not replaced unless told: they may hold confirmed reasons by now
    xfails_file.write_text(xfails_file.read_text().replace(TO_CONFIRM, ""))
    again = triage(pytester.path, "first.json", "--write-expectations", "declared")
    assert again.returncode == pytest.ExitCode.USAGE_ERROR
    assert "already exist" in again.stderr
    assert "--overwrite" in again.stderr
    assert TO_CONFIRM not in xfails_file.read_text()
    assert (
        triage(
            pytester.path, "first.json", "--write-expectations", "declared", "--overwrite"
        ).returncode
        == 0
    )

    second = run_limited(
        pytester, "--report", "second.json",
        "--xfails-file", str(xfails_file), "--skips-file", str(skips_file),
    )  # fmt: skip
    assert second.ret == pytest.ExitCode.OK, second.stdout.str()
    clean = read_report(pytester.path / "second.json")
    assert not failures_of(clean)
    assert {r.id: r.outcome for r in clean.requirements} == {
        "LIMIT-KWARGS-1": "xfailed",
        "LIMIT-PICKLE-1": "xfailed",
        "LIMIT-NEST-1": "skipped",
        "LIMIT-PLAIN-1": "xfailed",
    }
    assert "failures by cause" not in second.stdout.str()
    second.stdout.fnmatch_lines(["verdict: limited does not conform (as declared: 3 MUST*"])


def _record(
    number: int, outcome: str, kind: str = "", message: str = "", cause: str = ""
) -> ExampleRecord:
    return ExampleRecord(
        number, "default", "", outcome, kind, message, f"a.rst::R-1[{number}]", cause=cause
    )


def _report(*requirements: RequirementRecord) -> RunReport:
    return RunReport("impl", "1", ("core",), "0.1.0", "2026-12-01T00:00:00+00:00", requirements)


def test_a_drafted_entry_keeps_what_the_run_already_counted_as_declared() -> None:
    # --xfails-file and --skips-file replace the adapter's entry for a requirement: a drafted
    # entry that named only the new failures would let the declared ones fail again
    xfails = RequirementRecord("R-1", "core", "MUST", "failed", 0.1, 3, "", (
        _record(1, "xfailed", "output", "R-1 example 1: prints 3 (known)"),
        _record(2, "failed", "exception", "...", "KeyError: 'x'"),
        _record(3, "passed"),
    ))  # fmt: skip
    skips = RequirementRecord("R-2", "core", "MUST", "failed", 0.1, 3, "", (
        _record(1, "skipped", message="R-2 example 1: not run (it deadlocks)"),
        _record(2, "failed", "timeout", "...", "timed out after 30 s"),
        _record(3, "failed", "output", "...", "output line 1: got '1', expected '2'"),
    ))  # fmt: skip
    drafted = drafts(_report(xfails, skips))
    by_id = {d.requirement.id: d.examples for d in drafted["xfails.toml"]}
    assert by_id == {
        "R-1": {1: "prints 3 (known)", 2: f"{TO_CONFIRM}KeyError: 'x'"},
        "R-2": {3: f"{TO_CONFIRM}output line 1: got '1', expected '2'"},
    }
    assert {d.requirement.id: d.examples for d in drafted["skips.toml"]} == {
        "R-2": {1: "it deadlocks", 2: f"{TO_CONFIRM}timed out after 30 s"}
    }
    assert drafted["xfails.toml"][0].reason() == (
        f"{TO_CONFIRM}example 1: prints 3 (known); example 2: KeyError: 'x'"
    )


OUTPUT_DIFFERENCE = """\
Expected:
    [1, 2, 3]
    done ...
Got:
    [1, 2, 3]
    failed
"""


def test_a_cause_is_the_exception_raised_or_the_first_line_that_differs() -> None:
    assert first_difference(OUTPUT_DIFFERENCE) == "output line 2: got 'failed', expected 'done ...'"
    assert first_difference("Expected:\n    1\nGot nothing\n") == (
        "printed nothing where '1' was expected"
    )
    assert (
        first_difference("Expected nothing\nGot:\n    1\n")
        == "printed '1' where nothing was expected"
    )
    chained = (
        "Traceback (most recent call last):\n  ...\nTypeError: cannot pickle 'lock' object\n\n"
        "The above exception was the direct cause of the following exception:\n\n"
        "Traceback (most recent call last):\n  ...\n"
        "loky.PicklingError: Could not pickle the task\nsome note the code added\n"
    )
    assert (
        exception_line(chained, "PicklingError") == "loky.PicklingError: Could not pickle the task"
    )
    assert exception_line(chained) == "loky.PicklingError: Could not pickle the task"


def test_a_crash_or_hang_says_what_happened_not_what_the_harness_did_next() -> None:
    crash = ExecutorFault(FailureKind.CRASH, crash_cause(-11, False), AFTER_A_CRASH)
    assert diagnose(crash).kind == FailureKind.CRASH
    assert diagnose(crash).cause == "the example crashed the interpreter (killed by SIGSEGV)"
    assert crash.summary.endswith(AFTER_A_CRASH)
    hang = ExecutorFault(FailureKind.HANG, hang_cause(30), AFTER_ENDING_IT)
    assert diagnose(hang).kind == FailureKind.HANG
    assert diagnose(hang).cause.startswith("hung past --example-timeout (30 s) where Python")


@pytest.mark.parametrize("status", [0, 3, 87])
def test_an_exit_is_named_by_its_status_whatever_it_is(status: int) -> None:
    """os._exit(0) was said to break the channel, and 87 (the executor's own status for
    a broken channel) can be an example's too: only the executor's note tells them apart."""
    said = f"the example ended the executor process with os._exit({status})"
    assert crash_cause(status, channel_closed=False).startswith(said)
    assert "channel" not in crash_cause(status, channel_closed=False)
    assert "closed or replaced the executor's channel" in crash_cause(87, channel_closed=True)
    at_start = crash_cause(1, False, "importing implementation 'x'")  # no example ran yet
    assert at_start.startswith("importing implementation 'x' ended the executor process with")


def test_a_timeout_s_cause_is_its_deadline_and_the_line_it_was_at() -> None:
    where = (
        f"{WHERE_NOTE}Traceback (most recent call last):\n"
        '  File "/spec/wait.rst", line 130, in <module>\n    wait_forever()\n'
        '  File "/venv/fw/_future.py", line 12, in wait\n    self._done.wait()\n'
        "DeadlineExceeded: timed out after 30 s (--example-timeout)\n"
    )
    stopped = DeadlineExceeded(30.0, "--example-timeout")
    stopped.add_note(where)
    assert str(stopped) == "timed out after 30 s (--example-timeout)"
    assert diagnose(stopped).kind == FailureKind.TIMEOUT
    assert diagnose(stopped).cause == "timed out after 30 s; at wait.rst, line 130: wait_forever()"


def test_a_failed_rebuild_names_the_replayed_test_and_what_it_raised() -> None:
    """It was named ``conformance.executor.remote.RebuildFailed: default``."""
    replayed = ExampleFailure(
        "assert not done\n",
        Location(Path("/spec/faults.rst"), 12, "faults.rst"),
        13,
        FailureKind.EXCEPTION,
        "Traceback (most recent call last):\n  ...\nAssertionError: ran before\n",
        "AssertionError",
    )
    error = RebuildFailed("default", [(0, DoctestResult(1, [replayed]))])
    assert diagnose(error).kind == FailureKind.SETUP
    assert diagnose(error).cause == (
        "not run: replaying test 1 of group 'default' (faults.rst, line 13) to rebuild its "
        "namespace failed: AssertionError: ran before"
    )


def test_causes_equal_but_for_names_numbers_and_addresses_share_a_signature() -> None:
    same = [
        ("exception", "TypeError: cannot pickle '_thread.lock' object"),
        ("exception", 'TypeError: cannot pickle "generator" object'),
    ]
    assert len({signature(kind, cause) for kind, cause in same}) == 1
    assert signature("exception", "ValueError: <f at 0x7f3a2b> failed 3 times") == signature(
        "exception", "ValueError: <f at 0x55aa01> failed 12 times"
    )
    # where a timeout happened is not its cause; in output, what was printed is
    assert signature("timeout", "timed out after 30 s; at a.rst, line 3: x") == signature(
        "timeout", "timed out after 30 s; at b.rst, line 9: y"
    )
    assert signature("output", "output line 1: got 'a', expected 'b'") != signature(
        "output", "output line 1: got 'c', expected 'b'"
    )
    assert signature("exception", "KeyError: 1") != signature("output", "KeyError: 1")


def test_triage_and_matrix_refuse_a_fifo_rather_than_wait_on_it(tmp_path: Path) -> None:
    fifo = tmp_path / "report.json"
    os.mkfifo(fifo)
    for command in (["triage", str(fifo)], ["matrix", str(fifo)]):
        done = subprocess.run(
            [sys.executable, "-m", "conformance.cli", *command],
            capture_output=True, text=True, timeout=60, check=False, cwd=tmp_path,
        )  # fmt: skip
        assert done.returncode == pytest.ExitCode.USAGE_ERROR, done.stdout + done.stderr
        assert f"{fifo} is not a regular file" in done.stderr
        assert "Traceback" not in done.stderr


def _stopped_in_its_first_second() -> RunReport:
    never = RequirementRecord(
        "R-1", "core", "MUST", "not-run", 0.0, 0, "", (_record(1, "not-run"),)
    )
    return replace(_report(never), complete=False, interrupted=True)


@pytest.mark.parametrize(
    ("report", "said"),
    [
        (_stopped_in_its_first_second(), "the run was interrupted; 1 requirement did not run"),
        (
            replace(_report(), selection=("-k R-2",)),
            "a partial run (-k R-2): what follows covers only what it selected",
        ),
    ],
)
def test_triage_of_an_interrupted_or_partial_run_says_so_and_drafts_nothing(
    tmp_path: Path, report: RunReport, said: str
) -> None:
    """ "no failures" of a run stopped before anything ran would read as a clean run, and
    drafts from it as an engine with nothing to declare."""
    write_report(report, tmp_path / "r.json")
    shown = triage(tmp_path, "r.json")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines()[0].startswith(f"r.json: {said}")
    drafted = triage(tmp_path, "r.json", "--write-expectations", "declared")
    assert drafted.returncode == pytest.ExitCode.USAGE_ERROR, drafted.stdout
    assert f"r.json: {said}" in drafted.stderr
    assert "draft from the report of a whole run" in drafted.stderr
    assert not (tmp_path / "declared").exists()


def test_the_failure_kinds_are_the_report_s_and_only_absorbable_ones_are_xfail_drafts() -> None:
    """One definition: the kinds a report may hold are FailureKind's values (the schema's
    enum, whose "" is an example that did not fail), and a draft puts in the skips file
    every kind an expected failure cannot absorb."""
    assert set(schema()["$defs"]["kind"]["enum"]) == {"", *FailureKind}
    assert set(SKIP_KINDS) == set(FailureKind) - {FailureKind.OUTPUT, FailureKind.EXCEPTION}
    assert {k for k in FailureKind if k.stops_the_process} == {"timeout", "hang", "crash"}
