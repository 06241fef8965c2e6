"""A wait inside a task re-raises a failure as RuntimeError with its text cut to 200 characters.

Each level prefixes what it passes up ("subtask failed: ...") and keeps the
message short; a few levels keep the original message, a deep chain pushes
it out of the text.

It breaks ERR-NESTED-1: when a task does not catch its failed subtask's
exception, "wait on it raises an exception whose text contains the original
message, however many levels lie between".
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
        "ERR-CHAIN-KEPT-1": reasons.NESTED_RUNTIME_ERROR,
        "ERR-TYPE-KEPT-1": reasons.NESTED_RUNTIME_ERROR,
        "KWARGS-UNKNOWN-1": "a task's wait on a fork with an unknown keyword raises "
        "RuntimeError, not TypeError",
        "WAIT-NOT-A-FUTURE-1": reasons.TASK_WAITS_ON_NON_FUTURE,
    },
)


def wait(future: Any, /) -> Any:
    try:
        return ref.wait(future)
    except Exception as error:
        if local.state.current is None:  # the caller's own wait: as the reference
            raise
        text = ("subtask failed: " + str(error))[:200]  # the mutation: the tail is lost
        raise RuntimeError(text) from error


def adapter() -> Adapter:
    return mutant("nested-failures-truncated", wait=wait)
