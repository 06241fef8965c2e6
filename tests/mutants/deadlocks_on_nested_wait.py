"""A one-thread pool per scripted call, and wait just blocks: nested waits deadlock.

The help-while-waiting rule is missing: a task that waits on a task it forked
blocks the only worker, which the forked task needs. Each scripted call gets a
pool of its own (a daemon thread), so one deadlock does not wedge later examples.
"""

from __future__ import annotations

import functools
import queue
import threading
from typing import Any, Generic, TypeVar

from conformance.adapter import Adapter
from tests.mutants._base import mutant

T = TypeVar("T")
_local = threading.local()


class BlockingFuture(Generic[T]):
    def __init__(self) -> None:
        self._event = threading.Event()
        self._value: Any = None
        self._error: BaseException | None = None

    def done(self) -> bool:
        return self._event.is_set()

    def wait(self) -> Any:
        self._event.wait()  # no timeout, no helping: the mutation
        if self._error is not None:
            raise self._error
        return self._value


def _worker(tasks: queue.SimpleQueue[Any]) -> None:
    _local.tasks = tasks
    while True:
        future, func, args, kwargs = tasks.get()
        try:
            future._value = func(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001
            future._error = exc
        future._event.set()


def fork(func: Any, *args: Any, **kwargs: Any) -> BlockingFuture[Any]:
    if not callable(func):
        raise TypeError(f"fork() needs a callable, got {type(func).__name__}")
    future: BlockingFuture[Any] = BlockingFuture()
    tasks = getattr(_local, "tasks", None)
    if tasks is None:  # plain Python: run now
        try:
            future._value = func(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001
            future._error = exc
        future._event.set()
    else:
        tasks.put((future, func, args, kwargs))
    return future


def wait(future: Any) -> Any:
    if not isinstance(future, BlockingFuture):
        raise TypeError(f"wait() needs a future, got {type(future).__name__}")
    return future.wait()


def script(fn: Any) -> Any:
    @functools.wraps(fn)
    def scripted(*args: Any, **kwargs: Any) -> Any:
        outer = getattr(_local, "tasks", None)
        tasks: queue.SimpleQueue[Any] = queue.SimpleQueue()
        threading.Thread(target=_worker, args=(tasks,), daemon=True).start()
        _local.tasks = tasks
        try:
            return fn(*args, **kwargs)
        finally:
            _local.tasks = outer

    return scripted


def adapter() -> Adapter:
    return mutant(
        "deadlocks-on-nested-wait", fork=fork, wait=wait, script=script, Future=BlockingFuture
    )
