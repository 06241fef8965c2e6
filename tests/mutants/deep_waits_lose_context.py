"""A scripted wait too deep to run its task inline has a thread run it in a new context.

Past ``MAX_NESTED`` nested tasks a wait hands the task it waits on to a thread of
its own, whose stack is empty. That thread runs the task in its own context, as a
new ``threading.Thread`` does (before Python 3.14 threads start with an empty
context), not in the copy the task's ``fork`` took: deep in a scripted chain a task
no longer sees its forker's context variables. Plain forks (run on the spot) and
shallow waits keep the copy.

It breaks CONTEXT-INHERITED-1: "A task MUST run in a copy of the context of the
code that forked it [...] and for tasks forked by tasks".
"""

import contextvars
from typing import Any

import reference_impl._core as core
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("CONTEXT-INHERITED-1")

_run_elsewhere = core.Core.run_elsewhere


def run_elsewhere(self: Any) -> Any:
    if self._claim is not None and self._state == core._PENDING:  # a scripted task
        self._context = contextvars.Context()  # the mutation: the thread's own context
    return _run_elsewhere(self)


def adapter() -> Adapter:
    core.Core.run_elsewhere = run_elsewhere  # type: ignore[method-assign]
    return mutant("deep-waits-lose-context")
