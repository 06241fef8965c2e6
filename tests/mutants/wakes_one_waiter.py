"""A plain-Python wait on an unfinished future blocks on a condition its task notifies once.

``Condition.notify()`` where ``notify_all()`` was meant: of the threads
blocked on one future, one wakes; the others block until another
notification that never comes. One waiter at a time (every example) works.

It breaks WAIT-SAME-OBJECT-1 ("Every wait on one future MUST return the same
object") and WAIT-FROM-PYTHON-1 (a future that scripted code returns while its
task runs "MUST be waitable from plain Python with fw.wait, and give the task's
value"): their probes have several threads wait on one future, and all but one
of them stay blocked.
"""

import threading
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._thread_state import local
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "WAIT-SAME-OBJECT-1",
    "WAIT-FROM-PYTHON-1",
    extras={
        "ASYNC-CONCURRENT-1": "a blocked task no longer runs the subtasks it waits on itself, "
        "and the probe's barriers need more threads than the pool has free",
        "ASYNC-STARTS-1": "a blocked task no longer runs the subtasks it waits on itself, and 20 "
        "subtasks outnumber the pool's threads",
        "FUTURE-WAKES-WAITERS-1": "the probe has 16 threads waiting on one future",
        "LIFECYCLE-CALLERS-1": "a blocked caller no longer runs its queued task itself, and six "
        "calls' tasks outnumber the pool's threads",
    },
    maybe={
        "FUTURE-DONE-FAILED-1": "its probe has 8 threads wait on each of 30 futures: a task "
        "still running when two of them arrive leaves all but one blocked, but the tasks "
        "often end before the waiters reach them",
    },
    slow=True,  # its run sleeps out many deadlines and probes' patience
)

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
