"""Which task waits on which: a wait that would close a cycle raises (WAIT-SELF-1).

Dask itself keeps no such record: a task that waits on its own future, or two
tasks that wait on each other, block forever. Every wait made inside a task of
this process notes ``waiter key -> awaited key`` here for as long as it blocks;
before blocking it follows the chain from the awaited task, and if the chain
leads back to the waiter, the wait raises :class:`reference_impl.DeadlockError`
instead. The check and the note are one step under a lock, so of two tasks that
start waiting on each other at once exactly one sees the cycle.

Only waits in this process are seen: on the in-process cluster (the default)
that is every task; on a cluster in other processes, only a task waiting on
itself.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from typing import Any

from reference_impl import DeadlockError

_lock = threading.Lock()
_waiting_on: dict[Hashable, Hashable] = {}


@contextmanager
def recorded(awaited: Any) -> Iterator[None]:
    """Note, for the block's duration, that the running task waits on ``awaited``.

    ``awaited`` is a dask future. Outside a task nothing is noted (nobody can
    wait on the caller). Raises DeadlockError on entry, before any blocking, if
    the wait would close a cycle: the error of this wait, not of the future.
    """
    from distributed import get_worker  # noqa: PLC0415

    try:
        waiter: Hashable = get_worker().get_current_task()
    except ValueError:  # not in a task
        yield
        return
    target: Hashable = awaited.key
    with _lock:
        node: Hashable | None = target
        while node is not None:
            if node == waiter:
                how = "its own future" if target == waiter else f"its own future through {target}"
                raise DeadlockError(f"deadlock: task {waiter} waits on {how}")
            node = _waiting_on.get(node)
        _waiting_on[waiter] = target
    try:
        yield
    finally:
        with _lock:
            del _waiting_on[waiter]
