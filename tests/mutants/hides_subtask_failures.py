"""A task's wait on a failed subtask raises a generic error, without the subtask's message.

A runtime that does not carry a subtask's exception across threads reports only
that it failed. It breaks ERR-NESTED-1: "A failure MUST travel up through every
level of nested forks: [...] wait on it raises an exception whose text contains
the original message".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._thread_state import local
from tests.mutants import _reasons as reasons
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "ERR-NESTED-1",
    extras={
        "DET-PURE-1": "a generated program's failure travels up a task",
        "ERR-AT-WAIT-1": reasons.SUBTASK_FAILURES,
        "ERR-CHAIN-KEPT-1": reasons.SUBTASK_FAILURES,
        "ERR-SCRIPT-AT-WAIT-1": reasons.SUBTASK_FAILURES,
        "ERR-TYPE-KEPT-1": reasons.SUBTASK_FAILURES,
        "ERR-WAIT-AGAIN-1": reasons.SUBTASK_FAILURES,
        "KWARGS-UNKNOWN-1": "the probe's task forks with an unknown keyword and waits",
        "WAIT-NOT-A-FUTURE-1": reasons.TASK_WAITS_ON_NON_FUTURE,
    },
)


class SubtaskFailed(RuntimeError):
    pass


def wait(future: Any) -> Any:
    if local.state.current is None:  # not inside a task
        return ref.wait(future)
    try:
        return ref.wait(future)
    except Exception:  # noqa: BLE001 - the mutation: the cause's message is dropped
        raise SubtaskFailed("a subtask failed") from None


def adapter() -> Adapter:
    return mutant("hides-subtask-failures", wait=wait)
