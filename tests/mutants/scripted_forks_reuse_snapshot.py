"""Scripted code snapshots its context once, at its first fork, and reuses it for later forks.

Copying the caller's context at every fork looked costly, so each scripted
call (and each task) copies it at its first fork and gives every later task
a copy of that snapshot: siblings stay isolated, but a value the forking
code sets between two forks never reaches the second task.

It breaks CONTEXT-INHERITED-1 (a task "sees every context variable with the
value that code saw when it called fork") and CONTEXT-SNAPSHOT-1 ("The copy a
task runs in MUST be taken when fork is called").
"""

import contextvars
import threading
from collections.abc import Callable
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._thread_state import local
from tests.mutants._base import TopLevelScript, mutant
from tests.mutants._contract import contract

CONTRACT = contract("CONTEXT-INHERITED-1", "CONTEXT-SNAPSHOT-1")

_memo: dict[object, contextvars.Context] = {}
_calls = threading.local()


def _run_in(context: contextvars.Context, func: Any, /, *args: Any, **kwargs: Any) -> Any:
    return context.run(func, *args, **kwargs)


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if not local.state.scripted or local.state.scope is not None or not callable(func):
        return ref.fork(func, *args, **kwargs)
    key = local.state.current if local.state.current is not None else getattr(_calls, "call", None)
    snapshot = _memo.setdefault(key, contextvars.copy_context())  # the mutation: taken once
    return ref.fork(_run_in, snapshot.copy(), func, *args, **kwargs)


def _new_snapshot(call: Callable[[], Any]) -> Any:
    _calls.call = object()  # a new top-level call: a new snapshot
    return call()


def adapter() -> Adapter:
    return mutant("scripted-forks-reuse-snapshot", fork=fork, script=TopLevelScript(_new_snapshot))
