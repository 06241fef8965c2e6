"""Which task the current thread runs, and the slots that bound how many run at once.

Every task has a thread of its own, so the number of threads is the number of
tasks alive; what is bounded is how many of them compute at the same time. A
task holds a slot while it runs and gives it back while it blocks in a wait,
so that the tasks it waits on (and their subtasks) can always get one.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

#: how many tasks compute at once; waits give their slot back, so any depth fits
RUNNING_LIMIT = 32

_local = threading.local()


class _NewestFirstSemaphore:
    """A counting semaphore that hands a freed slot to the thread that asked last.

    Newest first runs a tree of tasks depth first: the subtask a task has just
    forked runs when the task waits on it, so the threads alive at once stay
    near the tree's depth times the slots, instead of the whole tree's breadth
    (oldest first, as ``threading.Semaphore`` wakes, starts every thread of a
    level before any of the next one ends). Each waiter blocks on a lock of its
    own, so a release wakes one thread, not all of them.
    """

    def __init__(self, slots: int) -> None:
        self._lock = threading.Lock()
        self._free = slots
        self._waiters: list[threading.Lock] = []

    def acquire(self) -> None:
        with self._lock:
            if self._free > 0:
                self._free -= 1
                return
            gate = threading.Lock()
            gate.acquire()
            self._waiters.append(gate)
        gate.acquire()  # released by the release() that hands this thread its slot

    def release(self) -> None:
        with self._lock:
            if self._waiters:
                self._waiters.pop().release()
            else:
                self._free += 1


_slots = _NewestFirstSemaphore(RUNNING_LIMIT)


@dataclass(eq=False)
class Task:
    """A forked call, as the thread that runs it knows it."""

    #: the future this task completes
    future: Any
    #: the future this task is blocked on, for deadlock detection
    waiting_on: Any = None
    #: whether the task holds a running slot now
    holds_slot: bool = field(default=False)


def current_task() -> Task | None:
    """The task the calling thread runs, or None outside tasks."""
    task: Task | None = getattr(_local, "task", None)
    return task


def set_current_task(task: Task | None) -> None:
    _local.task = task


def take_slot(task: Task) -> None:
    _slots.acquire()
    task.holds_slot = True


def give_slot(task: Task) -> None:
    if task.holds_slot:
        task.holds_slot = False
        _slots.release()
