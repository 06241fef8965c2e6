"""A fork made by a running task calls the function directly (a caller-runs policy).

Forks made by the caller are tasks as the reference makes them; a fork made
inside a task, where the worker is busy anyway, calls the function on the
spot and lets its exception out of ``fork`` (not while tracing).
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._thread_state import local
from tests.mutants._base import mutant


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if local.state.current is None or local.state.scope is not None or not callable(func):
        return ref.fork(func, *args, **kwargs)
    value = func(*args, **kwargs)  # the mutation: an exception here leaves fork
    done: Any = ref.Future()
    done.set_result(value)
    return done


def adapter() -> Adapter:
    return mutant("forks-in-tasks-run-directly", fork=fork)
