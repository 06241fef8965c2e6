"""A task's wait on a failed subtask raises a generic error, without the subtask's message."""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._thread_state import local
from tests.mutants._base import mutant


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
