"""Triage by cause, not by message shape: a cascade is one cause under the example that
broke the engine; timeouts group by the frame they hung at; an exception raised from one
frame is one cause across rules; a failure the adapter's own code raised is an adapter
error, never drafted as a limit of the engine."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.catalog.expectations import load_entries
from conformance.reports.cascades import cascades
from conformance.reports.drafts import BREAKS, SKIPS, TO_CONFIRM, XFAILS, drafts
from conformance.reports.frames import Boundary, adapter_error, origin
from conformance.reports.json_report import (
    ExampleRecord,
    RequirementRecord,
    RunReport,
    read_report,
)
from conformance.reports.triage import ADAPTER_ERROR, CASCADE, failures, groups, render
from tests.running import run_spec
from tests.suite.test_triage import triage

pytest_plugins = ["pytester"]

ENGINE = "/venv/site-packages/engine/_loop.py"
ADAPTER = "/work/adapter/fw_adapter.py"


def _ran(
    requirement: str,
    number: int,
    outcome: str,
    order: int,
    *,
    kind: str = "",
    cause: str = "",
    where: str = "",
    executor: int = 1,
    output: str = "",
    adapter: bool = False,
    document: str = "fork.rst",
) -> ExampleRecord:
    return ExampleRecord(
        number, "default", "", outcome, kind, "", f"{document}::{requirement}[{number}]",
        cause=cause, where=where, adapter_error=adapter, worker="gw0", executor=executor,
        order=order, output=output,
    )  # fmt: skip


def _requirement(req_id: str, *results: ExampleRecord) -> RequirementRecord:
    outcome = "failed" if any(r.outcome == "failed" for r in results) else "passed"
    return RequirementRecord(req_id, "core", "MUST", outcome, 0.1, len(results), "", results)


def _report(*requirements: RequirementRecord) -> RunReport:
    return RunReport("impl", "1", ("core",), "0.1.0", "2026-12-01T00:00:00+00:00", requirements)


HUNG = "timed out after 30 s; at fork.rst, line {}: fw.wait(f)"
INTERRUPT = "Traceback (most recent call last):\n  ...\nKeyboardInterrupt\n"


def _broken_loop() -> RunReport:
    """A task's KeyboardInterrupt ends the loop in FORK-2[1], which passes; the three
    examples after it in fork.rst time out, each in a fresh executor that replays it."""
    return _report(
        _requirement("FORK-1", _ran("FORK-1", 1, "passed", 1)),
        _requirement("FORK-2", _ran("FORK-2", 1, "passed", 2, output=INTERRUPT)),
        _requirement(
            "FORK-RETURNS-FUTURE-1",
            *(
                _ran(
                    "FORK-RETURNS-FUTURE-1",
                    n,
                    "failed",
                    2 + n,
                    kind="timeout",
                    cause=HUNG.format(20 + n),
                    where="_loop.py, line 40, in run_once",
                    executor=n,
                )
                for n in (1, 2, 3)
            ),
        ),
        _requirement("WAIT-1", _ran("WAIT-1", 1, "passed", 6, document="wait.rst")),
    )


def test_a_cascade_is_one_cause_under_the_example_that_broke_the_engine() -> None:
    report = _broken_loop()
    (cascade,) = cascades(report)
    assert cascade.start.record.nodeid == "fork.rst::FORK-2[1]"
    assert [v.record.example for v in cascade.victims] == [1, 2, 3]
    assert cascade.cause() == "passed, and printed KeyboardInterrupt"
    (group,) = groups(failures(report), report)
    assert group.kind == CASCADE
    assert len(group.failures) == 3
    lines = render(report)
    assert lines[0] == "3 failed examples, 1 cause (the most frequent first):"
    assert lines[2] == (
        "[3] cascade: after FORK-2[1], 3 later examples of fork.rst timed out or hung: "
        "passed, and printed KeyboardInterrupt"
    )
    assert lines[3].split() == ["FORK-2[1]", "(start)", "passed,", "and", "printed",
                                "KeyboardInterrupt"]  # fmt: skip
    # the victims are not declared: the example that broke the engine is, as a skip
    drafted = drafts(report)
    assert drafted[XFAILS] == []
    (skip,) = drafted[SKIPS]
    assert skip.requirement.id == "FORK-2"
    assert skip.reason().startswith(f"{TO_CONFIRM}{BREAKS}: after FORK-2[1], 3 later")


def test_timeouts_that_recover_are_no_cascade_and_group_by_where_they_hang() -> None:
    """A passing example between them: the engine recovered, each timeout is its own;
    those that hang at one frame are one cause, wherever the example stood."""
    at_run_once = "_loop.py, line 40, in run_once"
    report = _report(
        _requirement("A-1", _ran("A-1", 1, "failed", 1, kind="timeout",
                                 cause=HUNG.format(3), where=at_run_once)),
        _requirement("A-2", _ran("A-2", 1, "passed", 2)),
        _requirement("B-1", _ran("B-1", 1, "failed", 3, kind="timeout",
                                 cause=HUNG.format(9), where=at_run_once)),
        _requirement("B-2", _ran("B-2", 1, "passed", 4)),
        _requirement("C-1", _ran("C-1", 1, "failed", 5, kind="timeout",
                                 cause=HUNG.format(9), where="_pool.py, line 7, in get")),
        _requirement("C-2", _ran("C-2", 1, "passed", 6)),
    )  # fmt: skip
    assert cascades(report) == []
    found = [[f.requirement for f in g.failures] for g in groups(failures(report), report)]
    assert found == [["A-1", "B-1"], ["C-1"]]


def test_one_exception_from_one_frame_is_one_cause_across_rules() -> None:
    """The messages differ (a key, a count); the engine's line that raised is one."""
    raised_at = "_futures.py, line 88, in result"
    report = _report(
        _requirement("R-1", _ran("R-1", 1, "failed", 1, kind="exception",
                                 cause="KeyError: 'task-1'", where=raised_at)),
        _requirement("R-2", _ran("R-2", 1, "failed", 2, kind="exception",
                                 cause="KeyError: 'callback 3 of 7'", where=raised_at)),
        _requirement("R-3", _ran("R-3", 1, "failed", 3, kind="exception",
                                 cause="KeyError: 'task-1'", where="other.py, line 1, in f")),
    )  # fmt: skip
    found = [[f.requirement for f in g.failures] for g in groups(failures(report), report)]
    assert found == [["R-1", "R-2"], ["R-3"]]


def _traceback(*frames: tuple[str, int, str], last: str) -> str:
    lines = ["Traceback (most recent call last):"]
    for file, line, function in frames:
        lines += [f'  File "{file}", line {line}, in {function}', "    code"]
    return "\n".join([*lines, last]) + "\n"


def test_an_adapter_error_is_raised_by_the_adapter_s_code_or_refused_at_the_call() -> None:
    boundary = Boundary(frozenset({ADAPTER}), frozenset({"fork", "wait", "done"}))
    spec = ("/spec/fork.rst", 12, "<module>")
    in_adapter = _traceback(spec, (ADAPTER, 30, "fork"), last="KeyError: 'fn'")
    assert adapter_error(in_adapter, "KeyError: 'fn'", boundary)
    in_engine = _traceback(spec, (ADAPTER, 30, "fork"), (ENGINE, 5, "submit"), last="E: x")
    assert not adapter_error(in_engine, "E: x", boundary)
    raised_at = origin(in_engine)
    assert raised_at is not None
    assert raised_at.where() == "_loop.py, line 5, in submit"
    refused = "TypeError: fork() got multiple values for argument 'fn'"
    assert adapter_error(_traceback(spec, last=refused), refused, boundary)
    missing = "AttributeError: 'Task' object has no attribute 'done'"
    assert adapter_error(_traceback(spec, last=missing), missing, boundary)
    # the spec's own function called wrongly is the spec's, not the adapter's
    own = "TypeError: scale() got an unexpected keyword argument 'k'"
    assert not adapter_error(_traceback(spec, last=own), own, boundary)


def test_an_adapter_error_is_grouped_apart_and_never_drafted() -> None:
    refused = "TypeError: fork() got multiple values for argument 'fn'"
    report = _report(
        _requirement("R-1", _ran("R-1", 1, "failed", 1, kind="exception", cause=refused,
                                 where="fork.rst, line 3, in <module>", adapter=True)),
        _requirement("R-2", _ran("R-2", 1, "failed", 2, kind="exception",
                                 cause="TypeError: fork() got multiple values for argument "
                                 "'fn'", where="fork.rst, line 9, in <module>")),
    )  # fmt: skip
    kinds = [(g.kind, len(g.failures)) for g in groups(failures(report), report)]
    assert kinds == [(ADAPTER_ERROR, 1), ("exception", 1)]
    assert "    (raised by the adapter's own code: fix the adapter; not drafted)" in render(report)
    assert [d.requirement.id for d in drafts(report)[XFAILS]] == ["R-2"]


def test_a_run_that_breaks_its_engine_is_triaged_as_one_cascade_and_drafted_clean(
    pytester: pytest.Pytester,
) -> None:
    """The report holds what cascades need (worker, executor, order, output); the drafts
    skip the example that broke the engine, and the run with them passes."""
    fragile = ("--impl", "tests.suite.adapters.fragile:adapter", "--example-timeout", "2")
    first = run_spec(pytester, *fragile, "--report", "r.json", fixture="cascade.rst")
    assert first.ret == pytest.ExitCode.TESTS_FAILED
    report = read_report(pytester.path / "r.json")
    records = {e.nodeid.rpartition("::")[2]: e for r in report.requirements for e in r.results}
    assert [records[n].order for n in sorted(records)] == [2, 3, 1]
    assert "KeyboardInterrupt" in records["CASCADE-BREAK-1[1]"].output
    assert records["CASCADE-AFTER-1[2]"].executor > records["CASCADE-AFTER-1[1]"].executor
    shown = triage(pytester.path, "r.json", "--write-expectations", "declared")
    assert shown.returncode == 0, shown.stderr
    assert "[2] cascade: after CASCADE-BREAK-1[1], 2 later examples of cascade.rst" in (
        shown.stdout
    )
    assert "passed, and printed KeyboardInterrupt" in shown.stdout
    skips = load_entries(pytester.path / "declared/skips.toml", "skips")
    assert list(skips) == ["CASCADE-BREAK-1"]
    assert load_entries(pytester.path / "declared/xfails.toml") == {}
    second = run_spec(
        pytester, *fragile, "--skips-file", str(pytester.path / "declared/skips.toml"),
        fixture="cascade.rst",
    )  # fmt: skip
    assert second.ret == pytest.ExitCode.OK, second.stdout.str()
    second.stdout.fnmatch_lines(["declarations to confirm: 1 requirement *CASCADE-BREAK-1*"])


def test_a_bad_call_of_the_adapter_s_fork_is_an_adapter_error_in_a_real_run(
    pytester: pytest.Pytester, tmp_path: Path
) -> None:
    miswired = ("--impl", "tests.suite.adapters.miswired:adapter", "--example-timeout", "5")
    run = run_spec(pytester, *miswired, "--report", "r.json", "-k", "KWARGS", fixture="limits.rst")
    assert run.ret == pytest.ExitCode.TESTS_FAILED
    report = read_report(pytester.path / "r.json")
    failed = [e for r in report.requirements for e in r.results if e.outcome == "failed"]
    assert [e.adapter_error for e in failed] == [True, True]
    run.stdout.fnmatch_lines(["[[]2] adapter error: TypeError: fork() got an unexpected*"])
