"""Sphinx's group semantics for sybil examples: setup, one test, cleanup.

sybil evaluates an example in one call; Sphinx's ``test_group`` has three
steps, and their failures mean different things. So the example's evaluator
(``run_test``) runs only the test; the pytest hooks in plugin.py call
``prepare`` in the item's setup phase (a failed group setup is an *error* of
every test of the group, as Sphinx counts it, not a failure) and
``cleanup_after`` in its teardown phase, where pytest knows which item runs
next (a group is cleaned up when the next item belongs elsewhere).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from _pytest._code.code import TerminalRepr

from conformance.sphinx_doctest.document_run import SetupFailed
from conformance.sphinx_doctest.failures import describe_interruption, describe_result
from conformance.sphinx_doctest.runners import DoctestResult

if TYPE_CHECKING:
    from conformance.sphinx_doctest.document import SphinxExample


class DoctestFailed(AssertionError):
    """A test's examples did not print or raise what the document says."""

    def __init__(self, result: DoctestResult) -> None:
        super().__init__(result.report)
        self.result = result


class GroupSetupFailed(Exception):
    """The group's setup failed, so (as in Sphinx) this test did not run."""

    def __init__(self, failure: SetupFailed) -> None:
        super().__init__(failure.group)
        self.failure = failure


class CleanupFailed(Exception):
    """A group's cleanup failed (after its tests ran)."""

    def __init__(self, results: list[DoctestResult]) -> None:
        super().__init__(len(results))
        self.results = results


def prepare(example: SphinxExample, fixtures: dict[str, Any]) -> None:
    """Make the example's namespace its group's, as Sphinx's is just before the test.

    Raises:
        GroupSetupFailed: the group's setup failed (now, or when it first ran).
    """
    spec = example.spec
    try:
        namespace = example.sphinx_document.run.prepare(
            spec.group, spec.index or 0, example.variant
        )
    except SetupFailed as failure:
        _stop_if_fail_fast(example, "its group's setup failed")
        raise GroupSetupFailed(failure) from None
    namespace.update(fixtures)  # sybil's ``fixtures``, as SybilItem.setup gives them
    example.namespace = namespace


def run_test(sphinx: SphinxExample) -> None:
    """The evaluator of every region of a Sphinx document: run one test of its group."""
    spec = sphinx.spec
    if spec.index is None:
        return  # a group without tests: its setup and cleanup are the test
    with sphinx.context():
        result = sphinx.sphinx_document.run.run_test(spec.group, spec.index, sphinx.variant)
    if result is None:
        pytest.skip("Sphinx ignores this block (invalid doctest code, or no example in it)")
    if result.failed:
        _stop_if_fail_fast(sphinx, "a test failed")
        raise DoctestFailed(result)
    if result.tries == 0:
        pytest.skip("every example of this block is skipped (SKIP option)")


def _stop_if_fail_fast(example: SphinxExample, why: str) -> None:
    document = example.sphinx_document
    if document.project.config.doctest_fail_fast:  # Sphinx stops after the failing group
        example.stop_reason = f"doctest_fail_fast: {why} in {document.docname}"


def cleanup_after(example: SphinxExample, following: SphinxExample | None) -> list[DoctestResult]:
    """Clean up what no later example needs: the group and every variant's namespace of
    it when the next example belongs elsewhere, and the whole document when the next
    example is in another one.

    A variant's namespace lives until its group ends, not only while the next example
    is of the same variant: items come example by example (``[2]``, ``[2][fifo]``,
    ``[2][lifo]``, ``[3]``, ``[3][fifo]``...), so cleaning it when the variant changes
    made every later example replay the group's earlier ones under each variant.
    """
    document = example.sphinx_document
    run = document.run
    stop = example.stop_reason is not None
    same_document = not stop and following is not None and following.sphinx_document is document
    same_group = (
        same_document and following is not None and following.spec.group == example.spec.group
    )
    results: list[DoctestResult | None] = []
    if not same_group:
        for group, variant in list(run.states):
            if group == example.spec.group:
                results.append(run.cleanup(group, variant))
    if not same_document:
        results.extend(run.cleanup_all())
    return [result for result in results if result is not None and result.failed]


def failure_text(
    example: SphinxExample,
    error: BaseException,
    when: str,
    has_traceback: bool,
    root: Path | None = None,
) -> str | None:
    """What a reader sees for a failed phase of the example; None: pytest's own text.
    Files under ``root`` (pytest's rootdir) are named relative to it."""
    text: str | None = None
    if isinstance(error, DoctestFailed):
        text = describe_result(error.result, example.spec.kind, root)
    elif isinstance(error, GroupSetupFailed):
        failure = error.failure
        if not failure.first:
            text = (
                f"the setup of group {failure.group!r} failed (reported with an earlier "
                "test of the group), so this test did not run, as in Sphinx"
            )
        else:
            text = (
                f"the setup of group {failure.group!r} failed, so none of its tests run "
                "(as in Sphinx):\n\n" + describe_result(failure.result, "setup code", root)
            )
    elif isinstance(error, CleanupFailed):
        text = "\n\n".join(describe_result(r, "cleanup code", root) for r in error.results)
    elif when == "call" and example.spec.code is not None and has_traceback:
        # e.g. a deadline that interrupted the example: where it was, at true lines
        text = describe_interruption(example.spec.code, error, root)
    return text


def with_headline(example: SphinxExample, detail: str | TerminalRepr | object) -> str | None:
    """The failure text headed by what a plugin says the example checks, if it says."""
    if example.headline is None:
        return None
    return f"{example.headline()}\n\n{detail}"


__all__ = [
    "CleanupFailed",
    "DoctestFailed",
    "GroupSetupFailed",
    "cleanup_after",
    "failure_text",
    "prepare",
    "run_test",
    "with_headline",
]
