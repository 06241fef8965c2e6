"""Each task scripted code forks runs on a thread of its own; a wait never runs it itself.

The reference runs tasks on a pool, and a wait runs a task nobody has started on
the waiting thread. Here each fork starts a new thread, the only one that may
run its task, and a waiter blocks until that thread is done: the other way of
meeting NEST-LEVELS-1 ("lending the waiting thread out" rather than running the
task on it), at a thread per task.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._future import new_task
from reference_impl._state import local
from tests.latitudes._variant import Latitude, variant

LATITUDE = Latitude(
    where="lifecycle.rst, context.rst",
    granted="How many threads run tasks, and when they start, is not specified (lifecycle.rst); "
    "The rules below hold wherever the task runs: on the thread that forks it ..., on a worker "
    "thread, or on a thread that waits on it and runs it (context.rst)",
    slow="ERR-NESTED-1's tree of 19,999 tasks starts as many threads (20 s beside CPU hogs)",
    shows="""
import threading

@fw.ignore
def thread_name() -> str:
    return threading.current_thread().name

def task() -> str:
    return thread_name()

@fw.script
def run() -> list[str]:
    futures = [fw.fork(task) for _ in range(8)]
    return [fw.wait(fut) for fut in futures]

print(sorted(set(run())))
""",
)


class OwnClaim(list[None]):
    """A task's claim token that only the thread made for the task can take."""

    owner: int | None = None

    def pop(self, index: Any = -1) -> None:
        if threading.get_ident() != self.owner:
            raise IndexError("claimed by the task's own thread")  # as if taken already
        return super().pop(index)


def _run(future: Any, claim: OwnClaim) -> None:
    claim.owner = threading.get_ident()
    future._run_if_pending()


def fork(func: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    """The reference's fork; scripted code's task started on a new thread of its own."""
    context = local.context
    if not context.scripted or context.scope is not None or context.run is not None:
        return ref.fork(func, *args, **kwargs)
    if not callable(func):
        raise TypeError(f"fork() expects a callable, got {type(func).__name__}")
    future = new_task(func, args, kwargs)
    claim = future._claim = OwnClaim([None])
    threading.Thread(target=_run, args=(future, claim), name="forkwait-task").start()
    return future


def adapter() -> Adapter:
    return variant("tasks-on-threads-of-their-own", fork=fork)
