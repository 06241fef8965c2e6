"""What a conformance run tells people and tools at its end: verdict, exit status, JSON.

Registered on the xdist controller (or the only process): it folds every
report into per-example results (results.py), computes the verdict once
(verdict.py; a partial run says which selection it was), has summary.py
print it with the failures grouped by cause, sets the exit status from that
same verdict (only MUSTs fail the run unless ``--strict``, timeouts and hangs
of SHOULD examples included; an unexpected pass always does; so does a
requirement no example of which was collected; a requirement checked in part,
some of its examples skipped as declared, does not, even under ``--strict``: its
skip is the implementation's own declaration, and the verdict says it), and
writes the JSON report (json_report.py), whose ``verdict`` is the terminal's. A report that cannot
be written (a full disk) costs the run nothing but the file: the verdict is
printed all the same, with a line saying so, and the exit status is
REPORT_NOT_WRITTEN. pytest's own output is fitted to the run: its short summary
lines give each failure's cause (FailureWithCause), JUnit gets each example's
failure kind (JUnitFailureKinds), and xdist's status lines are said once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

import pytest

from conformance.catalog.requirements import Requirement
from conformance.reports.json_report import RunReport, build_report, write_report
from conformance.reports.report_path import REPORT_NOT_WRITTEN
from conformance.reports.results import RunResults
from conformance.reports.verdict import Verdict
from conformance.run.spec_items import RunOptions
from conformance.run.summary import Summary

_CLI_INI = Path(__file__).parents[1] / "cli-pytest.ini"
#: pytest-xdist's terminal reporter (quiet_worker_status)
_XDIST_REPORTER = "terminaldistreporter"


class _Writer(Protocol):
    def line(self, s: str = "", **markup: bool) -> None: ...


@dataclasses.dataclass(frozen=True)
class _Crash:
    message: str


class FailureWithCause:
    """A failure's text that pytest's short summary line (``FAILED fork.rst::X[1] - ...``)
    and JUnit's failure message give by its cause: both read ``reprcrash.message``, and
    would give a text's first line, which is the requirement's header."""

    def __init__(self, text: str, cause: str) -> None:
        self.text = text
        self.reprcrash = _Crash(cause)

    def toterminal(self, tw: _Writer) -> None:
        tw.line(self.text)

    def __str__(self) -> str:
        return self.text


class JUnitFailureKinds:
    """Gives each teardown report its call's ``failure_kind`` before JUnit reads it:
    JUnit writes a test's properties from the teardown report only."""

    def __init__(self) -> None:
        #: the failure kind of each failed call, for its teardown report
        self._kinds: dict[str, str] = {}

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        kind = str(dict(report.user_properties).get("failure_kind", ""))
        if kind and report.when != "teardown":
            self._kinds[report.nodeid] = kind
        elif report.when == "teardown" and not kind and report.nodeid in self._kinds:
            report.user_properties.append(("failure_kind", self._kinds.pop(report.nodeid)))


class ConformanceReporter:
    """Folds reports into results; prints the verdict; sets the exit status; writes JSON."""

    def __init__(
        self,
        config: pytest.Config,
        catalog: Mapping[str, Requirement],
        options: RunOptions,
        spec_warnings: str,
    ) -> None:
        self.config = config
        self.options = options
        self.catalog = catalog
        #: what Sphinx warned about the spec's documents: the run cannot be trusted whole
        self.spec_warnings = spec_warnings.strip()
        self.results = RunResults(catalog)
        report = config.getoption("report")
        # from where the command was started (as --junitxml is): the run's own
        # working folder and invocation_params.dir (see _paths_from_spec) may differ
        self.report_path = config.invocation_params.dir / report if report else None
        self.report_shown = report
        config.pluginmanager.register(JUnitFailureKinds(), "forkwait-junit-failure-kinds")
        #: a failed report the verdict does not excuse (anything but a lenient SHOULD/MAY)
        self.hard_failure = False
        #: items pytest deselected (-k, -m, --lf, --deselect, a plugin)
        self.deselected = 0
        #: the run stopped early (-x, --maxfail)
        self.stopped = False
        self.run_report: RunReport | None = None
        self.verdict: Verdict | None = None
        #: why the report could not be written at the end, or None
        self.report_error: str | None = None

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionstart(self, session: pytest.Session) -> None:
        quiet_worker_status(self.config)
        self._paths_from_spec()

    def _paths_from_spec(self) -> None:
        """``forkwait-conformance`` runs with the spec folder as rootdir: name items from
        there (``fork.rst::FORK-CALLS-1[1]``), not from where the command was started
        (an installed suite's items would read ``../../lib/python3.x/site-packages/...``)."""
        config = self.config
        if config.inipath is None or config.inipath.resolve() != _CLI_INI.resolve():
            return
        config.invocation_params = dataclasses.replace(
            config.invocation_params, dir=config.rootpath
        )

    def pytest_deselected(self, items: list[pytest.Item]) -> None:
        self.deselected += len(items)

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.results.add(report)
        props = dict(report.user_properties)
        lenient = props.get("level") in ("SHOULD", "MAY") and not self.options.strict
        self.hard_failure = self.hard_failure or (report.failed and not lenient)
        cause = str(props.get("cause", ""))
        if report.failed and cause and isinstance(report.longrepr, str):
            report.longrepr = FailureWithCause(report.longrepr, cause)  # type: ignore[assignment]
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

    def _selection(self) -> tuple[str, ...]:
        """What made this run partial, in the words of its command line; empty if whole."""
        option = self.config.option
        lf = self.config.pluginmanager.get_plugin("lfplugin")
        maxfail = getattr(option, "maxfail", 0)
        named = (
            ("--quick", self.options.quick),  # examples without their probes: not a verdict
            (f"-k {getattr(option, 'keyword', '')}", getattr(option, "keyword", "")),
            (f"-m {getattr(option, 'markexpr', '')}", getattr(option, "markexpr", "")),
            ("--deselect", getattr(option, "deselect", None)),
            ("--lf", getattr(option, "lf", False) and getattr(lf, "lastfailed", None)),
            ("--sw", getattr(option, "stepwise", False)),
            ("node IDs", any("::" in str(arg) for arg in self.config.args)),
            ("-x" if maxfail == 1 else f"--maxfail {maxfail}", self.stopped),
        )
        found = [words for words, given in named if given]
        if self.deselected and not found:
            found.append(f"{self.deselected} examples deselected")
        return tuple(found)

    def _report(self, interrupted: bool) -> RunReport:
        return build_report(
            self.options.adapter,
            self.results,
            interrupted=interrupted,
            strict=self.options.strict,
            spec_warnings=self.spec_warnings,
            selection=self._selection(),
        )

    # first: the verdict and the JSON report must not depend on what other plugins do at
    # the end of the session (JUnit, whose folder may be gone: see plugin.py)
    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        if exitstatus == pytest.ExitCode.USAGE_ERROR:
            return  # a usage error leaves no report
        interrupted = exitstatus == pytest.ExitCode.INTERRUPTED
        self.stopped = bool(session.shouldstop) and not interrupted
        self.run_report = report = self._report(interrupted)
        self.verdict = verdict = report.verdict()
        if not interrupted:
            if not verdict.passed:
                session.exitstatus = pytest.ExitCode.TESTS_FAILED
            elif exitstatus == pytest.ExitCode.TESTS_FAILED and not self.hard_failure:
                session.exitstatus = pytest.ExitCode.OK  # only SHOULDs or MAYs failed
        if self.report_path is not None:
            try:
                write_report(report, self.report_path)
            except OSError as exc:
                self.report_error = exc.strerror or str(exc)
                if not interrupted:
                    session.exitstatus = REPORT_NOT_WRITTEN

    def pytest_terminal_summary(
        self, terminalreporter: pytest.TerminalReporter, exitstatus: int
    ) -> None:
        if exitstatus == pytest.ExitCode.USAGE_ERROR:
            return  # no example could run (a worker could not load the implementation)
        report = self.run_report or self._report(interrupted=False)
        summary = Summary(
            report,
            self.verdict or report.verdict(),
            self.results,
            self.catalog,
            self.options,
            report_shown=self.report_shown,
            report_error=self.report_error,
            spec_warnings=self.spec_warnings,
            schedules_asked=self.config.getoption("schedules"),
            verbose=self.config.option.verbose > 0,
        )
        summary.write(terminalreporter)


def quiet_worker_status(config: pytest.Config) -> None:
    """pytest-xdist's status lines, once each, and none under ``-q`` (controller only).

    Without a terminal xdist repeats "bringing up nodes..." at each status change.
    Workers no longer go down when an example crashes (examples run in executor
    processes), so xdist's own node-down words are left as they are: they would mean
    the harness itself failed. It patches the one xdist reporter instance of the run
    (pytest-xdist 3.x, pinned below 4 in pyproject.toml).
    """
    manager = config.pluginmanager
    reporter: Any = manager.getplugin(_XDIST_REPORTER)
    if reporter is None or not hasattr(reporter, "ensure_show_status"):
        return
    quiet = config.option.verbose < 0
    shown: list[str] = []
    show_status = reporter.ensure_show_status
    set_status = reporter.setstatus

    def ensure_show_status() -> None:
        if quiet:
            return
        if reporter._isatty:  # a terminal rewrites the status line in place
            show_status()
            return
        line = reporter.getstatus()
        if line not in shown:
            shown.append(line)
            reporter.write_line(line)

    def setstatus(spec: Any, status: Any, *, tests_collected: int, show: bool = True) -> None:
        set_status(spec, status, tests_collected=tests_collected, show=show and not quiet)

    # hooks are read from the instance when it is registered: register it again
    manager.unregister(reporter)
    reporter.ensure_show_status = ensure_show_status
    reporter.setstatus = setstatus
    manager.register(reporter, _XDIST_REPORTER)
