"""then and add_done_callback on a forked future run only once someone waits on it.

A runtime that runs continuations only on a thread that waits: a forked future's
callbacks are queued on it and run by the next wait. It breaks
FUTURE-FORKED-METHODS-1: "callbacks run once the task has finished (on whatever
thread finishes it), also when nobody ever waits on the future".
"""

import contextlib
import threading
import weakref
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "FUTURE-FORKED-METHODS-1",
    extras={
        "FUTURE-ADD-DONE-CALLBACK-1": "the forked-future probe's callbacks run only at a "
        "wait, on the waiter's thread, which the callbacks' KeyboardInterrupt then reaches",
    },
)

#: forked future -> callbacks added while it ran, run by the next wait (the mutation)
_deferred: "weakref.WeakKeyDictionary[Any, list[Any]]" = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def _run_deferred(future: Any) -> None:
    with _lock:
        callbacks = _deferred.pop(future, [])
    for callback in callbacks:
        callback()


class Deferred(ref.Future[Any]):
    __slots__ = ()

    def then(self, callback: Any) -> Any:
        if self.done():
            return super().then(callback)
        chained: Any = ref.Future()

        def complete() -> None:
            try:
                chained.set_result(callback(self))
            except BaseException as error:  # noqa: BLE001 - kept for the new future's wait
                chained.set_exception(error)

        with _lock:
            _deferred.setdefault(self, []).append(complete)
        return chained

    def add_done_callback(self, callback: Any) -> None:
        if self.done():
            super().add_done_callback(callback)
            return

        def complete() -> None:
            with contextlib.suppress(Exception):  # ignored, as the reference logs it
                callback(self)

        with _lock:
            _deferred.setdefault(self, []).append(complete)

    def wait(self) -> Any:
        try:
            return super().wait()
        finally:
            _run_deferred(self)


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    future = ref.fork(func, *args, **kwargs)
    future.__class__ = Deferred  # still an fw.Future
    return future


def wait(future: Any) -> Any:
    try:
        return ref.wait(future)
    finally:
        if isinstance(future, Deferred):
            _run_deferred(future)


def adapter() -> Adapter:
    return mutant("forked-callbacks-wait-for-a-wait", fork=fork, wait=wait)
