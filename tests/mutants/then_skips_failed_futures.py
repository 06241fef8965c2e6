"""then on a failed future skips the callback: the new future fails with the same exception.

A promise-style ``then``: the callback is the success handler, and a failure
passes straight through to the new future, as ``Promise.then(onFulfilled)``
and many future libraries chain. Code that recovers from a failure in its
callback (reads ``fut.wait()`` in a ``try``, or returns a value whatever
happened) never runs. Breaks FUTURE-THEN-1: the new future "completes with
what ``callback(fut)`` returns once ``fut`` is done", failed or not.
"""

from typing import Any, TypeVar

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import AnyFuture, mutant
from tests.mutants._contract import contract

T = TypeVar("T")

CONTRACT = contract("FUTURE-THEN-1")


class Future(ref.Future[T], metaclass=AnyFuture):
    __slots__ = ()

    def then(self, callback: Any) -> Any:
        return then_skipping_failures(self, callback)


def then_skipping_failures(future: Any, callback: Any) -> Any:
    def on_success(done: Any) -> Any:
        if done._exception is not None:
            done._outcome()  # the mutation: re-raised, the callback never runs
        return callback(done)

    return ref.Future.then(future, on_success)


class Forked(ref.Future[Any]):
    __slots__ = ()

    def then(self, callback: Any) -> Any:
        return then_skipping_failures(self, callback)


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    future = ref.fork(func, *args, **kwargs)
    if type(future) is ref.Future:
        future.__class__ = Forked
    return future


def adapter() -> Adapter:
    return mutant("then-skips-failed-futures", Future=Future, fork=fork)
