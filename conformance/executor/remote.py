"""A document's run whose tests execute in the executor: DocumentRun's interface, remotely.

The engine's hooks (conformance/sphinx_doctest/evaluators.py) call
``prepare``, ``run_test`` and ``cleanup`` as they would on a local run; here
each is a request. The namespaces live in the executor, so when a fresh one
replaced it, the groups this side knew are gone, and the next ``prepare``
rebuilds its group there, skipping the tests that must not be replayed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from _pytest.outcomes import fail
from sphinx.ext.doctest import DocTestBuilder, TestGroup

from conformance.executor.handle import ExecutorHandle
from conformance.executor.results import result_from
from conformance.sphinx_doctest.document_run import DocumentRun, GroupState, SetupFailed
from conformance.sphinx_doctest.runners import WHERE_NOTE, RunResult


class ExecutorError(Exception):
    """The executor's own code failed on a request (a bug of the harness, told whole)."""


class RemoteDocumentRun(DocumentRun):
    """One document's groups, run by the executor ``handle`` drives."""

    def __init__(
        self,
        groups: dict[str, TestGroup],
        builder: DocTestBuilder,
        docname: str,
        handle: ExecutorHandle,
        replayable: Callable[[str, int], bool],
    ) -> None:
        super().__init__(groups, builder, replayable)
        self.docname = docname
        self.handle = handle
        self.generation = handle.generation
        self.reported: set[tuple[str, str | None]] = set()

    def _ask(self, op: str, group: str, variant: str | None, **fields: Any) -> dict[str, Any]:
        handle = self.handle
        message = {"op": op, "doc": self.docname, "group": group, "variant": variant, **fields}
        answer = handle.request(message)
        if handle.generation != self.generation:  # a fresh executor: our groups are gone
            self.generation = handle.generation
            self.states = {key: s for key, s in self.states.items() if key == (group, variant)}
        if "interrupted" in answer:
            handle.tainted = True  # threads stuck in the example stay: a fresh executor next
            error = fail.Exception(str(answer["interrupted"]), pytrace=False)
            if answer.get("where"):
                error.add_note(str(answer["where"]))
            raise error
        if "error" in answer:
            raise ExecutorError(str(answer["error"]))
        if handle.soft_sent and op == "run":
            handle.tainted = True
            timeout = handle.launch.timeout
            said = (
                f"Timeout (>{timeout:g}s): the example ran past --example-timeout, and the "
                "timeout raised into it never surfaced (the code under test caught it, or "
                "kept it as the outcome of a task nobody waited on)"
            )
            swallowed = fail.Exception(said, pytrace=False)
            swallowed.add_note(f"{WHERE_NOTE}Failed: {said}")
            raise swallowed
        return answer

    def prepare(self, group: str, index: int, variant: str | None = None) -> dict[str, Any]:
        if self.handle.generation != self.generation or self.handle.process is None:
            self.states = {}
        unreplayable = [i for i in range(index) if not self.replayable(group, i)]
        answer = self._ask("prepare", group, variant, index=index, unreplayable=unreplayable)
        key = (group, variant)
        if "setup_failed" in answer:
            result = result_from(answer["setup_failed"]) or RunResult()
            self.states[key] = GroupState({}, result)
            first = key not in self.reported
            self.reported.add(key)
            raise SetupFailed(group, result, first)
        self.states[key] = GroupState({}, RunResult())
        self.replay_failures = [
            (int(index), result_from(data) or RunResult()) for index, data in answer["rebuild"]
        ]
        return {}

    def run_test(self, group: str, index: int, variant: str | None = None) -> RunResult | None:
        return result_from(self._ask("run", group, variant, index=index)["result"])

    def cleanup(self, group: str, variant: str | None = None) -> RunResult | None:
        if self.states.pop((group, variant), None) is None:
            return None
        if self.handle.generation != self.generation or self.handle.process is None:
            return None  # its executor is gone, and the namespace with it
        return result_from(self._ask("cleanup", group, variant)["result"])


__all__ = ["ExecutorError", "RemoteDocumentRun"]
