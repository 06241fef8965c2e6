"""A wait that must block gives up after one second and raises TimeoutError.

An internal time limit on blocking (``lock.acquire(timeout=1.0)``), meant to
turn a hang into an error: a wait on a task that runs elsewhere, or on a
future not completed yet, raises ``TimeoutError`` once it has blocked for a
second, although the task is still running and would finish. Breaks
WAIT-FROM-PYTHON-1: a future that scripted code returns while its task still
runs "MUST be waitable from plain Python with ``fw.wait``, and give the task's
value", however long the task takes.
"""

from typing import Any

from conformance.adapter import Adapter
from reference_impl import _core
from reference_impl._core import _DONE, PROMISE, Core, _describe
from reference_impl._errors import DeadlockError
from reference_impl._thread_state import ThreadState
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("WAIT-FROM-PYTHON-1")

TIME_LIMIT = 1.0


def _block(waker: Any) -> None:
    if not waker.acquire(timeout=TIME_LIMIT):  # the mutation: a time limit
        raise TimeoutError(f"wait gave up after {TIME_LIMIT} s")
    waker.release()


def _wait_for_others(self: Core[Any], thread: ThreadState) -> None:
    """The reference's, but for the time limit."""
    if self._kind is PROMISE:
        self._help(thread)
    with _core._settle_lock:
        waker = self._waker
        if waker is None:
            if self._state == _DONE:
                return
            waker = _core._Lock()
            waker.acquire()
            self._waker = waker
    if self._state == _DONE:
        return
    current = thread.current
    if current is None:
        _block(waker)
        return
    with _core._wait_graph_lock:
        if self._reaches(current):
            raise DeadlockError(
                f"deadlock: task {_describe(current)} waits on a future that "
                "(directly or through other tasks) waits on it"
            )
        current._waiting_on = self
    try:
        _block(waker)
    finally:
        current._waiting_on = None


def adapter() -> Adapter:
    # the mutant runs in a suite process of its own: patching the class is enough
    Core._wait_for_others = _wait_for_others  # type: ignore[method-assign]
    return mutant("wait-gives-up-after-a-second")
