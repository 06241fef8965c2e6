"""A callback added while the future completes can be lost: its registration checks done() once.

add_done_callback and then look at the state, then append to the callback
list without looking again: a completer that set the state and emptied the
list in between never sees the new callback.

It breaks FUTURE-ADD-DONE-CALLBACK-1 ("run callback(fut) exactly once, when fut
completes") and FUTURE-THEN-1 (the new future "completes with what callback(fut)
returns once fut is done"): a lost callback never runs, and the future then
returned never completes.
"""

from contextvars import copy_context
from typing import Any, TypeVar

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl import _callbacks
from tests.mutants._base import AnyFuture, mutant
from tests.mutants._contract import contract

CONTRACT = contract("FUTURE-THEN-1", "FUTURE-ADD-DONE-CALLBACK-1")

T = TypeVar("T")


def _add(future: Any, callback: Any, chained: Any) -> None:
    if future.done():
        _callbacks.invoke(future, _callbacks.Entry(callback, chained, copy_context()))
        return
    entry = _callbacks.Entry(callback, chained, copy_context())
    with _callbacks._registry_lock:
        if future._callbacks is None:
            future._callbacks = []
        future._callbacks.append(entry)  # the mutation: done() is not checked again


class Future(ref.Future[T], metaclass=AnyFuture):
    __slots__ = ()

    def then(self, callback: Any) -> Any:
        chained: Any = ref.Future()
        chained._args = (self,)
        _add(self, callback, chained)
        return chained

    def add_done_callback(self, callback: Any) -> None:
        _add(self, callback, None)


def adapter() -> Adapter:
    return mutant("callbacks-lost-in-a-race", Future=Future)
