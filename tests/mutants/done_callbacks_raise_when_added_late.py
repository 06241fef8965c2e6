"""add_done_callback on a forked future that is done already calls the callback bare.

The worker that completes a task's future guards every callback, but a
callback added to a forked future once it is done is called straight from
``add_done_callback``, outside that guard, so whatever it raises leaves
``add_done_callback``. Created futures are not affected. It breaks
FUTURE-ADD-DONE-CALLBACK-1: "an ``Exception`` the callback raises MUST NOT be
raised by ``add_done_callback``".
"""

from collections.abc import Callable
from typing import Any, TypeVar

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract
from tests.mutants._tasks import fork_as

CONTRACT = contract("FUTURE-ADD-DONE-CALLBACK-1")

T = TypeVar("T")


class _BareWhenDone(ref.Future[T]):
    __slots__ = ()

    def add_done_callback(self, callback: Callable[[ref.Future[T]], object]) -> None:
        if self.done():
            callback(self)  # the mutation: no guard on the registering thread
            return
        super().add_done_callback(callback)


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    return fork_as(_BareWhenDone, func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("done-callbacks-raise-when-added-late", fork=fork)
