"""A future's lock is held while its callbacks run: a callback that adds a callback deadlocks.

A future that guards its state and its callbacks with one lock, and keeps it
while it runs them so that callbacks and registrations stay in order: a callback
that calls ``then`` or ``add_done_callback`` on the future it was given, as
chains do, blocks on the lock its own thread holds. It breaks
FUTURE-ADD-DONE-CALLBACK-1 ("on a future that is done already the callback runs
before add_done_callback returns") and FUTURE-THEN-1 ("On a future that is done
already, then MUST run the callback before it returns"): both hang instead.
"""

import threading
from typing import Any, TypeVar

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import AnyFuture, mutant
from tests.mutants._contract import contract

CONTRACT = contract("FUTURE-THEN-1", "FUTURE-ADD-DONE-CALLBACK-1")

T = TypeVar("T")


class Future(ref.Future[T], metaclass=AnyFuture):
    __slots__ = ("_mutex",)

    def __init__(self) -> None:
        super().__init__()
        self._mutex = threading.Lock()

    def _set(self, value: Any, exception: BaseException | None) -> None:
        with self._mutex:  # the mutation: held while the callbacks run
            super()._set(value, exception)

    def then(self, callback: Any) -> Any:
        with self._mutex:
            return super().then(callback)

    def add_done_callback(self, callback: Any) -> None:
        with self._mutex:
            super().add_done_callback(callback)


def adapter() -> Adapter:
    return mutant("callbacks-under-the-lock", Future=Future)
