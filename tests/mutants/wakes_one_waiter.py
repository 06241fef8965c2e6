"""A plain-Python wait on an unfinished future blocks on a condition its task notifies once.

``Condition.notify()`` where ``notify_all()`` was meant: of the threads
blocked on one future, one wakes; the others block until another
notification that never comes. One waiter at a time (every example) works.
"""

import threading
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._thread_state import local
from tests.mutants._base import mutant

_lock = threading.Lock()
_conditions: dict[int, threading.Condition] = {}


def _notify(future: Any) -> None:
    with _lock:
        condition = _conditions.pop(id(future), None)
        if condition is not None:
            condition.notify()  # the mutation: one waiter wakes


def wait(future: Any, /) -> Any:
    if isinstance(future, ref.Future) and local.state.current is None and not future.done():
        with _lock:
            condition = _conditions.get(id(future))
            if condition is None:
                condition = _conditions[id(future)] = threading.Condition(_lock)
                future.add_done_callback(_notify)
            if not future.done():
                condition.wait()
    return ref.wait(future)


def adapter() -> Adapter:
    return mutant("wakes-one-waiter", wait=wait)
