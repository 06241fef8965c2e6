"""A wait never runs a task itself: tasks run on a pool that starts a thread whenever none is
idle (a cached thread pool), and a waiter blocks until a thread of the pool has run the task.

The reference runs a task nobody has started on the thread that waits on it.
This is the other way NEST-LEVELS-1 names ("lending the waiting thread out"
rather than running the task on it): the pool never runs short of threads, so
a blocked waiter keeps no task from running. It takes the newest task first,
so that a tree of forks that wait holds few threads at a time.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._future import new_task
from reference_impl._state import local
from tests.latitudes._variant import Latitude, variant

LATITUDE = Latitude(
    where="lifecycle.rst, context.rst, NEST-LEVELS-1",
    granted="How many threads run tasks, and when they start, is not specified (lifecycle.rst); "
    "The rules below hold wherever the task runs: on the thread that forks it ..., on a worker "
    "thread, or on a thread that waits on it and runs it (context.rst)",
    slow="every blocked wait holds a thread of the pool: ERR-NESTED-1's tree of 19,999 tasks "
    "starts thousands (10 s beside CPU hogs, where the reference takes a second)",
    shows="""
import threading

@fw.ignore
def thread_name() -> str:
    return threading.current_thread().name

def task() -> str:
    return thread_name()

@fw.script
def run() -> list[str]:
    futures = [fw.fork(task) for _ in range(8)]
    return [fw.wait(fut) for fut in futures]

print(sorted(set(run())))
""",
)

#: seconds an idle thread of the pool waits for work before it ends
IDLE = 0.5


class OwnClaim(list[None]):
    """A task's claim token that only the pool's thread running it can take."""

    owner: int | None = None

    def pop(self, index: Any = -1) -> None:
        if threading.get_ident() != self.owner:
            raise IndexError("the pool runs it")  # to a waiter: as if claimed already
        return super().pop(index)


class CachedPool:
    """Threads that run queued tasks, newest first; one more whenever none is idle."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tasks: list[tuple[Any, OwnClaim]] = []
        self._idle: list[threading.Event] = []  # one per idle thread, set to wake it

    def submit(self, future: Any, claim: OwnClaim) -> None:
        with self._lock:
            self._tasks.append((future, claim))
            if self._idle:
                self._idle.pop().set()  # that thread will take a task
                return
        threading.Thread(target=self._work, name="forkwait-cached").start()

    def _work(self) -> None:
        while True:
            with self._lock:
                task = self._tasks.pop() if self._tasks else None
                if task is None:
                    woken = threading.Event()
                    self._idle.append(woken)
            if task is not None:
                future, claim = task
                claim.owner = threading.get_ident()
                future._run_if_pending()
                continue
            if not woken.wait(IDLE):
                with self._lock:
                    if woken in self._idle:  # nobody woke it: it ends
                        self._idle.remove(woken)
                        return


_pool = CachedPool()


def fork(func: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    """The reference's fork; a task of scripted code queued on the cached pool."""
    context = local.context
    if not context.scripted or context.scope is not None or context.run is not None:
        return ref.fork(func, *args, **kwargs)
    if not callable(func):
        raise TypeError(f"fork() expects a callable, got {type(func).__name__}")
    future = new_task(func, args, kwargs)
    claim = future._claim = OwnClaim([None])
    _pool.submit(future, claim)
    return future


def adapter() -> Adapter:
    return variant("waits-never-run-tasks", fork=fork)
