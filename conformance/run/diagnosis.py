"""What made an example fail: its kind and its cause in one line, from the error itself.

The one classifier of a failed phase. Every error that fails an example
carries what it is as data - the doctest layer keeps each failing example's
kind, exception and Expected/Got apart, a deadline keeps its seconds, a
crash or hang its cause, a failed rebuild the replays that failed - so
nothing here reads a failure's text to learn its kind. isolation.py records
the diagnosis on the phase's report (``failure_kind``, ``cause``), where the
short summary, the JSON report, JUnit and the triage view read it; the
words of a cause are reports/cause_lines.py's.
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass

import pytest

from conformance.executor.handle import ExecutorFault
from conformance.executor.remote import RebuildFailed
from conformance.reports.cause_lines import (
    exception_line,
    first_difference,
    one_line,
    timeout_cause,
)
from conformance.sphinx_doctest.evaluators import CleanupFailed, DoctestFailed, GroupSetupFailed
from conformance.sphinx_doctest.outcome import DeadlineExceeded, FailureKind
from conformance.sphinx_doctest.runners import WHERE_NOTE, DoctestResult


@dataclass(frozen=True)
class Diagnosis:
    """Why an example failed: how, and the line a reader would look for."""

    kind: FailureKind
    cause: str

    def properties(self) -> list[tuple[str, object]]:
        """As a report's user properties (plain strings: they cross xdist and JUnit)."""
        return [("failure_kind", self.kind.value), ("cause", self.cause)]


def diagnose(error: BaseException) -> Diagnosis:
    """The kind and cause of the failure ``error`` made."""
    if isinstance(error, ExecutorFault):
        return Diagnosis(error.kind, one_line(error.cause))
    if isinstance(error, DeadlineExceeded):
        notes = [n for n in getattr(error, "__notes__", ()) if n.startswith(WHERE_NOTE)]
        cause = timeout_cause(error.seconds, notes[-1] if notes else "")
        return Diagnosis(FailureKind.TIMEOUT, cause)
    if isinstance(error, RebuildFailed):
        return Diagnosis(FailureKind.SETUP, rebuild_cause(error))
    return _doctest_diagnosis(error) or Diagnosis(
        FailureKind.ERROR, exception_line("".join(traceback.format_exception_only(error)))
    )


def _doctest_diagnosis(error: BaseException) -> Diagnosis | None:
    """The diagnosis of a failure the doctest layer tells (a test, a setup, a cleanup)."""
    if isinstance(error, DoctestFailed):
        first = error.result.failures[0] if error.result.failures else None
        return Diagnosis(first.kind if first else FailureKind.OUTPUT, result_cause(error.result))
    if isinstance(error, GroupSetupFailed):
        said = f"its group's setup failed: {result_cause(error.failure.result)}"
        return Diagnosis(FailureKind.SETUP, one_line(said))
    if isinstance(error, CleanupFailed):
        result = error.results[0] if error.results else DoctestResult()
        said = f"its group's cleanup failed: {result_cause(result)}"
        return Diagnosis(FailureKind.CLEANUP, one_line(said))
    return None


def diagnose_call(call: pytest.CallInfo[object]) -> Diagnosis | None:
    """The diagnosis of a phase that failed; None for one that passed or skipped."""
    excinfo = call.excinfo
    if excinfo is None or excinfo.errisinstance(pytest.skip.Exception):
        return None
    return diagnose(excinfo.value)


def result_cause(result: DoctestResult) -> str:
    """The cause of a doctest run's first failure: its exception line or first difference."""
    if not result.failures:
        return ""
    failure = result.failures[0]
    if failure.kind == FailureKind.EXCEPTION:
        return exception_line(failure.detail, failure.exception)
    return first_difference(failure.detail)


def rebuild_cause(error: RebuildFailed) -> str:
    """Which replayed test failed the rebuild, where it is, and what it raised or printed:
    the fault is the replayed test's, not the example that needed the namespace."""
    index, result = error.failures[0]
    failure = result.failures[0] if result.failures else None
    place = ""
    if failure is not None and failure.location.path is not None:
        line = "" if failure.line is None else f", line {failure.line}"
        place = f" ({failure.location.path.name}{line})"
    elif failure is not None:
        place = f" ({failure.location.label})"
    said = (
        f"not run: replaying test {index + 1} of group {error.group!r}{place} to rebuild "
        f"its namespace failed: {result_cause(result)}"
    )
    return one_line(said)


__all__ = ["Diagnosis", "diagnose", "diagnose_call", "rebuild_cause", "result_cause"]
