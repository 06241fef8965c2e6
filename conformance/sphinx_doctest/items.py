"""pytest collectors and items: a Sphinx project, its documents, one item per test.

A document's items come in the order Sphinx runs them: group by group, each
group's tests in order, plus one item for a group that has setup or cleanup
but no test (Sphinx runs those too). A group is set up when its first item
runs, and cleaned up when the next item belongs to another group (pytest
tells each item which item comes next), so setup, tests and cleanup
interleave exactly as in ``sphinx-build -b doctest``.
"""

from __future__ import annotations

import shutil
import tempfile
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from _pytest._code.code import TerminalRepr
from sphinx.ext.doctest import TestGroup

from conformance.sphinx_doctest.failures import describe_interruption, describe_result
from conformance.sphinx_doctest.model import Block, block_of, document_groups
from conformance.sphinx_doctest.project import SphinxProject, SphinxSource, read_project
from conformance.sphinx_doctest.runner import DocumentRun, RunResult, SetupFailed

#: workerinput / stash key of the nodeids that hung or crashed a process (never replayed)
FAULTED_KEY = "sphinx_doctest_faulted"


class SphinxDoctestWarning(UserWarning):
    """Something Sphinx warned about while reading a document's tests."""


@dataclass(frozen=True)
class TestSpec:
    """What one item runs: test ``index`` of ``group``, or a group without tests."""

    group: str
    #: position in the group's tests; None for a group with setup/cleanup only
    index: int | None
    code: Block | None = None
    output: Block | None = None
    #: where the block is, unique within its document: "line12", "docstring of m.f#2"
    where: str = ""

    @property
    def kind(self) -> str:
        return "group" if self.code is None else str(self.code.type)

    @property
    def line(self) -> int | None:
        """The line of the test's directive, as people see it in the source."""
        if self.code is None or self.code.node is None:
            return None
        return self.code.node.line


def test_specs(groups: dict[str, TestGroup]) -> list[TestSpec]:
    """The document's items-to-be, in the order ``test_doc`` runs them."""
    specs: list[TestSpec] = []
    seen: dict[tuple[str, str], int] = {}
    for name, group in groups.items():
        if not group.tests:
            specs.append(TestSpec(name, None))
        for index, test in enumerate(group.tests):
            output = block_of(test[1]) if len(test) == 2 and test[1] is not None else None
            code = block_of(test[0])
            place = (
                f"line{code.node.line}"
                if code.node is not None and code.node.line
                else (code.location.label)
            )
            count = seen[(name, place)] = seen.get((name, place), 0) + 1
            where = place if count == 1 else f"{place}#{count}"
            specs.append(TestSpec(name, index, code, output, where))
    return specs


def default_name(spec: TestSpec) -> str:
    """``testcode:line12``, with ``[group]`` unless the group is ``default``."""
    if spec.code is None:
        return f"group:{spec.group}"
    suffix = "" if spec.group == "default" else f"[{spec.group}]"
    return f"{spec.kind}:{spec.where}{suffix}"


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


class DoctestFailed(AssertionError):
    """A test's examples did not print or raise what the document says."""

    def __init__(self, result: RunResult) -> None:
        super().__init__(result.report)
        self.result = result


class GroupSetupFailed(Exception):
    """The group's setup failed, so (as in Sphinx) this test did not run."""

    def __init__(self, failure: SetupFailed) -> None:
        super().__init__(failure.group)
        self.failure = failure


class CleanupFailed(Exception):
    """A group's cleanup failed (after its tests ran)."""

    def __init__(self, results: list[RunResult]) -> None:
        super().__init__(len(results))
        self.results = results


class DoctestItem(pytest.Item):
    """One test of one group (or a group with no tests), run with Sphinx's semantics."""

    #: may this item's test be re-run, unreported, to rebuild its group's namespace?
    replayable = True

    def __init__(self, *, spec: TestSpec, variant: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.spec = spec
        self.variant = variant
        self.result: RunResult | None = None
        #: set by the plugin before the item runs: the item pytest runs next, if any
        self.next_item: pytest.Item | None = None
        self.stop_after = False
        code = spec.code
        self.user_properties += [
            ("sphinx_file", code.filename if code else ""),
            ("sphinx_line", "" if code is None or code.lineno is None else str(code.lineno)),
            ("sphinx_group", spec.group),
            ("sphinx_kind", spec.kind),
        ]

    @property
    def document(self) -> DocumentFile:
        assert isinstance(self.parent, DocumentFile)
        return self.parent

    @property
    def fail_fast(self) -> bool:
        return bool(self.document.project.config.doctest_fail_fast)

    def setup(self) -> None:
        try:
            self.document.document_run().prepare(
                self.spec.group, self.spec.index or 0, self.variant
            )
        except SetupFailed as failure:
            self._stop_if_fail_fast("its group's setup failed")
            raise GroupSetupFailed(failure) from None

    def runtest(self) -> None:
        if self.spec.index is None:
            return  # a group without tests: its setup and cleanup are the test
        self.result = self.execute()
        if self.result is None:
            pytest.skip("Sphinx ignores this block (invalid doctest code, or no example in it)")
        if self.result.failed:
            self._stop_if_fail_fast("a test failed")
            raise DoctestFailed(self.result)
        if self.result.tries == 0:
            pytest.skip("every example of this block is skipped (SKIP option)")

    def execute(self) -> RunResult | None:
        """Run the test; a plugin may wrap this (e.g. to run it under a schedule)."""
        assert self.spec.index is not None
        return self.document.document_run().run_test(self.spec.group, self.spec.index, self.variant)

    def _stop_if_fail_fast(self, why: str) -> None:
        if self.fail_fast:  # doctest_fail_fast: Sphinx stops after the failing group
            self.stop_after = True
            self.session.shouldfail = f"doctest_fail_fast: {why} in {self.document.docname}"

    def teardown(self) -> None:
        failed = [r for r in self.document.cleanup_after(self, stop=self.stop_after) if r.failed]
        if failed:
            raise CleanupFailed(failed)

    def repr_failure(
        self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None
    ) -> str | TerminalRepr:
        error = excinfo.value
        if isinstance(error, DoctestFailed):
            return describe_result(error.result, self.spec.kind)
        if isinstance(error, GroupSetupFailed):
            failure = error.failure
            if not failure.first:
                return (
                    f"the setup of group {failure.group!r} failed (reported with an earlier "
                    "test of the group), so this test did not run, as in Sphinx"
                )
            return (
                f"the setup of group {failure.group!r} failed, so none of its tests run "
                "(as in Sphinx):\n\n" + describe_result(failure.result, "setup code")
            )
        if isinstance(error, CleanupFailed):
            return "\n\n".join(describe_result(r, "cleanup code") for r in error.results)
        if self.spec.code is not None and excinfo.traceback:
            # e.g. a deadline that interrupted the example: where it was, at true lines
            return describe_interruption(self.spec.code, error)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        line = self.spec.line
        return self.path, None if line is None else line - 1, self.name


def default_items(parent: DocumentFile, specs: list[TestSpec]) -> Iterator[DoctestItem]:
    for spec in specs:
        yield DoctestItem.from_parent(parent, name=default_name(spec), spec=spec)
