"""What a conformance run tells people and tools at its end: table, verdict, JSON.

Registered on the xdist controller (or the only process): it folds every
report into per-example results (results.py), prints the per-profile table
and the verdict (verdict.py: each claimed profile, one line per level, and
where to look next), sets the exit status from that same verdict (only MUSTs
fail the run unless ``--strict``, timeouts and hangs of SHOULD examples
included; an unexpected pass always does; so does a requirement no example
of which was collected), and writes the JSON report (json_report.py), whose
``verdict`` is the terminal's. A report that cannot be written (a full disk)
costs the run nothing but the file: the verdict is printed all the same, with
a line saying so, and the exit status is REPORT_NOT_WRITTEN.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path

import pytest

from conformance.catalog.requirements import Requirement
from conformance.catalog.vocabulary import PROFILES
from conformance.reports.json_report import RunReport, build_report, write_report
from conformance.reports.report_path import REPORT_NOT_WRITTEN
from conformance.reports.results import RunResults, render_table
from conformance.reports.verdict import Verdict
from conformance.run.spec_html import is_built, rule_url
from conformance.run.spec_items import RunOptions
from conformance.run.worker_lines import reword_worker_lines

_CLI_INI = Path(__file__).parents[1] / "cli-pytest.ini"
#: failed requirements the verdict links to, at most
_LINKS = 5
#: the section of the spec's pages that explains the table, the verdict and the reports
_READING = "validating.html#reports"


class FirstLook:
    """Sees each report before JUnit (and the reporter) do."""

    def __init__(self, strict: bool) -> None:
        self.strict = strict
        #: a failed report the verdict does not excuse (anything but a lenient SHOULD/MAY)
        self.hard_failure = False
        #: the failure kind of each failed call, for its teardown report (JUnit reads that)
        self._kinds: dict[str, str] = {}

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Before JUnit reads it, a teardown report gets its call's ``failure_kind``:
        JUnit writes a test's properties from the teardown report only."""
        props = dict(report.user_properties)
        kind = str(props.get("failure_kind", ""))
        if kind and report.when != "teardown":
            self._kinds[report.nodeid] = kind
        elif report.when == "teardown" and not kind and report.nodeid in self._kinds:
            report.user_properties.append(("failure_kind", self._kinds.pop(report.nodeid)))
        if report.failed and (self.strict or props.get("level") not in ("SHOULD", "MAY")):
            self.hard_failure = True


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
        self.first = FirstLook(options.strict)
        config.pluginmanager.register(self.first, "forkwait-first-look")
        self.verdict: Verdict | None = None
        #: why the report could not be written at the end, or None
        self.report_error: str | None = None

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionstart(self, session: pytest.Session) -> None:
        reword_worker_lines(self.config)
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

    def _narrowed(self) -> bool:
        option = self.config.option
        return bool(
            self.options.quick  # examples without their probes: a first look, not a verdict
            or getattr(option, "keyword", "")
            or getattr(option, "markexpr", "")
            or getattr(option, "deselect", None)
            or getattr(option, "lf", False)
            or any("::" in str(arg) for arg in self.config.args)
        )

    def _report(self, interrupted: bool) -> RunReport:
        return build_report(
            self.options.adapter,
            self.results,
            interrupted=interrupted,
            strict=self.options.strict,
            spec_warnings=self.spec_warnings,
            partial=self._narrowed(),
        )

    # first: the verdict and the JSON report must not depend on what other plugins do at
    # the end of the session (JUnit, whose folder may be gone: see plugin.py)
    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        if exitstatus == pytest.ExitCode.USAGE_ERROR:
            return  # a usage error leaves no report
        interrupted = exitstatus == pytest.ExitCode.INTERRUPTED
        report = self._report(interrupted)
        self.verdict = verdict = report.verdict()
        if not interrupted:
            if not verdict.passed:
                session.exitstatus = pytest.ExitCode.TESTS_FAILED
            elif exitstatus == pytest.ExitCode.TESTS_FAILED and not self.first.hard_failure:
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
        verdict = self.verdict or self._report(interrupted=False).verdict()
        adapter = self.options.adapter
        write = terminalreporter.write_line
        terminalreporter.section(f"forkwait conformance: {adapter.name} {adapter.version}")
        table = self.results.by_profile(ran_only=verdict.partial)
        for line in render_table(table, PROFILES):
            write(line)
        write("")
        for line in verdict.lines():
            failed = line.startswith(("MUST:", "examples:")) and " failed" in line
            write(line, red=failed or (line.startswith("verdict:") and not verdict.passed))
        for reason in verdict.failing:
            write(f"the run fails: {reason}", red=True)
        if self.spec_warnings:
            write("Sphinx warned about the spec's documents:", red=True)
            for line in self.spec_warnings.splitlines():
                write(f"  {line}", red=True)
        for line in self._notes(verdict):
            write(line, red=line.startswith("the report was NOT written"))

    def _notes(self, verdict: Verdict) -> list[str]:
        """Where to look next: the report, the failed rules' pages, what was left out."""
        notes = []
        if self.report_error is not None:
            notes.append(
                f"the report was NOT written to {self.report_shown}: {self.report_error} "
                f"(exit status {REPORT_NOT_WRITTEN})"
            )
        elif self.report_path is not None:
            notes.append(f"every result: {self.report_shown}")
        else:
            notes.append("every result as JSON: add --report out.json")
        failed = [
            req_id
            for level in ("MUST", "SHOULD", "MAY")
            for req_id in self.results.with_outcome("failed", level)
        ]
        docs_url = self.options.docs_url
        for req_id in failed[:_LINKS]:
            requirement = self.catalog[req_id]
            url = rule_url(docs_url, requirement.docname, req_id)
            notes.append(f"the rule {req_id} failed ({requirement.level}): {url}")
        if len(failed) > _LINKS:
            notes.append(f"... and {len(failed) - _LINKS} more failed requirements (above)")
        notes += self._left_out(verdict)
        notes += self._read_on(docs_url)
        return notes

    @staticmethod
    def _read_on(docs_url: str) -> list[str]:
        """Where to read on, passing or not: the spec as HTML, and the page on results."""
        built = "" if not docs_url.startswith("file:") or is_built() else " (not built yet)"
        notes = [f"the spec as HTML{built}: forkwait-conformance spec --open"]
        if docs_url:
            notes.append(f"how to read these results: {docs_url}{_READING}")
        return notes

    def _left_out(self, verdict: Verdict) -> list[str]:
        """Why a run has fewer examples than another: unclaimed profiles, no explorer."""
        adapter = self.options.adapter
        notes = []
        unclaimed = [p for p in PROFILES if p not in adapter.profiles]
        if unclaimed and not verdict.partial:
            notes.append(
                f"not judged: profiles {', '.join(unclaimed)} (not claimed by "
                f"{adapter.name}; their examples are skipped)"
            )
        explored = [
            r.id for r in self.catalog.values() if r.explore and r.profile in adapter.profiles
        ]
        if explored and not self.options.schedules and not verdict.partial:
            if self.options.explores:
                why = "--schedules 0"
            else:
                runs = sum(len(self.results.of(req_id)) for req_id in explored)
                count = self.config.getoption("schedules")
                why = (
                    f"{adapter.name} gives no explorer (adapter.explorer; with one, "
                    f"--schedules {count} would add {runs * count} runs)"
                )
            notes.append(
                f"the examples of {len(explored)} :explore: requirements ran once each, not "
                f"also under controlled schedules: {why}"
            )
        return notes
