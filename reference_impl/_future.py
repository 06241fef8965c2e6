"""The Future of a forked task, and the wait algorithm that never deadlocks.

A task is claimed by whoever first acquires its ``_lock`` without blocking: a
pool worker, or a ``wait`` that finds the task not yet started and so runs it
inline on its own stack (help-while-waiting). The claimer holds the lock while
the task runs, so a ``wait`` on a *running* task simply blocks on the lock.
Before blocking, the waiter walks the chain of "task X is waiting on task Y"
edges; reaching itself means a cycle, reported as :class:`DeadlockError`.
"""

from __future__ import annotations

import os
import threading
import warnings
from collections.abc import Callable
from types import TracebackType
from typing import Any, Generic, TypeVar

from reference_impl._state import ThreadContext, local

T_co = TypeVar("T_co", covariant=True)

_PENDING = 0
_RUNNING = 1
_DONE = 2
_STATE_NAMES = ("pending", "running", "done")

#: Guards the waiting-on edges while a waiter checks for a cycle and blocks.
_wait_graph_lock = threading.Lock()


def _new_wait_graph_lock() -> None:
    """In a child made by ``os.fork``: the lock may have been held by a thread that is gone."""
    global _wait_graph_lock
    _wait_graph_lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_new_wait_graph_lock)


class DeadlockError(RuntimeError):
    """A task waited, directly or through other tasks, on its own future."""


class UnretrievedExceptionWarning(RuntimeWarning):
    """A failed future was garbage-collected without its exception ever being waited."""


class _UnretrievedGuard:
    """Warns on collection unless the failure was retrieved.

    Only failed futures carry one, so successful tasks pay nothing for the check
    (the same trick as asyncio's former ``_TracebackLogger``).
    """

    __slots__ = ("exception", "retrieved", "task")

    def __init__(self, exception: BaseException, task: str) -> None:
        self.exception = exception
        self.task = task
        self.retrieved = False

    def __del__(self) -> None:
        if not self.retrieved:
            warnings.warn(
                f"forked task {self.task} raised {self.exception!r}, "
                "but no wait() ever retrieved the exception",
                UnretrievedExceptionWarning,
                stacklevel=1,
            )


def describe_callable(func: object) -> str:
    """A short human name for error messages (``<function f>``, ``<Mod object>``).

    Never raises for what the object does: it is called while a task's own
    failure is being recorded, and a proxy's ``__getattr__`` may raise anything.
    """
    try:
        name = getattr(func, "__qualname__", None)
    except Exception:  # noqa: BLE001 - a broken __getattr__ must not replace the task's error
        name = None
    if isinstance(name, str):
        return f"<function {name}>"
    return f"<{type(func).__qualname__} object>"


class Future(Generic[T_co]):
    """The result of :func:`reference_impl.fork`: a value available through ``wait``.

    ``Future[int]`` is usable in annotations. Create futures with ``fork``, never
    directly.
    """

    __slots__ = (
        "__weakref__",
        "_args",
        "_exception",
        "_func",
        "_guard",
        "_kwargs",
        "_lock",
        "_state",
        "_traceback",
        "_value",
        "_waiting_on",
    )

    def __init__(
        self,
        func: Callable[..., T_co],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        run_now: bool,  # positional at the call sites: a keyword costs more than the rest
    ) -> None:
        self._state = _PENDING
        self._value: Any = None
        self._exception: BaseException | None = None
        self._traceback: TracebackType | None = None
        self._guard: _UnretrievedGuard | None = None
        self._func: Callable[..., Any] | None = func
        self._args = args
        self._kwargs = kwargs
        self._waiting_on: Future[object] | None = None
        if run_now:
            # Synchronous fork: no other thread can ever see this task pending.
            self._lock: threading.Lock | None = None
            try:
                self._execute(local.context)
            except BaseException as exc:
                if self._state == _DONE:
                    raise  # raised after the outcome was kept: not the task's
                # _execute could not even be entered (stack limit): that is the
                # task's outcome, for wait (stores only, as in _run_if_pending)
                self._exception, self._traceback = exc, exc.__traceback__
                self._func, self._args, self._kwargs = None, (), {}
                self._state = _DONE
        else:
            self._lock = threading.Lock()

    # -- running -------------------------------------------------------------

    def _execute(self, thread: ThreadContext) -> None:
        """Run the task on this thread, whose context is ``thread``; the caller has claimed it.

        Everything after the claim sits inside the ``try``: whatever is raised,
        even by this bookkeeping (a RecursionError at the stack's limit, an
        asynchronous exception), the future ends done with a value or an
        exception, never "running" with nobody running it.
        """
        func = self._func
        try:
            self._state = _RUNNING
            outer_task, outer_scripted = thread.current, thread.scripted
            try:
                thread.current = self
                thread.scripted = self._lock is not None
                self._value = func(*self._args, **self._kwargs)  # type: ignore[misc]
            finally:
                thread.current = outer_task
                thread.scripted = outer_scripted
        except BaseException as exc:  # noqa: BLE001 - every failure belongs to wait()
            self._exception = exc
            self._traceback = exc.__traceback__
            # Only the GC warning can be lost below; the outcome is already kept.
            try:  # noqa: SIM105 - suppress() would be two more calls at the stack limit
                self._guard = _UnretrievedGuard(exc, describe_callable(func))
            except BaseException:  # noqa: BLE001, S110
                pass
        finally:
            # Drop references early: a done future keeps only its outcome.
            self._func, self._args, self._kwargs = None, (), {}
            self._state = _DONE

    def _run_if_pending(self) -> None:
        """Pool entry point: run the task unless someone else already claimed it."""
        lock = self._lock
        if lock is not None and lock.acquire(False):
            try:
                if self._state == _PENDING:
                    self._execute(local.context)
            except BaseException as exc:
                if self._state == _DONE:
                    raise  # raised after the outcome was kept: not the task's
                # _execute could not even be entered (stack limit), and nobody else
                # will run the task: that is its outcome. Stores only: a call could
                # fail the same way here.
                self._exception, self._traceback = exc, exc.__traceback__
                self._func, self._args, self._kwargs = None, (), {}
                self._state = _DONE
            finally:
                lock.release()

    def _fail_if_pending(self, exception: BaseException) -> None:
        """Complete with ``exception`` a task that will never run (its run stopped first)."""
        lock = self._lock
        if lock is not None and lock.acquire(False):
            try:
                if self._state == _PENDING:
                    self._exception, self._traceback = exception, exception.__traceback__
                    self._func, self._args, self._kwargs = None, (), {}
                    self._state = _DONE
            finally:
                lock.release()

    # -- waiting ---------------------------------------------------------------

    def _wait(self, context: ThreadContext | None = None) -> T_co:
        """The outcome, once done; ``context``, the calling thread's, saves looking it up."""
        if self._state != _DONE:
            self._complete(context)
        if self._exception is None:  # the common case, without a call
            return self._value  # type: ignore[no-any-return]
        return self._outcome()

    def _complete(self, context: ThreadContext | None = None) -> None:
        """Return once the task is done, running it here if nobody has started it."""
        if self._state != _DONE:
            lock = self._lock
            assert lock is not None
            if context is None:
                context = local.context
            current = context.current
            if lock.acquire(False):  # positional: a keyword costs as much as the call
                try:
                    if self._state == _PENDING:
                        # Not started: run it here rather than block a thread.
                        if current is not None:
                            current._waiting_on = self
                        try:
                            self._execute(context)
                        finally:
                            if current is not None:
                                current._waiting_on = None
                finally:
                    lock.release()
            else:
                self._block_until_done(lock, current)

    def _block_until_done(self, lock: threading.Lock, current: Future[object] | None) -> None:
        with _wait_graph_lock:
            node: Future[object] | None = self
            while node is not None:
                if node is current:
                    raise DeadlockError(
                        f"deadlock: task {describe_callable(current._func)} waits on a future "
                        "that (directly or through other tasks) waits on it"
                    )
                node = node._waiting_on
            if current is not None:
                current._waiting_on = self
        try:
            lock.acquire()
            lock.release()
        finally:
            if current is not None:
                current._waiting_on = None

    def _outcome(self) -> T_co:
        exception = self._exception
        if exception is None:
            return self._value  # type: ignore[no-any-return]
        if self._guard is not None:
            self._guard.retrieved = True
        raise exception.with_traceback(self._traceback)

    # -- public ----------------------------------------------------------------

    def done(self) -> bool:
        """True once the task has finished, successfully or not."""
        return self._state == _DONE

    def wait(self) -> T_co:
        """Same as ``reference_impl.wait(self)``."""
        return self._wait()

    def __repr__(self) -> str:
        text = _STATE_NAMES[self._state]
        if self._state == _DONE:
            if self._exception is not None:
                text += f" exception={self._exception!r}"
            else:
                text += f" value={self._value!r}"
        return f"<Future {text}>"
