"""A fork made by a running task calls the function directly (a caller-runs policy).

Forks made by the caller are tasks as the reference makes them; a fork made
inside a task, where the worker is busy anyway, calls the function on the
spot and lets its exception out of ``fork`` (not while tracing).

It breaks ERR-AT-WAIT-1 ("an exception raised by a forked task MUST NOT be
raised by fork, also when fork runs the task (which it may)") and
ERR-SCRIPT-AT-WAIT-1 ("In scripted code, a task's exception MUST NOT be raised
by fork").
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._thread_state import local
from tests.mutants import _reasons as reasons
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "ERR-AT-WAIT-1",
    "ERR-SCRIPT-AT-WAIT-1",
    extras={
        "ASYNC-CONCURRENT-1": "the probe's tasks fork subtasks that must run beside them",
        "ASYNC-RETURNS-EARLY-1": "the probe's tasks fork subtasks that must not end first",
        "CONTEXT-CALLS-1": reasons.TASK_FORKS_IN_ITS_CONTEXT,
        "CONTEXT-ISOLATED-1": reasons.TASK_FORKS_IN_ITS_CONTEXT,
        "DET-PURE-1": reasons.FAILS_AT_FORK,
        "NEST-ANY-POOL-1": reasons.ON_THE_STACK,
        "NEST-LEVELS-1": reasons.ON_THE_STACK,
        "NEST-UNWAITED-1": "a task's failing fork it never waits on raises at the fork",
    },
)


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if local.state.current is None or local.state.scope is not None or not callable(func):
        return ref.fork(func, *args, **kwargs)
    value = func(*args, **kwargs)  # the mutation: an exception here leaves fork
    done: Any = ref.Future()
    done.set_result(value)
    return done


def adapter() -> Adapter:
    return mutant("forks-in-tasks-run-directly", fork=fork)
