"""Waits that would close a cycle of tasks, found before they block.

Each task records the future it blocks on; a future records the task that
completes it. A wait on a future whose task is, through this chain of records,
waiting on the waiter itself can never return, so it raises instead.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .slots import Task


class DeadlockError(RuntimeError):
    """A wait that closes a cycle of tasks, each waiting on the next."""


_edges = threading.Lock()


@contextmanager
def waiting(task: Task | None, future: Any) -> Iterator[None]:
    """Record that ``task`` waits on ``future`` for the block's duration, after checking
    that the wait closes no cycle (raising :class:`DeadlockError` if it does).

    The check and the record are one step under one lock: two tasks that start
    waiting on each other at once cannot both miss the other's record.
    """
    if task is None:  # a thread that is no task cannot be waited on
        yield
        return
    with _edges:
        _check(task, future)
        task.waiting_on = future
    try:
        yield
    finally:
        with _edges:
            task.waiting_on = None


def _check(waiter: Task, future: Any) -> None:
    seen: set[int] = set()
    while future is not None and not future.done():
        owner: Task | None = getattr(future, "_owner", None)
        if owner is None:
            return
        if owner is waiter:
            raise DeadlockError(
                "deadlock: this wait closes a cycle of tasks, each waiting on the next"
            )
        if id(owner) in seen:
            return
        seen.add(id(owner))
        future = owner.waiting_on
