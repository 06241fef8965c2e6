"""A document's run whose tests execute in the executor: DocumentRun's interface, remotely.

The engine's hooks (conformance/sphinx_doctest/evaluators.py) call
``prepare``, ``run_test`` and ``cleanup`` as they would on a local run; here
each is a request. The namespaces live in the executor, so when a fresh one
replaced it, the groups this side knew are gone, and the next ``prepare``
rebuilds its group there, skipping the tests that must not be replayed. A
test that passed when it ran but fails when replayed leaves a namespace that
is not the one Sphinx would have built: the test that needed it is not run
in it, and its failure names the replayed test (RebuildFailed).
"""

from __future__ import annotations

from collections.abc import Callable
from traceback import format_exception_only
from typing import Any, TypeVar

from conformance.executor import documents
from conformance.executor.handle import ExecutorFault, ExecutorHandle
from conformance.executor.processes import AFTER_ENDING_IT
from conformance.executor.state import DEADLINE_SETTING
from conformance.executor.wire import interruption_from, result_from
from conformance.sphinx_doctest.document_run import DocumentRun, GroupState, SetupFailed
from conformance.sphinx_doctest.outcome import DeadlineExceeded, FailureKind
from conformance.sphinx_doctest.runners import WHERE_NOTE, DoctestResult

_T = TypeVar("_T")


class ExecutorError(Exception):
    """The executor's own code failed on a request (a bug of the harness, told whole)."""


class RebuildFailed(Exception):
    """Tests of the group passed when they ran, but failed when replayed to rebuild its
    namespace in a fresh executor: the test that needed it did not run."""

    def __init__(self, group: str, failures: list[tuple[int, DoctestResult]]) -> None:
        tests = ", ".join(str(index + 1) for index, _ in failures)
        super().__init__(f"replaying test(s) {tests} of group {group!r} failed")
        self.group = group
        #: (test index, what its replay did)
        self.failures = failures


class RemoteDocumentRun(DocumentRun):
    """One document's groups, run by the executor ``handle`` drives."""

    def __init__(self, local: DocumentRun, docname: str, handle: ExecutorHandle) -> None:
        """The tests of ``local``, a run of document ``docname`` made here, run remotely."""
        super().__init__(local.groups, local.compiler, local.optionflags, local.replayable)
        self.docname = docname
        self.handle = handle
        #: the groups as the executor receives them (documents.py), made when first asked
        self._packed: list[str] | None = None
        self.generation = handle.generation
        self.reported: set[tuple[str, str | None]] = set()
        #: (group, variant, test index) of the tests that ran here and passed
        self.passed: set[tuple[str, str | None, int]] = set()

    def _ask(self, op: str, group: str, variant: str | None, **fields: Any) -> dict[str, Any]:
        handle = self.handle
        message = {"op": op, "doc": self.docname, "group": group, "variant": variant, **fields}
        answer = handle.request(message)
        if "need_groups" in answer:  # an executor that has not had this document yet
            if self._packed is None:
                self._packed = documents.pack(self.docname, self.groups, self.optionflags)
            answer = handle.request({**message, "groups": self._packed})
        if handle.generation != self.generation:  # a fresh executor: our groups are gone
            self.generation = handle.generation
            self.states = {key: s for key, s in self.states.items() if key == (group, variant)}
        if "interrupted" in answer:
            handle.tainted = True  # threads stuck in the example stay: a fresh executor next
            raise self._read("interruption", lambda: interruption_from(answer["interrupted"]))
        if "error" in answer:
            raise ExecutorError(str(answer["error"]))
        if handle.soft_sent and op == "run":
            handle.tainted = True
            swallowed = DeadlineExceeded(
                handle.launch.timeout,
                DEADLINE_SETTING,
                "the timeout raised into it never surfaced (the code under test caught it, "
                "or kept it as the outcome of a task nobody waited on)",
            )
            swallowed.add_note(WHERE_NOTE + "".join(format_exception_only(swallowed)))
            raise swallowed
        return answer

    def _read(self, what: str, parse: Callable[[], _T]) -> _T:
        """``parse()`` of an answer: one that cannot be read is a broken channel."""
        try:
            return parse()
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
            self.handle.stop_process()
            raise ExecutorFault(
                FailureKind.CRASH,
                f"the example broke the executor's channel (an answer whose {what} cannot "
                f"be read: {type(exc).__name__}: {exc})",
                AFTER_ENDING_IT,
            ) from None

    def prepare(self, group: str, index: int, variant: str | None = None) -> dict[str, Any]:
        if self.handle.generation != self.generation or self.handle.process is None:
            self.states = {}
        unreplayable = [i for i in range(index) if not self.replayable(group, i)]
        answer = self._ask("prepare", group, variant, index=index, unreplayable=unreplayable)
        key = (group, variant)
        if "setup_failed" in answer:
            result = self._read("setup", lambda: result_from(answer["setup_failed"]))
            result = result or DoctestResult()
            self.states[key] = GroupState({}, result)
            first = key not in self.reported
            self.reported.add(key)
            raise SetupFailed(group, result, first)
        self.states[key] = GroupState({}, DoctestResult())
        self.replay_failures = self._read(
            "rebuild",
            lambda: [
                (int(i), result_from(data) or DoctestResult()) for i, data in answer["rebuild"]
            ],
        )
        changed = [(i, r) for i, r in self.replay_failures if (group, variant, i) in self.passed]
        if changed:
            raise RebuildFailed(group, changed)
        return {}

    def run_test(self, group: str, index: int, variant: str | None = None) -> DoctestResult | None:
        answer = self._ask("run", group, variant, index=index)
        result = self._read("result", lambda: result_from(answer["result"]))
        if result is not None and not result.failed:
            self.passed.add((group, variant, index))
        return result

    def cleanup(self, group: str, variant: str | None = None) -> DoctestResult | None:
        if self.states.pop((group, variant), None) is None:
            return None
        if self.handle.generation != self.generation or self.handle.process is None:
            return None  # its executor is gone, and the namespace with it
        answer = self._ask("cleanup", group, variant)
        return self._read("result", lambda: result_from(answer["result"]))


__all__ = ["ExecutorError", "RebuildFailed", "RemoteDocumentRun"]
