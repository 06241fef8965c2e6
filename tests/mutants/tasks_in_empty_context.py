"""Tasks run in an empty context: a task sees no context variable of the code that forked it."""

import contextvars
import functools
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if not callable(func):
        return ref.fork(func, *args, **kwargs)

    @functools.wraps(func)
    def in_empty_context(*args: Any, **kwargs: Any) -> Any:
        return contextvars.Context().run(func, *args, **kwargs)

    return ref.fork(in_empty_context, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("tasks-in-empty-context", fork=fork)
