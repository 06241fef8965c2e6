"""Tasks run in an empty context: a task sees no context variable of the code that forked it.

Tasks run as a new ``threading.Thread`` does before Python 3.14, or as a pool
that does not copy its callers' contexts runs them. It breaks
CONTEXT-INHERITED-1: "A task MUST run in a copy of the context of the code that
forked it".
"""

import contextvars
import functools
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "CONTEXT-INHERITED-1",
    extras={
        "CONTEXT-CALLS-1": "the probe's child reads its forker's value",
        "CONTEXT-ISOLATED-1": "a later task reads the caller's value",
        "CONTEXT-SNAPSHOT-1": "the task reads the value the caller had at the fork",
    },
)


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if not callable(func):
        return ref.fork(func, *args, **kwargs)

    @functools.wraps(func)
    def in_empty_context(*args: Any, **kwargs: Any) -> Any:
        return contextvars.Context().run(func, *args, **kwargs)

    return ref.fork(in_empty_context, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("tasks-in-empty-context", fork=fork)
