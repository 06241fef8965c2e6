"""The pytest plugin: options, which folders are Sphinx projects, and the xdist wiring.

``python -m pytest -p conformance.sphinx_doctest SRCDIR`` collects every test
``sphinx-build -b doctest SRCDIR`` would run and gives each the same outcome.
It knows nothing of the forkwait spec: ``conformance.run.plugin`` builds on it
through the hooks in hooks.py.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from sybil.integration.pytest import SybilItem

from conformance.sphinx_doctest import hooks
from conformance.sphinx_doctest.collectors import DocumentFile, ProjectDir, default_items
from conformance.sphinx_doctest.document import SphinxExample
from conformance.sphinx_doctest.entry import FAULTED_KEY
from conformance.sphinx_doctest.evaluators import (
    CleanupFailed,
    cleanup_after,
    failure_text,
    prepare,
    with_headline,
)
from conformance.sphinx_doctest.failures import shown
from conformance.sphinx_doctest.guard import Witness
from conformance.sphinx_doctest.project import SphinxSource
from conformance.sphinx_doctest.runners import install_interrupt_handler

if TYPE_CHECKING:  # imported when xdist schedules: it imports all of xdist's schedulers
    from conformance.sphinx_doctest.scheduling import DocumentScheduling

#: user property of a report whose worker ends itself after it (see retire_worker)
RETIRE_PROPERTY = "sphinx_doctest_retire"
_FAULTED = pytest.StashKey[set[str]]()
_RETIRING = pytest.StashKey[bool]()
SCHEDULER_KEY: pytest.StashKey[DocumentScheduling] = pytest.StashKey()


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(hooks)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("sphinx-doctest", "Sphinx doctests, as sphinx-build -b doctest")
    group.addoption(
        "--sphinx-confdir",
        default=None,
        metavar="DIR",
        help="folder holding conf.py when it is not the source folder (sphinx-build -c); "
        "folders named on the command line are then Sphinx source folders",
    )
    group.addoption(
        "--sphinx-cache-dir",
        default=None,
        metavar="DIR",
        help="where Sphinx's environment is cached between runs (default: pytest's cache, "
        "or ~/.cache/sphinx-doctest-pytest)",
    )


def pytest_configure(config: pytest.Config) -> None:
    install_interrupt_handler()
    config.stash[_FAULTED] = set()
    config.stash[_RETIRING] = False
    if hasattr(config, "workerinput"):
        config.pluginmanager.register(_Worker(), "sphinx-doctest-worker")
    else:  # under python -m conformance.sphinx_doctest: vouch for the run's end (guard.py)
        witness = Witness.from_environment()
        if witness is not None:
            config.pluginmanager.register(witness, "sphinx-doctest-witness")


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    """Hide what collection built from the garbage collector, in a run of doc tests only.

    Sphinx's environment, the doctrees and the items live to the end of the run,
    yet every full collection during the run would walk them again: frozen
    (``gc.freeze``), no collection walks them. Only the young generations are
    searched for garbage first: a full search would walk all of it once more,
    to find the little older garbage there is, which is frozen with the rest.
    A session that also collected other tests is left as it is: their
    module-level objects must stay collectable.
    """
    if session.items and all(sphinx_example(item) for item in session.items):
        gc.collect(1)
        gc.freeze()


@pytest.hookimpl(trylast=True)
def pytest_sphinx_doctest_project(path: Path, config: pytest.Config) -> SphinxSource | None:
    if (path / "conf.py").is_file():
        return SphinxSource(path)
    confdir = config.getoption("sphinx_confdir")
    if confdir and path.resolve() in _named_folders(config):
        return SphinxSource(Path(confdir).resolve())
    return None


def _named_folders(config: pytest.Config) -> set[Path]:
    base = config.invocation_params.dir
    return {(base / arg.split("::")[0]).resolve() for arg in config.args}


def pytest_collect_directory(path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    source = parent.config.hook.pytest_sphinx_doctest_project(path=path, config=parent.config)
    if source is None:
        return None
    return ProjectDir.from_parent(parent, path=path, source=source)


@pytest.hookimpl(trylast=True)
def pytest_sphinx_doctest_items(
    parent: DocumentFile, examples: list[SphinxExample]
) -> list[pytest.Item]:
    return default_items(parent, examples)


def sphinx_example(item: pytest.Item | None) -> SphinxExample | None:
    """The Sphinx example a (sybil) item runs, if it runs one."""
    example = getattr(item, "example", None) if isinstance(item, SybilItem) else None
    return example if isinstance(example, SphinxExample) else None


def describe_items(items: list[pytest.Item]) -> None:
    """What every Sphinx example's item tells JUnit, and how reports head it."""
    paths: dict[Path, str] = {}  # a document's path as pytest shows it, asked once per file
    for item in items:
        example = sphinx_example(item)
        if example is None:
            continue
        example.nodeid = item.nodeid
        # reports are headed by the test's name (``testcode:line12``), not by sybil's
        # "file line=N column=M"; pytest caches ``location`` per item (a cached_property)
        code = example.spec.code
        path = paths.get(item.path)
        if path is None:
            path = paths[item.path] = item.location[0]
        held_in = code.location.path if code is not None and code.location.line else None
        if held_in is not None and held_in != item.path:  # a block from an included file:
            path = paths.get(held_in)  # its line is that file's, so is the location
            if path is None:
                path = paths[held_in] = shown(held_in, item.config.rootpath)
        line = example.spec.line
        item.__dict__["location"] = (path, None if line is None else line - 1, item.name)
        item.user_properties[:0] = [
            ("sphinx_file", code.filename if code else ""),
            ("sphinx_line", "" if code is None or code.lineno is None else str(code.lineno)),
            ("sphinx_group", example.spec.group),
            ("sphinx_kind", example.spec.kind),
        ]


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run each project's documents in Sphinx's (sorted docname) order: pytest's walk of
    a folder yields ``a/b.rst`` before ``a.rst``. Other items keep their places."""
    describe_items(items)
    places = [index for index, item in enumerate(items) if sphinx_example(item)]

    def order(index: int) -> tuple[str, str]:
        example = sphinx_example(items[index])
        assert example is not None
        document = example.sphinx_document
        return (str(document.project.srcdir), document.docname)

    ordered = sorted(places, key=order)  # stable: examples keep their order in a document
    moved = [items[index] for index in ordered]
    for place, item in zip(places, moved, strict=True):
        items[place] = item


@pytest.hookimpl(trylast=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """After sybil's setup (fixtures): the group's setup, or its rebuilt namespace.

    A failed group setup raised here is an error of the item's setup phase,
    which is how Sphinx counts it (not as a failed test).
    """
    example = sphinx_example(item)
    if example is not None:
        prepare(example, dict(getattr(item, "funcargs", {})))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[Any]:
    """Clean up what no later item needs (Sphinx cleans a group up after its last test)."""
    example = sphinx_example(item)
    failed = cleanup_after(example, sphinx_example(nextitem)) if example is not None else []
    if example is not None and example.stop_reason is not None:
        item.session.shouldfail = example.stop_reason
    result = yield
    if failed:
        raise CleanupFailed(failed)
    return result


class _Worker:
    """Hooks of an xdist worker only (kept off every item's path elsewhere)."""

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem: pytest.Item | None) -> None:
        """Retire if asked to, before the next item."""
        if item.config.stash.get(_RETIRING, False):
            os._exit(0)  # the controller re-queues this item and the rest (scheduling.py)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """The document's failures told as such: what differed, at true lines (not a
    traceback of the harness), headed by what a plugin says the example checks."""
    report: pytest.TestReport = yield
    example = sphinx_example(item)
    excinfo = call.excinfo
    if example is None or excinfo is None or excinfo.errisinstance(pytest.skip.Exception):
        return report
    text = failure_text(
        example, excinfo.value, call.when, bool(excinfo.traceback), item.config.rootpath
    )
    if text is None and call.when != "call":
        return report  # the harness's own error: its traceback helps
    detail = text if text is not None else report.longrepr
    report.longrepr = with_headline(example, detail) or detail
    return report


def retire_worker(item: pytest.Item) -> None:
    """End this xdist worker before its next item (the process may be poisoned).

    Call it while ``item`` runs: its reports then carry the request to the
    controller, which re-queues the worker's unfinished items for a fresh
    worker, where namespaces are rebuilt without replaying ``item``.
    """
    if not hasattr(item.config, "workerinput"):
        return  # no worker to replace
    item.config.stash[_RETIRING] = True
    if (RETIRE_PROPERTY, "1") not in item.user_properties:
        item.user_properties.append((RETIRE_PROPERTY, "1"))


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    if config.stash.get(_RETIRING, False) and hasattr(config, "workerinput"):
        os._exit(0)  # do not wait at exit for threads a hung test left behind


# -- xdist controller ---------------------------------------------------------------


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Keep documents whole on one worker (``load`` would split them)."""
    if config.getvalue("dist") not in ("load", "loadfile", "loadscope", "loadgroup"):
        return None
    from conformance.sphinx_doctest.scheduling import DocumentScheduling  # noqa: PLC0415

    scheduler = DocumentScheduling(config, log)
    config.stash[SCHEDULER_KEY] = scheduler
    return scheduler


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    node = getattr(report, "node", None)  # set on the controller only
    if node is not None and (RETIRE_PROPERTY, "1") in report.user_properties:
        mark_faulted(node.config, report.nodeid)
        scheduler = node.config.stash.get(SCHEDULER_KEY, None)
        if scheduler is not None:
            scheduler.retire(node.gateway.id)


def mark_faulted(config: pytest.Config, nodeid: str) -> None:
    """Never replay this item in a later worker: it hung or crashed a process."""
    config.stash.setdefault(_FAULTED, set()).add(nodeid)


@pytest.hookimpl(optionalhook=True)
def pytest_handlecrashitem(crashitem: str, report: pytest.TestReport, sched: Any) -> None:
    mark_faulted(report_config(sched), crashitem)


def report_config(sched: Any) -> pytest.Config:
    config: pytest.Config = sched.config
    return config


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    node.workerinput[FAULTED_KEY] = sorted(node.config.stash.get(_FAULTED, set()))
