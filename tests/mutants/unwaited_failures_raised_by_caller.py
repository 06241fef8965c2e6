"""A top-level scripted call raises the failure of a task it forked and never waited on.

On return, a compiled function looks at the futures it forked itself: one
that has failed, whose exception nobody retrieved and that it does not return,
has its exception raised by the call, so that no error goes unnoticed (the
futures it returns are the caller's business). A call that waits on every
fork, or whose unwaited forks succeed or are still running, is unaffected.
Breaks NEST-UNWAITED-1: returning without waiting on a fork "MUST NOT be an
error, and MUST NOT change what the code returns".
"""

import threading
from collections.abc import Callable
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._thread_state import local
from tests.mutants._base import TopLevelScript, mutant
from tests.mutants._contract import contract

CONTRACT = contract("NEST-UNWAITED-1")

_calls = threading.local()


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    future = ref.fork(func, *args, **kwargs)
    forks: list[Any] | None = getattr(_calls, "forks", None)
    if forks is not None and local.state.current is None and local.state.scripted:
        forks.append(future)
    return future


def _returned(result: Any) -> list[Any]:
    if isinstance(result, tuple | list):
        return [item for value in result for item in _returned(value)]
    if isinstance(result, dict):
        return [item for value in result.values() for item in _returned(value)]
    return [result]


def around(call: Callable[[], Any]) -> Any:
    outer = getattr(_calls, "forks", None)
    forks: list[Any] = []
    _calls.forks = forks
    try:
        result = call()
    finally:
        _calls.forks = outer
    returned = {id(value) for value in _returned(result)}
    for future in forks:  # the mutation: an unretrieved failure is raised here
        guard = future._guard if future.done() and future._exception is not None else None
        if guard is not None and not guard.retrieved and id(future) not in returned:
            future._outcome()
    return result


def adapter() -> Adapter:
    return mutant("unwaited-failures-raised-by-caller", fork=fork, script=TopLevelScript(around))
