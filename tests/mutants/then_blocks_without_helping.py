"""Waiting on the future then returns blocks without running the task it was made from.

The new future is a plain promise that the source's completion fulfils: it
does not list its source, so a wait on it cannot help a task still queued
along (help-while-waiting), as a wait on the task's own future does. It blocks
until a pool worker has run the task, and tasks that wait so on subtasks
queued behind them hold every worker. It breaks FUTURE-THEN-1: "A task blocked
waiting on the new future [...] MUST NOT keep the task of fut from running,
however many tasks wait so".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("FUTURE-THEN-1", slow=True)  # its deadlocked pool hangs until the deadline

_reference_then = ref.Future.then


def _then(self: Any, callback: Any) -> Any:
    chained = _reference_then(self, callback)
    chained._args = ()  # the mutation: no source, so waiting on it helps none
    return chained


def adapter() -> Adapter:
    ref.Future.then = _then  # type: ignore[method-assign]  # the executor's process only
    return mutant("then-blocks-without-helping")
