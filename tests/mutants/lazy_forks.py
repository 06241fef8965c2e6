"""fork records the call; the task runs only when first waited.

Lazy evaluation, as a runtime of thunks does: fork records the call and returns
a handle, the task runs on the thread that first waits on it, and a task nobody
waits on never runs. It breaks ASYNC-STARTS-1: "In scripted code a forked task
MUST start without anyone waiting on it".
"""

from __future__ import annotations

import contextlib
import contextvars
import threading
from typing import Any, Generic, TypeVar

from conformance.adapter import Adapter
from tests.mutants import _reasons as reasons
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "ASYNC-STARTS-1",
    extras={
        "ERR-WAIT-AGAIN-1": reasons.TASKS_RAN_BEFORE_ANY_WAIT,
        "FUTURE-WAIT-ALL-FIRST-1": reasons.TASKS_RAN_BEFORE_ANY_WAIT,
        "NEST-UNWAITED-1": reasons.TASKS_RAN_BEFORE_ANY_WAIT,
        "WAIT-SAME-OBJECT-1": reasons.TASKS_RAN_BEFORE_ANY_WAIT,
        "ERR-SCRIPT-AT-WAIT-1": reasons.TASKS_RAN_BEFORE_ANY_WAIT,
        "ERR-BASE-EXCEPTION-1": reasons.UNWAITED_NEVER_STARTS,
        "SCRIPT-MODULE-1": (
            "its probe's two tasks of a scripted forward meet at a barrier, and a task that runs "
            "only when waited never gets there first"
        ),
        "ASYNC-CONCURRENT-1": "tasks start one at a time, each when waited",
        "FUTURE-DONE-1": "the probe waits for held tasks to start, which a lazy fork never does",
        "LIFECYCLE-EXIT-1": reasons.UNWAITED_NEVER_STARTS,
        "NEST-ANY-POOL-1": reasons.ON_THE_STACK,
        "NEST-LEVELS-1": reasons.ON_THE_STACK,
        "NEST-UNWAITED-RUNS-1": reasons.UNWAITED_NEVER_STARTS,
        "WAIT-SELF-1": "a task that waits on itself, when waited, blocks on its own lock",
    },
    slow=True,  # its run sleeps out many deadlines and probes' patience
)

T = TypeVar("T")


class LazyFuture(Generic[T]):
    def __init__(self, func: Any, args: Any, kwargs: Any) -> None:
        self._call = (func, args, kwargs)
        self._context = contextvars.copy_context()  # the caller's, as of the fork
        self._lock = threading.Lock()
        self._done = False
        self._value: Any = None
        self._error: BaseException | None = None

    def done(self) -> bool:
        return self._done

    def wait(self) -> Any:
        with self._lock:
            if not self._done:
                func, args, kwargs = self._call
                try:
                    self._value = self._context.run(func, *args, **kwargs)
                except BaseException as exc:  # noqa: BLE001 - every failure belongs to wait
                    self._error = exc
                self._done = True
        if self._error is not None:
            raise self._error
        return self._value


def fork(func: Any, /, *args: Any, **kwargs: Any) -> LazyFuture[Any]:
    if not callable(func):
        raise TypeError(f"fork() needs a callable, got {type(func).__name__}")
    return LazyFuture(func, args, kwargs)


def wait(future: Any) -> Any:
    if not isinstance(future, LazyFuture):
        raise TypeError(f"wait() needs a future, got {type(future).__name__}")
    return future.wait()


def _checked(futures: list[LazyFuture[Any]]) -> list[LazyFuture[Any]]:
    for item in futures:
        if not isinstance(item, LazyFuture):
            raise TypeError(f"expected a list of futures, got a {type(item).__name__} in it")
    return list(futures)


def collect_all(futures: list[LazyFuture[Any]]) -> LazyFuture[Any]:
    futures = _checked(futures)

    def settle() -> list[LazyFuture[Any]]:
        for future in futures:
            with contextlib.suppress(Exception):
                future.wait()
        return futures

    return LazyFuture(settle, (), {})


def wait_all(futures: list[LazyFuture[Any]]) -> list[Any]:
    futures = _checked(futures)
    return [future.wait() for future in futures]


def adapter() -> Adapter:
    return mutant(
        "lazy-forks",
        profiles={"core", "async", "dynamic"},  # its fork knows nothing of traces
        fork=fork,
        wait=wait,
        Future=LazyFuture,
        collect_all=collect_all,
        wait_all=wait_all,
    )
