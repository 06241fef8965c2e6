"""pytest collectors: a Sphinx project's folder, and each of its documents.

A document collects one item per test, in the order Sphinx runs them (see
specs.py), and owns the run of its groups (document_run.py). It also decides
when a group's namespace is no longer needed: when the next item belongs to
another group, so that cleanup runs where Sphinx runs it.
"""

from __future__ import annotations

import shutil
import tempfile
import warnings
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from conformance.sphinx_doctest.document_run import DocumentRun
from conformance.sphinx_doctest.items import CleanupFailed, DoctestItem
from conformance.sphinx_doctest.model import document_groups
from conformance.sphinx_doctest.project import SphinxProject, SphinxSource, read_project
from conformance.sphinx_doctest.runners import RunResult
from conformance.sphinx_doctest.specs import test_specs

#: workerinput key of the nodeids that hung or crashed a process (never replayed)
FAULTED_KEY = "sphinx_doctest_faulted"


class SphinxDoctestWarning(UserWarning):
    """Something Sphinx warned about while reading a document's tests."""


class ProjectDir(pytest.Directory):
    """A Sphinx source folder: its documents, in the order Sphinx tests them."""

    def __init__(self, *, source: SphinxSource, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.source = source

    def collect(self) -> Iterable[DocumentFile]:
        project = read_project(self.path, self.source, cache_root(self.config))
        for docname in project.docnames():
            yield DocumentFile.from_parent(
                self, path=project.path_of(docname), project=project, docname=docname
            )


_TEMP_CACHE = pytest.StashKey[Path]()


def cache_root(config: pytest.Config) -> Path:
    """Where Sphinx environments are kept: ``--sphinx-cache-dir``, pytest's cache, or a
    folder of this session only (so a run with the cache disabled leaves nothing behind)."""
    option = config.getoption("sphinx_cache_dir", None)
    if option:
        return Path(option)
    cache = getattr(config, "cache", None)
    if cache is not None:
        return Path(cache.mkdir("sphinx-doctest"))
    if _TEMP_CACHE not in config.stash:
        folder = Path(tempfile.mkdtemp(prefix="sphinx-doctest-"))
        config.stash[_TEMP_CACHE] = folder
        config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))
    return config.stash[_TEMP_CACHE]


class DocumentFile(pytest.File):
    """One document: its groups, their namespaces, and an item per test."""

    def __init__(self, *, project: SphinxProject, docname: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.project = project
        self.docname = docname
        self.run: DocumentRun | None = None
        self._items: dict[tuple[str, int], list[DoctestItem]] = {}

    def collect(self) -> Iterable[pytest.Item]:
        groups = document_groups(self.project, self.docname)
        warned = self.project.drain_warnings()
        if warned:
            warnings.warn(SphinxDoctestWarning(warned.strip()), stacklevel=1)
        self.run = DocumentRun(groups, self.project.builder, self.replayable)
        items = self.ihook.pytest_sphinx_doctest_items(parent=self, specs=test_specs(groups))
        for item in items:
            if (
                isinstance(item, DoctestItem)
                and item.variant is None
                and item.spec.index is not None
            ):
                self._items.setdefault((item.spec.group, item.spec.index), []).append(item)
        return list(items)

    def replayable(self, group: str, index: int) -> bool:
        """May test ``index`` of ``group`` be re-run to rebuild the group's namespace?"""
        faulted = faulted_nodeids(self.config)
        return all(
            item.replayable and item.nodeid not in faulted
            for item in self._items.get((group, index), [])
        )

    def document_run(self) -> DocumentRun:
        assert self.run is not None, "collect() builds the run"
        return self.run

    def cleanup_after(self, item: DoctestItem, *, stop: bool) -> list[RunResult]:
        """Clean up what no later item needs: the group (and its variants) when the next
        item belongs elsewhere, a variant's namespace when the next item is not of it."""
        run = self.document_run()
        following = item.next_item
        same_group = (
            not stop
            and isinstance(following, DoctestItem)
            and following.parent is self
            and following.spec.group == item.spec.group
        )
        results: list[RunResult | None] = []
        if item.variant is not None and not (
            same_group and isinstance(following, DoctestItem) and following.variant == item.variant
        ):
            results.append(run.cleanup(item.spec.group, item.variant))
        if not same_group:
            for group, variant in list(run.states):
                if group == item.spec.group:
                    results.append(run.cleanup(group, variant))
        return [result for result in results if result is not None]

    def teardown(self) -> None:
        failed = [r for r in (self.run.cleanup_all() if self.run else []) if r.failed]
        if failed:
            raise CleanupFailed(failed)


def faulted_nodeids(config: pytest.Config) -> frozenset[str]:
    """Items known to have hung or crashed a process (from the xdist controller)."""
    workerinput: dict[str, Any] = getattr(config, "workerinput", {})
    return frozenset(workerinput.get(FAULTED_KEY, ()))
