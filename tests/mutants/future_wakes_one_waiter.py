"""Completing a future wakes one of the threads blocked on it, not all (notify, not notify_all)."""

from typing import Any, TypeVar

import reference_impl as ref
import reference_impl._core as core
from conformance.adapter import Adapter
from tests.mutants._base import AnyFuture, mutant

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
