"""Helpers that several probes share, written once where ruff and mypy read them.

A probe (``docs/probes/<page>/<ID>.rst``) imports what it needs from here and
says in its lead-in what the helper does, so its HTML still reads on its own.
Only what is not the rule under test belongs here: how threads are made to race
and how long a probe waits for a task, never a call of ``fw``. It runs where
the probes run (the executor, ``sphinx-build -b doctest``), so it imports
nothing of the suite.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Collection, Iterable
from types import FrameType
from typing import Any, Protocol

#: The spec's *start bound* (lifecycle.rst): where a rule says that a task starts, or that
#: tasks run at the same time, without saying when, within this many seconds. A probe that
#: waits for a task to start or for tasks to meet waits this long and no less.
START_BOUND = 10.0


def start_interleaved(
    threads: Iterable[threading.Thread], events: Collection[str] = ("call",)
) -> None:
    """Start ``threads`` so that each gives the interpreter to another at every Python call.

    A profile hook (:func:`threading.setprofile`, set only while they start, so
    threads started later do not get it) sleeps for 0 s at every call, so the
    threads' steps interleave finely: a race that needs two of them inside one
    method at once is then likely in every run, not rare. ``events`` names the
    profile events that switch: add ``"c_return"`` to switch after every return
    from a builtin too, which splits a check and the step after it even where
    no Python call stands between them.
    """

    def switch(frame: FrameType, event: str, arg: Any) -> None:
        if event in events:
            time.sleep(0)

    threading.setprofile(switch)
    try:
        for thread in threads:
            thread.start()
    finally:
        threading.setprofile(None)


class _Completing(Protocol):
    def done(self) -> bool: ...


class Patience:
    """How long a probe lets a task end before it looks at the task's future.

    Each look waits up to ``seconds`` for the future to be done; once one look
    has run out of time, no later look waits at all, so an implementation that
    never ends a task costs the probe one wait, not one per future.
    """

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def settle(self, future: _Completing) -> None:
        """Return once ``future`` is done, or once the patience left has run out."""
        deadline = time.monotonic() + self.seconds
        while not future.done():
            if time.monotonic() > deadline:
                self.seconds = 0.0
                return
            time.sleep(0.01)


__all__ = ["START_BOUND", "Patience", "start_interleaved"]
