"""The pytest plugin: ``--impl``, collection of spec documents, and the summary.

Loaded with ``-p conformance.plugin`` (``pyproject.toml`` does so for a
checkout; ``forkwait-conformance`` does so for an installed suite).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conformance.adapter import PROFILES, AdapterError, load_adapter
from conformance.collect import SpecFile
from conformance.implementation import DEFAULT_IMPL, ENV_IMPL, select, selected
from conformance.spec_files import spec_dir
from conformance.summary import RequirementResults, render_table


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("forkwait", "forkwait conformance")
    group.addoption(
        "--impl",
        default=None,
        help=f"implementation under test: an entry-point name in 'forkwait.implementations' "
        f"or module:attribute (default: ${ENV_IMPL} or {DEFAULT_IMPL!r})",
    )
    group.addoption(
        "--spec-root",
        default=None,
        help="folder whose .rst files are run as spec documents (default: the installed spec)",
    )


def pytest_configure(config: pytest.Config) -> None:
    name = config.getoption("impl") or os.environ.get(ENV_IMPL) or DEFAULT_IMPL
    try:
        select(load_adapter(name))
    except AdapterError as exc:
        raise pytest.UsageError(str(exc)) from exc
    for profile, about in PROFILES.items():
        config.addinivalue_line("markers", f"profile_{profile}: requirement of profile {about}")
    config.addinivalue_line("markers", "requirement(id): the spec requirement an example tests")
    config.pluginmanager.register(ConformanceReporter(), "forkwait-conformance-reporter")


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

    def __init__(self) -> None:
        self.results = RequirementResults()

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
        failed = sorted(r for r, o in results.outcomes.items() if o == "failed")
        if failed:
            terminalreporter.write_line(f"failed requirements: {', '.join(failed)}")
