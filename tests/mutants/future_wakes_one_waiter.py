"""Completing a future wakes one of the threads blocked on it, not all (notify, not notify_all).

The waiters of a created future block on one lock that its completion releases
once, as ``Condition.notify()`` where ``notify_all()`` was meant: the first
waiter wakes, the others block for good. It breaks FUTURE-WAKES-WAITERS-1:
"set_result and set_exception, called from any thread, MUST wake every thread
blocked in wait() or fw.wait on the future".
"""

from typing import Any, TypeVar

import reference_impl as ref
import reference_impl._core as core
from conformance.adapter import Adapter
from tests.mutants import _reasons as reasons
from tests.mutants._base import AnyFuture, mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "FUTURE-WAKES-WAITERS-1",
    extras={
        "FUTURE-CREATE-1": reasons.MANY_WAITERS,
        "FUTURE-SET-EXCEPTION-1": reasons.MANY_WAITERS,
    },
    slow=True,  # its run sleeps out many deadlines and probes' patience
)

T = TypeVar("T")


class Future(ref.Future[T], metaclass=AnyFuture):
    __slots__ = ()

    def _wait_for_others(self, thread: Any) -> None:
        with core._settle_lock:
            waker = self._waker
            if waker is None:
                if self._state == core._DONE:
                    return
                waker = core._Lock()
                waker.acquire()  # released once by the completer
                self._waker = waker
        if self._state == core._DONE:
            return
        waker.acquire()  # the mutation: not released again for the next waiter


def adapter() -> Adapter:
    return mutant("future-wakes-one-waiter", Future=Future)
