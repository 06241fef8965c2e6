"""The pytest plugin: ``--impl``, collection of spec documents, and the summary.

Loaded with ``-p conformance.plugin`` (``pyproject.toml`` does so for a
checkout; ``forkwait-conformance`` does so for an installed suite).
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest

from conformance.adapter import PROFILES, AdapterError, load_adapter
from conformance.catalog import requirements_in
from conformance.collect import SpecFile
from conformance.implementation import DEFAULT_IMPL, ENV_IMPL, select, selected
from conformance.isolation import DEFAULT_EXAMPLE_TIMEOUT, Isolation
from conformance.report import build_report, write_report
from conformance.spec_files import spec_dir
from conformance.summary import RequirementResults, render_table
from conformance.xfails import XfailsError, check_known, load_xfails

DEFAULT_SCHEDULES = 8


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("forkwait", "forkwait conformance")
    group.addoption(
        "--impl",
        default=None,
        help=f"implementation under test: an entry-point name in 'forkwait.implementations' "
        f"or module:attribute (default: ${ENV_IMPL} or {DEFAULT_IMPL!r})",
    )
    group.addoption(
        "--example-timeout",
        type=float,
        default=DEFAULT_EXAMPLE_TIMEOUT,
        help="seconds one example may run (0: no limit). A hang Python can interrupt fails "
        "the example; one it cannot (C code holding the GIL) ends the worker process, which "
        "pytest-xdist replaces (forkwait-conformance runs with -n 1 for this)",
    )
    group.addoption(
        "--schedules",
        type=int,
        default=DEFAULT_SCHEDULES,
        metavar="N",
        help="also run the examples of :explore: requirements under N distinct controlled "
        "schedules, for implementations that can control task order (0: none)",
    )
    group.addoption(
        "--schedule",
        default=None,
        metavar="NAME",
        help="run explored examples under this one schedule only (replays a failure)",
    )
    group.addoption(
        "--report",
        default=None,
        metavar="PATH",
        help="write per-requirement results as JSON (see conformance/report.py)",
    )
    group.addoption(
        "--xfails-file",
        default=None,
        help="TOML file of requirements expected to fail, with reasons (added to the "
        "adapter's own list; see conformance/xfails.py)",
    )
    group.addoption(
        "--spec-root",
        default=None,
        help="folder whose .rst files are run as spec documents (default: the installed spec)",
    )


def pytest_configure(config: pytest.Config) -> None:
    name = config.getoption("impl") or os.environ.get(ENV_IMPL) or DEFAULT_IMPL
    catalog = requirements_in(_spec_root(config))
    try:
        adapter = load_adapter(name)
        check_known(adapter.expected_failures, catalog, f"adapter {adapter.name!r}")
        xfails_file = config.getoption("xfails_file")
        if xfails_file:
            extra = load_xfails(Path(xfails_file))
            check_known(extra, catalog, xfails_file)
            adapter = replace(adapter, expected_failures={**adapter.expected_failures, **extra})
    except (AdapterError, XfailsError) as exc:
        raise pytest.UsageError(str(exc)) from exc
    select(adapter)
    for profile, about in PROFILES.items():
        config.addinivalue_line("markers", f"profile_{profile}: requirement of profile {about}")
    config.addinivalue_line("markers", "requirement(id): the spec requirement an example tests")
    profiles = {req_id: req.profile for req_id, req in catalog.items()}
    config.pluginmanager.register(Isolation(config), "forkwait-isolation")
    if not hasattr(config, "workerinput"):  # the controller (or a run without xdist)
        config.pluginmanager.register(
            ConformanceReporter(profiles, config.getoption("report")),
            "forkwait-conformance-reporter",
        )


def pytest_report_header(config: pytest.Config) -> str:
    adapter = selected()
    return (
        f"forkwait implementation: {adapter.name} {adapter.version}, "
        f"profiles claimed: {', '.join(sorted(adapter.profiles))}; spec: {_spec_root(config)}"
    )


def _spec_root(config: pytest.Config) -> Path:
    root = config.getoption("spec_root")
    return Path(root).resolve() if root else spec_dir()


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> SpecFile | None:
    if file_path.suffix == ".rst" and file_path.resolve().is_relative_to(_spec_root(parent.config)):
        return SpecFile.from_parent(parent, path=file_path)
    return None


class ConformanceReporter:
    """Folds every report into per-requirement outcomes; prints the profile table."""

    def __init__(self, profiles: dict[str, str], report_path: str | None) -> None:
        self.results = RequirementResults(profiles=profiles)
        self.order = list(profiles)
        self.report_path = Path(report_path) if report_path else None

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.results.add(report)

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        results = self.results
        if not results.outcomes:
            return
        adapter = selected()
        terminalreporter.section(f"forkwait conformance: {adapter.name} {adapter.version}")
        for line in render_table(results.by_profile(), PROFILES):
            terminalreporter.write_line(line)
        failed = results.with_outcome("failed")
        if failed:
            terminalreporter.write_line(f"failed requirements: {', '.join(failed)}", red=True)
        unexpected = results.with_outcome("xpassed")
        if unexpected:
            terminalreporter.write_line(
                "expected to fail but passed (remove them from the expected failures): "
                + ", ".join(unexpected),
                red=True,
            )

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if self.results.with_outcome("xpassed") and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
        if self.report_path is not None:
            write_report(build_report(selected(), self.results, self.order), self.report_path)
