"""The cause of an example's failure, in one line, from what made it fail.

The plugin records it on the failed phase's report (``cause``), where the
short summary, the report's ``cause`` and the triage view read it. Read from
the failure itself, not from its text: the doctest layer keeps each failing
example's kind, exception and Expected/Got apart, and a crash or hang keeps
its summary. The words are reports/cause_lines.py's, which reads texts the same way.
"""

from __future__ import annotations

import traceback

from conformance.executor.handle import ExecutorFault
from conformance.reports.cause_lines import (
    exception_line,
    fault_cause,
    first_difference,
    one_line,
    timeout_cause,
)
from conformance.run.isolation import is_timeout
from conformance.sphinx_doctest.evaluators import CleanupFailed, DoctestFailed, GroupSetupFailed
from conformance.sphinx_doctest.runners import WHERE_NOTE, DoctestResult


def result_cause(result: DoctestResult) -> str:
    """The cause of a doctest run's first failure: its exception line or first difference."""
    if not result.failures:
        return ""
    failure = result.failures[0]
    if failure.kind == "exception":
        return exception_line(failure.detail, failure.exception)
    return first_difference(failure.detail)


def failure_cause(error: BaseException) -> str:
    """One line that says why ``error`` failed an example."""
    if isinstance(error, DoctestFailed):
        return result_cause(error.result)
    if isinstance(error, GroupSetupFailed):
        return one_line(f"its group's setup failed: {result_cause(error.failure.result)}")
    if isinstance(error, CleanupFailed):
        first = error.results[0] if error.results else DoctestResult()
        return one_line(f"its group's cleanup failed: {result_cause(first)}")
    if isinstance(error, ExecutorFault):
        return fault_cause(error.summary)
    if is_timeout(error):
        notes = [n for n in getattr(error, "__notes__", ()) if n.startswith(WHERE_NOTE)]
        return timeout_cause(str(error), notes[-1] if notes else "")
    return exception_line("".join(traceback.format_exception_only(error)))


__all__ = ["failure_cause", "result_cause"]
