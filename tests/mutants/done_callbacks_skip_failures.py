"""add_done_callback runs its callbacks only when the future succeeds; a failure drops them.

Callbacks kept as "on success" listeners: the completing side runs them from
``set_result`` and from a task that returned, while ``set_exception`` and a
task that raised just wake the waiters. Breaks FUTURE-ADD-DONE-CALLBACK-1:
``callback(fut)`` runs exactly once "when ``fut`` completes", and the callbacks
added "before ``set_result`` or ``set_exception``" have run by the time it
returns.
"""

from typing import Any, TypeVar

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import AnyFuture, mutant
from tests.mutants._contract import contract

T = TypeVar("T")

CONTRACT = contract("FUTURE-ADD-DONE-CALLBACK-1")


def on_success_only(future: Any, callback: Any) -> None:
    def run(done: Any) -> None:
        if done._exception is None:  # the mutation: a failed future's callbacks are dropped
            callback(done)

    ref.Future.add_done_callback(future, run)


class Future(ref.Future[T], metaclass=AnyFuture):
    __slots__ = ()

    def add_done_callback(self, callback: Any) -> None:
        ref._callbacks.check_callable("add_done_callback", callback)
        on_success_only(self, callback)


class Forked(ref.Future[Any]):
    __slots__ = ()

    def add_done_callback(self, callback: Any) -> None:
        ref._callbacks.check_callable("add_done_callback", callback)
        on_success_only(self, callback)


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    future = ref.fork(func, *args, **kwargs)
    if type(future) is ref.Future:
        future.__class__ = Forked
    return future


def adapter() -> Adapter:
    return mutant("done-callbacks-skip-failures", Future=Future, fork=fork)
