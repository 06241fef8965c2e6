"""The conformance layer: the spec's examples against a chosen implementation, per requirement.

Loaded with ``-p conformance.run.plugin`` (``pyproject.toml`` does so for a
checkout; ``forkwait-conformance`` does so for an installed suite). It builds
on the generic Sphinx doctest plugin (``conformance.sphinx_doctest``), which
finds and runs the examples exactly as ``sphinx-build -b doctest`` would; this
one decides the run (config.py), names items by requirement
(spec_items.py), isolates faults and records what made each example fail
(isolation.py, diagnosis.py) and reports per requirement (reporter.py).
"""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path

import pytest

from conformance.adapter import AdapterError
from conformance.catalog.expectations import XfailsError
from conformance.catalog.requirements import CatalogError
from conformance.catalog.vocabulary import PROFILES
from conformance.reports.json_report import ReportError
from conformance.reports.report_path import REPORT_NOT_WRITTEN
from conformance.run import executors
from conformance.run.config import (
    RunSetup,
    SpecLocation,
    check_not_another_spec,
    claim_report,
    configure_run,
    in_scope,
    spec_location,
)
from conformance.run.isolation import Isolation
from conformance.run.options import add_options
from conformance.run.reporter import ConformanceReporter
from conformance.run.spec_items import SpecItem, make_items
from conformance.sphinx_doctest import plugin as generic_plugin
from conformance.sphinx_doctest.collectors import DocumentFile
from conformance.sphinx_doctest.document import SphinxExample
from conformance.sphinx_doctest.project import ProjectError, SphinxSource

GENERIC_PLUGIN = "conformance.sphinx_doctest.plugin"
_REPORTER = "forkwait-conformance-reporter"
#: what the adapter check tries (conformance/executor/describe.py), for its header line
_CHECKED = (
    "it tried a fork/wait round trip and what the claimed profiles use of fw.script, "
    "fw.Future[int] and the methods of fork's result"
)
_SETUP = pytest.StashKey[RunSetup]()
_SPEC = pytest.StashKey[SpecLocation]()


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    """Stand on the generic Sphinx doctest plugin (registered here: its modules are
    imported already, which a ``pytest_plugins`` entry would warn about)."""
    if not pluginmanager.has_plugin(GENERIC_PLUGIN):
        pluginmanager.register(generic_plugin, GENERIC_PLUGIN)


def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser)


def pytest_configure(config: pytest.Config) -> None:
    for profile, about in PROFILES.items():
        config.addinivalue_line("markers", f"profile_{profile}: requirement of profile {about}")
    config.addinivalue_line("markers", "requirement(id): the spec requirement an example tests")
    try:
        claim_report(config)
        location = spec_location(config)
        if not in_scope(config, location.root):
            check_not_another_spec(config, location.root)
            return  # this run collects no spec document (e.g. unit tests only)
        setup = configure_run(config, location, executors.describer(config, location))
    except (AdapterError, XfailsError, CatalogError, ProjectError, ReportError) as exc:
        handle = config.stash.get(executors.HANDLE, None)
        if handle is not None:  # the adapter was described; a later check failed
            handle.stop()
        raise pytest.UsageError(str(exc)) from exc
    config.stash[_SPEC] = location
    config.stash[_SETUP] = setup
    config.pluginmanager.register(executors, "forkwait-executors")
    isolation = Isolation(config, config.stash[executors.HANDLE])
    config.pluginmanager.register(isolation, "forkwait-isolation")
    if not hasattr(config, "workerinput"):  # the controller (or a run without xdist)
        executors.controller_done(config)
        reporter = ConformanceReporter(
            config, setup.catalog, setup.options, setup.project.read_warnings
        )
        config.pluginmanager.register(reporter, _REPORTER)


def pytest_report_header(config: pytest.Config) -> str | None:
    if _SETUP not in config.stash:
        return None
    adapter = config.stash[_SETUP].options.adapter
    header = (
        f"forkwait implementation: {adapter.name} {adapter.version}, "
        f"profiles claimed: {', '.join(sorted(adapter.profiles))}; "
        f"spec: {config.stash[_SPEC].root}"
    )
    # the adapter check (conformance/executor/describe.py), once, up front, found or not
    problems = config.stash[_SETUP].problems
    if problems:
        header += (
            f"\nadapter check: {len(problems)} problem(s) with what the claimed profiles "
            "need (the run goes on):\n"
            # what the adapter raised may span lines: none of them at the margin
            + "\n".join("  - " + p.replace("\n", "\n    ") for p in problems)
        )
    else:
        header += f"\nadapter check: {_CHECKED}, no problem found"
    return header


@pytest.hookimpl(tryfirst=True)
def pytest_sphinx_doctest_project(path: Path, config: pytest.Config) -> SphinxSource | None:
    location = config.stash.get(_SPEC, None)
    if location is None or path.resolve() != location.root:
        return None
    return location.source


@pytest.hookimpl(tryfirst=True)
def pytest_sphinx_doctest_items(
    parent: DocumentFile, examples: list[SphinxExample]
) -> list[pytest.Item] | None:
    location = parent.config.stash.get(_SPEC, None)
    if location is None or parent.document.project.srcdir != location.root:
        return None  # another Sphinx project: plain doctests
    executors.run_remotely(parent)
    return make_items(parent, examples, parent.config.stash[_SETUP].options)


def pytest_collection_finish(session: pytest.Session) -> None:
    """A spec example has one line number: its JUnit ``line`` (the generic layer's
    ``sphinx_*`` properties repeat it, one off, and the group and file)."""
    for item in session.items:
        if isinstance(item, SpecItem):
            item.user_properties = [
                p for p in item.user_properties if not p[0].startswith("sphinx_")
            ]


@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> Generator[None, None, None]:
    """A file another plugin cannot write at the end (JUnit's, its folder replaced by a
    file) costs that file only: the JSON report is written first (reporter.py), and the
    verdict is still printed, with exit status REPORT_NOT_WRITTEN."""
    try:
        return (yield)
    except OSError as exc:
        if not session.config.pluginmanager.has_plugin(_REPORTER):
            raise
        session.exitstatus = REPORT_NOT_WRITTEN
        terminal = session.config.pluginmanager.get_plugin("terminalreporter")
        if terminal is not None:
            terminal.ensure_newline()
            terminal.write_line(
                f"a file of the run was NOT written (JUnit's, or another plugin's): {exc} "
                f"(exit status {REPORT_NOT_WRITTEN})",
                red=True,
            )
        return None


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Outermost, so it sees the failure text the generic layer wrote (and a crash
    report): the spec item words it for a reader (SpecItem.readable_failure)."""
    report = yield
    if isinstance(item, SpecItem) and isinstance(report.longrepr, str):
        report.longrepr = item.readable_failure(report.longrepr)
    return report
