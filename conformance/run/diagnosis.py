"""What made an example fail: its kind and its cause in one line, from the error itself.

The one classifier of a failed phase. Every error that fails an example
carries what it is as data - the doctest layer keeps each failing example's
kind, exception and Expected/Got apart, a deadline keeps its seconds, a
crash or hang its cause, a failed rebuild the replays that failed - so
nothing here reads a failure's text to learn its kind. isolation.py records
the diagnosis on the phase's report (``failure_kind``, ``cause``), where the
short summary, the JSON report, JUnit and the triage view read it; the
words of a cause are reports/cause_lines.py's. Where a failure came from (the
frame it was raised or hung at) and whether the adapter's own code raised it
are reports/frames.py's, from the traceback the failure carries.
"""

from __future__ import annotations

import functools
import traceback
from dataclasses import dataclass, replace
from importlib.machinery import PathFinder
from importlib.util import find_spec
from pathlib import Path

import pytest

from conformance.adapter import available
from conformance.catalog.vocabulary import FUTURE_METHODS, PROFILE_NAMES
from conformance.executor.handle import ExecutorFault
from conformance.executor.remote import RebuildFailed
from conformance.reports.cause_lines import (
    exception_line,
    first_difference,
    one_line,
    timeout_cause,
)
from conformance.reports.frames import Boundary, adapter_error, origin
from conformance.sphinx_doctest.evaluators import CleanupFailed, DoctestFailed, GroupSetupFailed
from conformance.sphinx_doctest.outcome import DeadlineExceeded, FailureKind
from conformance.sphinx_doctest.runners import WHERE_NOTE, DoctestResult


@dataclass(frozen=True)
class Diagnosis:
    """Why an example failed: how, and the line a reader would look for."""

    kind: FailureKind
    cause: str
    #: the frame it was raised or hung at (frames.py's origin), or ""
    where: str = ""
    #: the adapter's own code raised it: a bug of the glue, not a limit of the engine
    adapter_error: bool = False

    def properties(self) -> list[tuple[str, object]]:
        """As a report's user properties (plain strings: they cross xdist and JUnit)."""
        found: list[tuple[str, object]] = [
            ("failure_kind", self.kind.value),
            ("cause", self.cause),
        ]
        if self.where:
            found.append(("where", self.where))
        if self.adapter_error:
            found.append(("adapter_error", "1"))
        return found


@functools.cache
def boundary(impl: str) -> Boundary:
    """The adapter named ``impl`` (``--impl``) as frames.py needs it: the file of the module
    that defines it, found without importing it, and every ``fw`` name the spec calls."""
    target = available().get(impl, impl)
    found = _module_file(target.partition(":")[0])
    files = frozenset({str(found.resolve())} if found else ())
    names = {n for listed in PROFILE_NAMES.values() for n in listed}
    names |= {m for listed in FUTURE_METHODS.values() for m in listed}
    return Boundary(files, frozenset(names))


def _module_file(module: str) -> Path | None:
    """The file of ``module``, found without importing it or its packages (no process of
    pytest's imports the implementation); None for a name that is no module."""
    top, *parts = module.split(".")
    try:
        spec = find_spec(top) if top else None
        for index in range(len(parts)):
            where = spec.submodule_search_locations if spec else None
            name = ".".join([top, *parts[: index + 1]])
            spec = PathFinder.find_spec(name, list(where)) if where else None
    except (ImportError, ValueError):
        return None
    return Path(spec.origin) if spec and spec.origin and spec.has_location else None


def diagnose(error: BaseException, adapter: Boundary | None = None) -> Diagnosis:
    """The kind and cause of the failure ``error`` made (with ``adapter``, also whether the
    adapter's own code raised it)."""
    if isinstance(error, ExecutorFault):
        return Diagnosis(error.kind, one_line(error.cause))
    if isinstance(error, DeadlineExceeded):
        notes = [n for n in getattr(error, "__notes__", ()) if n.startswith(WHERE_NOTE)]
        where = notes[-1] if notes else ""
        cause = timeout_cause(error.seconds, where)
        hung_at = origin(where)
        return Diagnosis(FailureKind.TIMEOUT, cause, hung_at.where() if hung_at else "")
    if isinstance(error, RebuildFailed):
        return Diagnosis(FailureKind.SETUP, rebuild_cause(error))
    return _doctest_diagnosis(error, adapter or Boundary()) or Diagnosis(
        FailureKind.ERROR, exception_line("".join(traceback.format_exception_only(error)))
    )


def _doctest_diagnosis(error: BaseException, adapter: Boundary) -> Diagnosis | None:
    """The diagnosis of a failure the doctest layer tells (a test, a setup, a cleanup)."""
    if isinstance(error, DoctestFailed):
        first = error.result.failures[0] if error.result.failures else None
        found = Diagnosis(first.kind if first else FailureKind.OUTPUT, result_cause(error.result))
        if first is None or first.kind != FailureKind.EXCEPTION:
            return found
        raised_at = origin(first.detail)
        return replace(
            found,
            where=raised_at.where() if raised_at else "",
            adapter_error=adapter_error(first.detail, found.cause, adapter),
        )
    if isinstance(error, GroupSetupFailed):
        said = f"its group's setup failed: {result_cause(error.failure.result)}"
        return Diagnosis(FailureKind.SETUP, one_line(said))
    if isinstance(error, CleanupFailed):
        result = error.results[0] if error.results else DoctestResult()
        said = f"its group's cleanup failed: {result_cause(result)}"
        return Diagnosis(FailureKind.CLEANUP, one_line(said))
    return None


def diagnose_call(
    call: pytest.CallInfo[object], adapter: Boundary | None = None
) -> Diagnosis | None:
    """The diagnosis of a phase that failed; None for one that passed or skipped."""
    excinfo = call.excinfo
    if excinfo is None or excinfo.errisinstance(pytest.skip.Exception):
        return None
    return diagnose(excinfo.value, adapter)


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


__all__ = ["Diagnosis", "boundary", "diagnose", "diagnose_call", "rebuild_cause", "result_cause"]
