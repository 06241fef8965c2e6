"""Tasks see their caller's context as it is now, not as it was at the fork.

A runtime that shares the caller's context variables with its tasks by
reference behaves so. Here: whenever code that is not a task returns from an
``fw.ignore`` helper, its context is published; a task forked by that thread
takes the latest published values before each ``fw.ignore`` helper it calls.

It breaks CONTEXT-SNAPSHOT-1: "The copy a task runs in MUST be taken when fork
is called: what the forking code sets afterwards, while the task runs, the task
does not see".
"""

import contextvars
import functools
import threading
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._thread_state import local
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "CONTEXT-SNAPSHOT-1",
    extras={
        "CONTEXT-INHERITED-1": "each level of the probe's chain changes the value after forking",
        "CONTEXT-ISOLATED-1": "the probe's task changes its value after forking its child",
    },
)

_published: dict[int, contextvars.Context] = {}
_forker = threading.local()


def ignore(func: Any) -> Any:
    @functools.wraps(func)
    def call(*args: Any, **kwargs: Any) -> Any:
        forker = getattr(_forker, "ident", None)
        if local.state.current is not None and forker in _published:
            for var, value in _published[forker].items():
                var.set(value)  # the mutation: the caller's later changes reach the task
        result = func(*args, **kwargs)
        if local.state.current is None:
            _published[threading.get_ident()] = contextvars.copy_context()
        return result

    return ref.ignore(call)


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if not callable(func) or local.state.current is not None:
        return ref.fork(func, *args, **kwargs)
    forker = threading.get_ident()

    @functools.wraps(func)
    def run(*args: Any, **kwargs: Any) -> Any:
        outer = getattr(_forker, "ident", None)
        _forker.ident = forker
        try:
            return func(*args, **kwargs)
        finally:
            _forker.ident = outer

    return ref.fork(run, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("tasks-see-later-caller-changes", fork=fork, ignore=ignore)
