"""Per-thread execution state shared by fork, wait, script, trace and schedules.

A thread-local (not a ContextVar) because these are properties of the
*thread*: a worker thread runs tasks, and ``script`` marks the calling thread as
being inside scripted code for the duration of the call.

All of it lives in one plain object per thread, ``local.context``: fork and wait
read several of these facts on every call, and an attribute of a
``threading.local`` costs about as much as a function call, where an attribute
of a plain object with slots costs a fraction of that.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from reference_impl._core import Core
    from reference_impl._rooms import Room, RunRoom


class ThreadContext:
    """One thread's state; a new thread starts with the defaults."""

    __slots__ = ("current", "depth", "run", "scope", "scripted")

    def __init__(self) -> None:
        #: True while this thread executes scripted code (forks are asynchronous).
        self.scripted = False
        #: The task this thread is executing right now, if any (for cycle checks).
        self.current: Core[Any] | None = None
        #: Tasks running nested on this thread's stack right now (see ``_core.MAX_NESTED``).
        self.depth = 0
        #: The trace being recorded on this thread (``tracing.scope``), a room (``_rooms``).
        self.scope: Room | None = None
        #: The controlled run this thread's scripted code belongs to (``schedules``), a room.
        self.run: RunRoom | None = None


class _Local(threading.local):
    def __init__(self) -> None:  # runs once in each thread that looks
        self.context = ThreadContext()


local = _Local()


class _StateView:
    """``state.scripted`` and ``state.current``: the calling thread's, read or written."""

    @property
    def scripted(self) -> bool:
        return local.context.scripted

    @scripted.setter
    def scripted(self, value: bool) -> None:
        local.context.scripted = value

    @property
    def current(self) -> Core[Any] | None:
        return local.context.current

    @current.setter
    def current(self, value: Core[Any] | None) -> None:
        local.context.current = value


state = _StateView()
