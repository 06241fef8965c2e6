"""What a conformance run tells people and tools at its end: table, verdict, JSON.

Registered on the xdist controller (or the only process): it folds every
report into per-example results (summary.py), prints the per-profile table
and the failed requirements with their level, decides the exit status (only
MUSTs fail the run unless ``--strict``; an unexpected pass always does; so
does a requirement no example of which was collected), and writes the JSON
report (report.py), saying whether the run was complete or interrupted.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

from conformance.catalog.requirements import Requirement
from conformance.catalog.vocabulary import PROFILES
from conformance.reports.json_report import build_report, write_report
from conformance.reports.results import RunResults, render_table
from conformance.run.spec_items import RunOptions
from conformance.run.worker_lines import reword_worker_lines
from conformance.sphinx_doctest.items import CleanupFailed, DoctestFailed, GroupSetupFailed

_TIMEOUT_PREFIX = "Timeout (>"


def failure_kind(call: pytest.CallInfo[None]) -> str:
    """output, exception, setup, cleanup, timeout or error: what made this phase fail."""
    excinfo = call.excinfo
    if excinfo is None or excinfo.errisinstance(pytest.skip.Exception):
        return ""
    error = excinfo.value
    if isinstance(error, DoctestFailed):
        return error.result.failures[0].kind if error.result.failures else "output"
    if isinstance(error, GroupSetupFailed):
        return "setup"
    if isinstance(error, CleanupFailed):
        return "cleanup"
    if str(error).startswith(_TIMEOUT_PREFIX):
        return "timeout"
    return "error"


class ConformanceReporter:
    """Folds reports into results; prints the table; sets the exit status; writes JSON."""

    def __init__(
        self,
        config: pytest.Config,
        catalog: Mapping[str, Requirement],
        options: RunOptions,
        spec_warnings: str,
    ) -> None:
        self.config = config
        self.options = options
        #: what Sphinx warned about the spec's documents: the run cannot be trusted whole
        self.spec_warnings = spec_warnings.strip()
        self.results = RunResults(catalog)
        report = config.getoption("report")
        self.report_path = Path(report) if report else None
        self.selected: set[str] | None = None

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionstart(self, session: pytest.Session) -> None:
        reword_worker_lines(self.config)

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.results.add(report)
        if getattr(report, "forkwait_ended_worker", False):
            self._close_ended_example(report)
        # Once every other plugin has seen it, the report forgets its xdist worker, so
        # that pytest does not head each failure with "[gw0] linux -- Python ..."
        # (every example runs in the same kind of worker: the line says nothing).
        if hasattr(report, "node"):
            del report.node

    def _close_ended_example(self, report: pytest.TestReport) -> None:
        """An example that crashed or hung its worker has no teardown report, and JUnit
        writes a test's properties (requirement, profile, level...) only from that one:
        give it one, so that its JUnit test case says what it checked."""
        closing = pytest.TestReport(
            report.nodeid,
            report.location,
            {},
            "passed",
            None,
            "teardown",
            user_properties=list(report.user_properties),
        )
        closing.node = report.node  # type: ignore[attr-defined]  # xdist keys tests by worker
        self.config.hook.pytest_runtest_logreport(report=closing)

    def _uncollected(self) -> list[str]:
        """Requirements without a single collected example, when nothing was deselected."""
        if self._narrowed():
            return []
        return self.results.with_outcome("not-run")

    def _narrowed(self) -> bool:
        option = self.config.option
        return bool(
            getattr(option, "keyword", "")
            or getattr(option, "markexpr", "")
            or getattr(option, "deselect", None)
            or getattr(option, "lf", False)
            or any("::" in str(arg) for arg in self.config.args)
        )

    def pytest_terminal_summary(
        self, terminalreporter: pytest.TerminalReporter, exitstatus: int
    ) -> None:
        if exitstatus == pytest.ExitCode.USAGE_ERROR:
            return  # no example could run (a worker could not load the implementation)
        results = self.results
        adapter = self.options.adapter
        write = terminalreporter.write_line
        terminalreporter.section(f"forkwait conformance: {adapter.name} {adapter.version}")
        for line in render_table(results.by_profile(), PROFILES):
            write(line)
        for level in ("MUST", "SHOULD", "MAY"):
            failed = results.with_outcome("failed", level)
            if failed:
                blocking = level == "MUST" or self.options.strict
                note = "" if blocking else " (reported; fails the run only with --strict)"
                write(f"failed {level} requirements{note}: {', '.join(failed)}", red=blocking)
        unexpected = results.with_outcome("xpassed")
        if unexpected:
            write(
                "expected to fail but passed (remove them from the expected failures): "
                + ", ".join(unexpected),
                red=True,
            )
        uncollected = self._uncollected()
        if uncollected:
            write(
                "requirements with no example collected (check their examples' directives): "
                + ", ".join(uncollected),
                red=True,
            )
        outside = [r for r in results.outside() if r.outcome == "failed"]
        if outside:
            write(f"failed examples outside any requirement: {len(outside)}", red=True)
        if self.spec_warnings:
            write("Sphinx warned about the spec's documents (fix them; the run fails):", red=True)
            for line in self.spec_warnings.splitlines():
                write(f"  {line}", red=True)

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        if exitstatus == pytest.ExitCode.USAGE_ERROR:
            return  # a usage error leaves no report
        results = self.results
        interrupted = exitstatus == pytest.ExitCode.INTERRUPTED
        if not interrupted:
            must_fail = bool(
                results.blocking_failures(self.options.strict)
                or results.with_outcome("xpassed")
                or self._uncollected()
                or any(r.outcome == "failed" for r in results.outside())
                or self.spec_warnings
            )
            if must_fail:
                session.exitstatus = pytest.ExitCode.TESTS_FAILED
        if self.report_path is not None:
            report = build_report(
                self.options.adapter,
                results,
                interrupted=interrupted,
                strict=self.options.strict,
                spec_warnings=self.spec_warnings,
            )
            write_report(report, self.report_path)
