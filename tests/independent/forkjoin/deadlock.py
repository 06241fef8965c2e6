"""The wait-for graph of tasks: which task each blocked task waits on.

A task runs on one thread and waits on one future at a time, so the graph is a
set of chains; a wait that would close a chain into a cycle can never return,
and raises instead. The check follows the chain all the way round, so cycles of
any length are found by the wait that closes them.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager


class DeadlockError(RuntimeError):
    """A task waited, directly or through other tasks, on its own future."""


_lock = threading.Lock()
#: task id -> the id of the task it is blocked on
_waits_on: dict[int, int] = {}


@contextmanager
def waiting(waiter: int | None, target: int | None) -> Iterator[None]:
    """Record that task ``waiter`` blocks on task ``target`` for the ``with`` body;
    raise DeadlockError if that closes a cycle. Either being None (not a task) records
    nothing."""
    if waiter is None or target is None:
        yield
        return
    with _lock:
        step: int | None = target
        length = 1
        while step is not None:
            if step == waiter:
                raise DeadlockError(
                    f"deadlock: a task waits on its own future through a cycle of {length} task(s)"
                )
            step = _waits_on.get(step)
            length += 1
        _waits_on[waiter] = target
    try:
        yield
    finally:
        with _lock:
            _waits_on.pop(waiter, None)
