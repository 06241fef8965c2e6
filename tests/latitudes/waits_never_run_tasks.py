"""A wait never runs a task itself: a thread that blocks on a queued task hands it to a
thread of the pool, which adds threads when its queue makes no progress (as .NET's thread
pool injects them), and the waiter blocks until that thread has run the task.

The reference runs a task nobody has started on the thread that waits on it.
This is the other way NEST-LEVELS-1 names, "lending the waiting thread out":
a thread that blocks in ``wait`` on a task still queued hands that task to
another worker at once; two workers take the queue's newest tasks, and a
watchdog adds one when tasks wait in the queue while the workers are blocked
(in waits, on an event, at a barrier). A tree of forks that wait then holds
about its depth in threads.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._core import PROMISE, Core
from reference_impl._future import new_task
from reference_impl._thread_state import local
from tests.latitudes._variant import Latitude, variant

LATITUDE = Latitude(
    where="lifecycle.rst, context.rst, NEST-LEVELS-1",
    granted="How many threads run tasks, and when they start, is not specified (lifecycle.rst); "
    "The rules below hold wherever the task runs: on the thread that forks it ..., on a worker "
    "thread, or on a thread that waits on it and runs it (context.rst)",
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

#: workers the pool keeps running (not blocked in a wait) while it has tasks
RUNNING = 2
#: seconds an idle worker waits for work before it ends
IDLE = 0.5
#: seconds between the watchdog's looks at a queue that makes no progress
WATCH = 0.02


class OwnClaim(list[None]):
    """A task's claim token that only the pool's thread running it can take."""

    owner: int | None = None

    def pop(self, index: Any = -1) -> None:
        if threading.get_ident() != self.owner:
            raise IndexError("the pool runs it")  # to a waiter: as if claimed already
        return super().pop(index)


class _Idle:
    """An idle worker: woken by its event, with a task handed to it."""

    __slots__ = ("event", "task")

    def __init__(self) -> None:
        self.event = threading.Event()
        self.task: tuple[Any, OwnClaim] | None = None


class LendingPool:
    """Workers that run queued tasks newest first; a worker that blocks on a queued task
    hands that task to another worker at once, and a watchdog adds a worker when the queue
    makes no progress."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tasks: list[tuple[Any, OwnClaim]] = []
        self._idle: list[_Idle] = []
        self._running = 0  # workers not idle (blocked in a wait or not)
        self._taken = 0  # tasks taken so far: the watchdog's measure of progress
        self._watching = False

    def submit(self, future: Any, claim: OwnClaim) -> None:
        with self._lock:
            self._tasks.append((future, claim))
            if not self._watching:
                self._watching = True
                threading.Thread(target=self._watch, name="forkwait-watchdog", daemon=True).start()
            if self._running < RUNNING:
                self._add_worker(self._take())

    def blocking(self, awaited: Any) -> None:
        """A thread is about to block on ``awaited``: each task it waits for that is still
        queued (``awaited``'s, or a promise's sources') goes to a worker now (the waiter
        lends its place to the tasks it waits on)."""
        waited = _tasks_behind(awaited)
        with self._lock:
            tasks = self._tasks
            for index in range(len(tasks) - 1, -1, -1):
                if id(tasks[index][0]) in waited:
                    self._taken += 1
                    self._add_worker(tasks.pop(index))

    def _take(self) -> tuple[Any, OwnClaim]:
        """The newest queued task, taken (lock held)."""
        self._taken += 1
        return self._tasks.pop()

    def _add_worker(self, task: tuple[Any, OwnClaim]) -> None:
        """Wake an idle worker, or start one, to run ``task`` (lock held)."""
        self._running += 1
        if self._idle:
            idle = self._idle.pop()
            idle.task = task
            idle.event.set()
        else:
            threading.Thread(target=self._work, args=(task,), name="forkwait-lent").start()

    def _work(self, task: tuple[Any, OwnClaim] | None) -> None:
        while True:
            if task is None:
                with self._lock:
                    # past RUNNING (workers blocked in waits count), a worker that is done
                    # goes idle rather than start another task: the watchdog adds one if needed
                    if self._tasks and self._running <= RUNNING:
                        task = self._take()
                    else:
                        self._running -= 1
                        idle = _Idle()
                        self._idle.append(idle)
            if task is not None:
                future, claim = task
                claim.owner = threading.get_ident()
                future._run_if_pending()
                task = None
                continue
            if not idle.event.wait(IDLE):
                with self._lock:
                    if idle in self._idle:  # nobody woke it: it ends
                        self._idle.remove(idle)
                        return
                idle.event.wait()  # woken meanwhile: the task is on its way
            task = idle.task  # counted running again by whoever woke it

    def _watch(self) -> None:
        """Add a worker whenever tasks wait while the workers are blocked outside a wait."""
        seen = -1
        while True:
            threading.Event().wait(WATCH)
            with self._lock:
                if self._tasks and self._taken == seen:
                    self._add_worker(self._take())
                seen = self._taken


def _tasks_behind(future: Any) -> set[int]:
    """The ids of the futures a wait on ``future`` waits for: it, or a promise's sources."""
    found: set[int] = set()
    stack = [future]
    while stack:
        current = stack.pop()
        if id(current) in found:
            continue
        found.add(id(current))
        if current._kind is PROMISE:
            stack.extend(current._args)
    return found


_pool = LendingPool()
_reference_wait = Core._wait_for_others


def _wait_for_others(self: Any, thread: Any) -> None:
    """The reference's blocking wait, once the task waited on, if queued, has a worker."""
    _pool.blocking(self)
    _reference_wait(self, thread)


def fork(func: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    """The reference's fork; a task of scripted code queued on the lending pool."""
    thread = local.state
    if not thread.scripted or thread.scope is not None or thread.run is not None:
        return ref.fork(func, *args, **kwargs)
    if not callable(func):
        raise TypeError(f"fork() expects a callable, got {type(func).__name__}")
    future = new_task(func, args, kwargs)
    claim = future._claim = OwnClaim([None])
    _pool.submit(future, claim)
    return future


def adapter() -> Adapter:
    Core._wait_for_others = _wait_for_others  # type: ignore[method-assign]
    return variant("waits-never-run-tasks", fork=fork)
