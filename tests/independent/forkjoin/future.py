"""The future: an outcome guarded by a lock, one event per blocked waiter, callbacks in order.

A waiter registers an event of its own (a lock it holds, released by whoever
completes the future) and sleeps on it, so completing a future wakes exactly
the threads that wait on it. A waiter that is a pool worker tells
the pool it blocks (managed blocking), which keeps enough threads running for
the task it waits on to run.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar, cast

from . import control_hooks, deadlock, pool, trace_hooks

T = TypeVar("T")
S = TypeVar("S")

_PENDING, _VALUE, _FAILED = range(3)

logger = logging.getLogger(__name__)

#: the pool a waiting worker belongs to, set by the runtime that owns the pool
_pool_of_waiters: list[pool.ForkJoinPool] = []


def use_pool(the_pool: pool.ForkJoinPool) -> None:
    """Waits on threads of ``the_pool`` use its managed blocking."""
    _pool_of_waiters[:] = [the_pool]


def use_pool_none() -> None:
    """Waits block plainly until a pool is made (a child process after ``os.fork``)."""
    _pool_of_waiters.clear()


class Future(Generic[T]):
    """What ``fork`` returns, and a future anyone can create and complete."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._state = _PENDING
        self._outcome: Any = None
        self._waiters: list[threading.Lock] = []
        self._callbacks: list[Callable[[Future[T]], None]] = []
        #: whether ``fork`` made it: then only its task completes it
        self._forked = False
        #: the pool task that completes it, while that task has not ended
        self._task: pool.Task | None = None
        #: the futures this one is made from (by ``then``, ``collect_all``): their tasks
        #: are what a wait on this one waits for
        self._sources: tuple[Future[Any], ...] = ()

    def __repr__(self) -> str:
        state = ("pending", "done", "failed")[self._state]
        return f"<forkjoin.Future {state} at {id(self):#x}>"

    # -- reading ----------------------------------------------------------------------

    def done(self) -> bool:
        return self._state != _PENDING

    def value(self) -> T:
        """The value of a done future (or raise its failure); raise if it is not done."""
        with self._lock:
            state, outcome = self._state, self._outcome
        if state == _PENDING:
            raise RuntimeError("value() of a future that is not done yet")
        if state == _FAILED:
            raise outcome
        return cast(T, outcome)

    def wait(self) -> T:
        """Block until done; give the value or raise the failure."""
        if self._state == _PENDING:
            controller = control_hooks.active.get()
            if controller is not None and controller.owns_this_thread():
                controller.block_on(self)
            else:
                self._block()
        value = self.value()
        recorder = trace_hooks.current.get()
        if recorder is not None:
            recorder.waited(self, value)
        return value

    def _block(self) -> None:
        event = threading.Lock()
        event.acquire()
        with self._lock:
            if self._state != _PENDING:
                return
            self._waiters.append(event)
        running = pool.current_task()
        waiter = running.ident if running is not None else None
        try:
            task = self._task  # read once: completion clears it
            target = task.ident if task is not None else None
            with deadlock.waiting(waiter, target):
                if _pool_of_waiters:
                    with _pool_of_waiters[0].blocking(self._tasks_behind()):
                        event.acquire()
                else:
                    event.acquire()
        finally:
            with self._lock:
                if event in self._waiters:
                    self._waiters.remove(event)

    def _tasks_behind(self) -> list[pool.Task]:
        """The tasks whose end this future waits for, through the futures it is made from."""
        tasks: list[pool.Task] = []
        seen: set[int] = set()
        stack: list[Future[Any]] = [self]
        while stack:
            fut = stack.pop()
            if id(fut) in seen or fut.done():
                continue
            seen.add(id(fut))
            task = fut._task  # read once: completion clears it
            if task is not None:
                tasks.append(task)
            stack.extend(fut._sources)
        return tasks

    # -- completing -------------------------------------------------------------------

    def set_result(self, result: T) -> None:
        self._refuse_if_forked("set_result")
        self._complete(_VALUE, result)

    def set_exception(self, error: BaseException) -> None:
        if not isinstance(error, BaseException):
            raise TypeError(
                f"set_exception needs an exception instance, got {type(error).__name__} {error!r}"
            )
        self._refuse_if_forked("set_exception")
        self._complete(_FAILED, error)

    def _complete_by_task(self, outcome: object, *, failed: bool) -> None:
        """The task's own completion of a forked future."""
        self._complete(_FAILED if failed else _VALUE, outcome)

    def _refuse_if_forked(self, method: str) -> None:
        if self._forked:
            raise RuntimeError(f"{method}() on a future returned by fork: its task completes it")

    def _complete(self, state: int, outcome: object) -> None:
        with self._lock:
            if self._state != _PENDING:
                raise RuntimeError("this future is already done: a future completes once")
            self._state, self._outcome = state, outcome
            self._task = None  # its context and arguments are no longer needed
            waiters, self._waiters = self._waiters, []
            callbacks, self._callbacks = self._callbacks, []
        for event in waiters:
            event.release()
        for callback in callbacks:
            self._run_callback(callback)

    # -- callbacks --------------------------------------------------------------------

    def add_done_callback(self, callback: Callable[[Future[T]], None]) -> None:
        """Run ``callback(self)`` once done: now if it is done already."""
        with self._lock:
            if self._state == _PENDING:
                self._callbacks.append(callback)
                return
        self._run_callback(callback)

    def _run_callback(self, callback: Callable[[Future[T]], None]) -> None:
        # nothing waits for a done callback: its error has nowhere to go but the log
        try:
            callback(self)
        except BaseException:
            logger.exception("a done callback of %r raised", self)

    def then(self, callback: Callable[[Future[T]], S]) -> Future[S]:
        """A new future for ``callback(self)``, run once this one is done."""
        follower: Future[S] = Future()
        follower._sources = (self,)

        def run(source: Future[T]) -> None:
            try:
                result = callback(source)
            except BaseException as error:  # noqa: BLE001 - the follower carries every failure
                follower._complete(_FAILED, error)
            else:
                follower._complete(_VALUE, result)

        self.add_done_callback(run)
        return follower
