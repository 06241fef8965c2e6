"""Each thread's execution state, shared by fork, wait, script, trace and schedules.

A thread-local (not a ContextVar) because these are properties of the
*thread*: a worker thread runs tasks, and ``script`` marks the calling thread as
being inside scripted code for the duration of the call.

All of it lives in one plain object per thread, ``local.state``: fork and wait
read several of these facts on every call, and an attribute of a
``threading.local`` costs about as much as a function call, where an attribute
of a plain object with slots costs a fraction of that.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from reference_impl._core import Core
    from reference_impl._interceptors import Interceptor, RunInterceptor


class ThreadState:
    """One thread's state; a new thread starts with the defaults."""

    __slots__ = ("current", "depth", "run", "scope", "scripted")

    def __init__(self) -> None:
        #: True while this thread executes scripted code (forks are asynchronous).
        self.scripted = False
        #: The task this thread is executing right now, if any (for cycle checks).
        self.current: Core[Any] | None = None
        #: Tasks running nested on this thread's stack right now (see ``_core.MAX_NESTED``).
        self.depth = 0
        #: The trace being recorded on this thread (``tracing.scope``): an interceptor.
        self.scope: Interceptor | None = None
        #: The controlled run this thread's scripted code belongs to (``schedules``).
        self.run: RunInterceptor | None = None


class _Local(threading.local):
    def __init__(self) -> None:  # runs once in each thread that looks
        self.state = ThreadState()


#: ``local.state``: the calling thread's :class:`ThreadState` (a greenlet carrier of a
#: controlled run has its own, installed while it runs: see ``schedules.carriers``).
local = _Local()
