"""Per-thread execution state shared by fork, wait and script.

A thread-local (not a ContextVar) because both facts are properties of the
*thread*: a worker thread runs tasks, and ``script`` marks the calling thread as
being inside scripted code for the duration of the call.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from reference_impl._future import Future


class _ThreadState(threading.local):
    """Class attributes are the defaults every new thread starts with."""

    #: True while this thread executes scripted code (forks are asynchronous).
    scripted: bool = False
    #: The task this thread is executing right now, if any (for cycle checks).
    current: Future[object] | None = None


state = _ThreadState()
