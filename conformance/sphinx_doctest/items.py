"""pytest items: one test of one group (or a group with no tests), run with Sphinx's semantics.

An item's setup makes its group's namespace what Sphinx's would be just before
the test (setting the group up, or rebuilding it); its call runs the test; its
teardown cleans the group up if no later item needs it (the document decides).
Failures are told by failures.py, at true lines.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from _pytest._code.code import TerminalRepr

from conformance.sphinx_doctest.document_run import SetupFailed
from conformance.sphinx_doctest.failures import describe_interruption, describe_result
from conformance.sphinx_doctest.runners import RunResult
from conformance.sphinx_doctest.specs import TestSpec, default_name

if TYPE_CHECKING:
    from conformance.sphinx_doctest.collectors import DocumentFile


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
        """The document (a collectors.DocumentFile) whose groups this item runs in."""
        document: DocumentFile = self.parent  # type: ignore[assignment]
        return document

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
