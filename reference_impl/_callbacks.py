"""Callbacks on futures: what ``add_done_callback``, ``then`` and ``collect_all`` build on.

A fork never pays for them: a future's ``_callbacks`` stays None until the
first callback is added, and completing a future only reads that slot.

Each callback runs exactly once and the completing side takes no lock. A
registration appends its entry to the future's list (under one lock shared by
all registrations, which only guards making the list), then looks at the state
again; the completer sets the state to done *before* it reads the list, and
pops the entries one at a time. Whoever removes an entry - the completer's
``pop`` or the registrant's ``remove``, each one atomic step - runs it.

Callbacks run on the thread that completes the future (the pool worker that ran
the task, the thread calling ``set_result``), or at once on the registering
thread if the future is done already, as torch's do; they run in registration
order. Unlike torch's, a user's callback runs in a copy of the registering
caller's ``contextvars`` context (as forked tasks do), as plain Python.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from contextvars import Context
from typing import TYPE_CHECKING, Any

from reference_impl._thread_state import local

if TYPE_CHECKING:
    from reference_impl._core import Core as Future

_log = logging.getLogger("reference_impl")
_registry_lock = threading.Lock()


class Entry:
    """One callback: ``func(future)``; with a ``chained`` future (``then``) completed by it.

    Without a ``context`` it is the runtime's own (``collect_all``, wait_all, a
    controlled run waiting on a future from outside it), which never raises.
    """

    __slots__ = ("chained", "context", "func")

    def __init__(
        self,
        func: Callable[[Any], Any],
        chained: Future[Any] | None = None,
        context: Context | None = None,
    ) -> None:
        self.func = func
        self.chained = chained
        self.context = context


def check_callable(name: str, callback: object) -> None:
    if not callable(callback):
        raise TypeError(
            f"{name}() expects a callable taking the future, got "
            f"{type(callback).__name__}: {callback!r}"
        )


def add(future: Future[Any], entry: Entry) -> None:
    """Run ``entry`` once ``future`` is done: now, if it is done already."""
    if not future.done():
        with _registry_lock:
            callbacks = future._callbacks
            if callbacks is None:
                callbacks = future._callbacks = []
            callbacks.append(entry)
        if not future.done():
            return  # its completer will see the entry
        try:
            callbacks.remove(entry)
        except ValueError:
            return  # the completer took it: it runs it
    invoke(future, entry)


def run_all(future: Future[Any]) -> None:
    """The completer's part: run every entry added so far (called once the future is done).

    An Exception from a user's callback is logged; any other BaseException
    (KeyboardInterrupt, SystemExit) is raised once every callback has run.
    """
    callbacks = future._callbacks
    assert callbacks is not None
    escaped: BaseException | None = None
    while True:
        try:
            entry = callbacks.pop(0)
        except IndexError:
            break
        try:
            invoke(future, entry)
        except BaseException as error:  # noqa: BLE001 - raised below, after the others ran
            if escaped is None:
                escaped = error
    if escaped is not None:
        raise escaped


def invoke(future: Future[Any], entry: Entry) -> None:
    """Run one callback on this thread."""
    func, chained, context = entry.func, entry.chained, entry.context
    if context is None:
        func(future)
        return
    thread = local.state
    outer_task, outer_scripted = thread.current, thread.scripted
    thread.scripted = False  # a callback is plain Python, as torch's are
    if chained is not None:
        thread.current = chained  # its waits are the chained future's, for cycle checks
    try:
        try:
            value = context.run(func, future)
        except BaseException as error:
            if chained is not None:
                chained._settle(None, error)
            elif isinstance(error, Exception):
                _log.error("a done callback of %r raised", future, exc_info=error)
            else:
                raise
        else:
            if chained is not None:
                chained._settle(value, None)  # unless set by hand already
    finally:
        thread.current, thread.scripted = outer_task, outer_scripted


def countdown(count: int, done: Callable[[], object]) -> Callable[[Any], None]:
    """A callback that calls ``done()`` on its ``count``-th call, from whichever thread.

    The tokens are popped from the end, one atomic step each: whoever pops 0
    was the last.
    """
    tokens = list(range(count))

    def one_more(_: Any) -> None:
        if tokens.pop() == 0:
            done()

    return one_more
