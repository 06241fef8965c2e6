"""add_done_callback on a future that is done already never runs the callback.

add_done_callback appends to the list of callbacks, which the completion has run
and emptied already: the callback waits for a completion that does not come
again. It breaks FUTURE-ADD-DONE-CALLBACK-1: "on a future that is done already
the callback runs before add_done_callback returns".
"""

from typing import Any, TypeVar

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import AnyFuture, mutant
from tests.mutants._contract import contract

CONTRACT = contract("FUTURE-ADD-DONE-CALLBACK-1")

T = TypeVar("T")


class Future(ref.Future[T], metaclass=AnyFuture):
    __slots__ = ()

    def add_done_callback(self, callback: Any) -> None:
        if not self.done():
            super().add_done_callback(callback)


def adapter() -> Adapter:
    return mutant("late-callbacks-never-run", Future=Future)
