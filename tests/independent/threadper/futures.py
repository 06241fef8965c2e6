"""The future: a result or a failure, set once, behind a ``threading.Condition``.

A future made by ``fork`` is completed by its task's thread; one made with
``Future()`` by whoever calls ``set_result`` or ``set_exception``. Callbacks
run in the order they were added, on the thread that completes the future, or
at once on the thread that adds them to a future that is done already.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar, cast

from . import waiting

T = TypeVar("T")
S = TypeVar("S")

_log = logging.getLogger("threadper")

_PENDING, _SUCCEEDED, _FAILED = "pending", "succeeded", "failed"


class Future(Generic[T]):
    """What ``fork`` returns, and a future anyone can create and complete."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._state = _PENDING
        self._value: Any = None
        self._error: BaseException | None = None
        self._callbacks: list[Callable[[Future[T]], None]] = []
        #: the task that completes this future (set by fork), for deadlock detection
        self._owner: Any = None

    def __repr__(self) -> str:
        return f"<threadper.Future {self._state}>"

    def done(self) -> bool:
        """Whether the future holds a result or a failure."""
        with self._cond:
            return self._state != _PENDING

    def wait(self) -> T:
        """Block until done, then give the value or raise the failure."""
        waiting.block_until_done(self)
        value = self._outcome()
        waiting.note_waited(self, value)
        return value

    def value(self) -> T:
        """The value of a done future, or its failure raised; never blocks."""
        with self._cond:
            if self._state == _PENDING:
                raise RuntimeError("value() of a future that is not done")
        return self._outcome()

    def set_result(self, result: T) -> None:
        """Complete a created future with ``result``."""
        self._refuse_forked("set_result")
        self._complete(_SUCCEEDED, result, None)

    def set_exception(self, error: BaseException) -> None:
        """Complete a created future with the failure ``error`` (an exception instance)."""
        if not isinstance(error, BaseException):
            raise TypeError(
                f"set_exception needs an exception instance, got {type(error).__name__}"
            )
        self._refuse_forked("set_exception")
        self._complete(_FAILED, None, error)

    def then(self, callback: Callable[[Future[T]], S]) -> Future[S]:
        """A new future for ``callback(self)``, run once this one is done."""
        follower: Future[S] = Future()

        def run(source: Future[T]) -> None:
            try:
                result = callback(source)
            except BaseException as error:  # noqa: BLE001 - a callback's failure is the follower's
                follower._complete(_FAILED, None, error)
            else:
                follower._complete(_SUCCEEDED, result, None)

        self._add(run)
        return follower

    def add_done_callback(self, callback: Callable[[Future[T]], None]) -> None:
        """Run ``callback(self)`` once done; its errors are logged, never raised."""

        def run(source: Future[T]) -> None:
            try:
                callback(source)
            except BaseException:  # noqa: BLE001 - nothing waits for it: nowhere to raise
                _log.exception("a done callback of %r raised", source)

        self._add(run)

    def wait_until_done(self) -> None:
        """Block the calling thread until done, with nothing else (see waiting)."""
        with self._cond:
            self._cond.wait_for(lambda: self._state != _PENDING)

    def _outcome(self) -> T:
        with self._cond:
            state, value, error = self._state, self._value, self._error
        if state == _FAILED:
            assert error is not None
            raise error
        return cast(T, value)

    def _refuse_forked(self, method: str) -> None:
        if self._owner is not None:
            raise RuntimeError(f"{method} on a future that fork returned: its task completes it")

    def _add(self, run: Callable[[Future[T]], None]) -> None:
        with self._cond:
            if self._state == _PENDING:
                self._callbacks.append(run)
                return
        run(self)

    def _complete(self, state: str, value: object, error: BaseException | None) -> None:
        with self._cond:
            if self._state != _PENDING:
                raise RuntimeError("the future is done already: it is completed once")
            self._state, self._value, self._error = state, value, error
            callbacks, self._callbacks = self._callbacks, []
            self._cond.notify_all()
        for run in callbacks:
            run(self)


def wait(future: Future[T], /) -> T:
    """The value of ``future``'s task once it is done, or its failure raised."""
    if not isinstance(future, Future):
        raise TypeError(f"wait() needs a future, got {type(future).__name__}")
    return future.wait()


def complete_forked(future: Future[T], value: object, error: BaseException | None) -> None:
    """How a task completes its own future (``set_result`` refuses forked futures)."""
    future._complete(_FAILED if error is not None else _SUCCEEDED, value, error)
