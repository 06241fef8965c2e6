"""Only the top-level scripted call's forks are asynchronous: a fork made by a task runs at once.

A common way to keep nested forks from exhausting a pool: a task already on a
worker runs the tasks it forks inside ``fork``, as plain Python would. The
top-level call's forks still run in parallel, so every example passes; below
it, fork returns only once its task has finished, and sibling subtasks never
run at the same time.

It breaks ASYNC-RETURNS-EARLY-1 ("In scripted code, fork MUST return before the
forked task has finished") and ASYNC-CONCURRENT-1 ("In scripted code at least
two forked tasks MUST be able to run at the same time").
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._future import run_now
from reference_impl._thread_state import local
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("ASYNC-RETURNS-EARLY-1", "ASYNC-CONCURRENT-1")


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    thread = local.state
    if thread.current is not None and thread.scope is None and thread.run is None:
        if not callable(func):
            raise TypeError(f"fork() needs a callable, got {type(func).__name__}")
        return run_now(func, args, kwargs)  # on a worker already: run it here
    return ref.fork(func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("runs-nested-forks-inline", fork=fork)
