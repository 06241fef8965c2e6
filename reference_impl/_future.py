"""The public Future: what ``fork`` returns and ``Future()`` makes (``torch.futures.Future``).

The state and the machinery (running a task, completing a promise, waiting
without deadlocks) are in ``_core``; this module adds the API and the two ways
a task's future is made: queued (``new_task``) or run on the spot (``run_now``).
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import copy_context
from typing import Any, TypeVar

from reference_impl import _callbacks
from reference_impl._core import (
    _DONE,
    _PENDING,
    _STATE_NAMES,
    MAX_NESTED,
    PLAIN_TASK,
    PROMISE,
    SCRIPTED_TASK,
    Core,
    T_co,
    _new,
)
from reference_impl._thread_state import local

__all__ = ["Future", "new_task", "run_now"]

S = TypeVar("S")


class Future(Core[T_co]):
    """A value available later: a forked task's result, or one set by ``set_result``.

    ``fork`` returns one; ``Future()`` makes an incomplete one, completed by
    ``set_result`` or ``set_exception``, as ``torch.futures.Future()``.
    ``Future[int]`` is usable in annotations.
    """

    __slots__ = ("__weakref__",)

    def __init__(self) -> None:
        self._kind = PROMISE
        self._state = _PENDING
        self._func = None
        self._claim = None
        self._args = ()
        self._kwargs = {}
        self._context = None
        self._exception = None
        self._callbacks = None
        self._waiting_on = None
        self._waker = None

    # -- public ----------------------------------------------------------------

    def _set(self, value: Any, exception: BaseException | None) -> None:
        if self._kind is not PROMISE and self._state != _DONE:
            raise RuntimeError(
                "this Future belongs to a forked task, which completes it: "
                "set_result and set_exception complete Futures made by Future()"
            )
        if not self._settle(value, exception):
            raise RuntimeError(
                "Attempting to mark a completed Future as complete again: "
                "a Future can be completed only once"
            )

    def wait(self) -> T_co:
        """Same as ``fw.wait(self)``: block until done; the value, or raise the exception.

        Every call gives the same object (or raises the same exception, with the
        task's traceback). A task that is queued but not started is run by the
        waiting thread itself, so nested forks cannot exhaust the pool.

        Raises:
            DeadlockError: the calling task would wait on itself, directly or in a cycle.
        """
        thread = local.state
        interceptor = thread.scope or thread.run  # a trace being recorded, or a controlled run
        if interceptor is not None:
            return interceptor.wait(self)  # type: ignore[no-any-return]
        if self._state != _DONE:
            self._wait_until_done(thread)
        if self._exception is None:  # the common case, without a call
            return self._value  # type: ignore[no-any-return]
        return self._outcome()

    def value(self) -> T_co:
        """The value of a done future, or raise its exception.

        Raises:
            RuntimeError: it is not done yet (torch raises RuntimeError too).
        """
        if self._state != _DONE:
            raise RuntimeError("Future.value() needs a done Future; this one is not done yet")
        return self._outcome()

    def set_result(self, result: T_co) -> None:  # type: ignore[misc]
        """Complete a ``Future()`` with ``result``, waking its waiters and running its callbacks.

        Raises:
            RuntimeError: it is done already, or it is a forked task's future.
        """
        self._set(result, None)

    def set_exception(self, exception: BaseException) -> None:
        """Complete a ``Future()`` with ``exception``: wait and value raise it.

        Raises:
            TypeError: ``exception`` is not an exception instance.
            RuntimeError: it is done already, or it is a forked task's future.
        """
        if not isinstance(exception, BaseException):
            raise TypeError(
                f"set_exception() expects an exception instance, got "
                f"{type(exception).__name__}: {exception!r}"
            )
        self._set(None, exception)

    def then(self, callback: Callable[[Future[T_co]], S]) -> Future[S]:
        """A new Future, completed with ``callback(self)`` once this one is done.

        With its return value, or with the exception it raised. On a done
        future the callback runs at once, here; otherwise on the thread that
        completes this one. It runs in a copy of this caller's context.
        """
        _callbacks.check_callable("then", callback)
        chained: Future[S] = Future()
        chained._args = (self,)  # its source: waiting on it helps this one along
        _callbacks.add(self, _callbacks.Entry(callback, chained, copy_context()))
        return chained

    def add_done_callback(self, callback: Callable[[Future[T_co]], object]) -> None:
        """Call ``callback(self)`` once done (at once if done); an Exception it raises is logged."""
        _callbacks.check_callable("add_done_callback", callback)
        _callbacks.add(self, _callbacks.Entry(callback, None, copy_context()))

    def __repr__(self) -> str:
        text = _STATE_NAMES[self._state]
        if self._state == _DONE:
            if self._exception is not None:
                text += f" exception={self._exception!r}"
            else:
                text += f" value={self._value!r}"
        return f"<Future {text}>"


def new_task(
    func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> Future[Any]:
    """A scripted task not started, in a copy of the caller's context.

    The pool, a controlled run or a wait runs it: whoever claims it first.
    """
    future: Future[Any] = _new(Future)
    future._kind = SCRIPTED_TASK
    future._func = func
    future._args = args
    future._kwargs = kwargs
    future._context = copy_context()
    future._claim = [None]  # one token: whoever pops it runs the task
    future._state = _PENDING
    future._exception = None
    future._callbacks = None
    future._waiting_on = None
    future._waker = None
    return future


def run_now(func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Future[Any]:
    """Run ``func`` here and now, as plain Python, in a copy of the caller's context.

    A plain-Python fork (and a traced one): the future is done when returned,
    with the value or the exception.
    """
    future = new_task(func, args, kwargs)
    future._kind = PLAIN_TASK
    future._claim = None  # nobody else can see it: nothing to claim
    thread = local.state
    if thread.depth >= MAX_NESTED and thread.scope is None:
        helper = future.run_elsewhere()  # on an empty stack; this fork still returns it done
        if helper is not None:
            helper.join()
            return future
    future._run_if_pending(thread)
    return future
