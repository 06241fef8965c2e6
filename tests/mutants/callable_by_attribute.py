"""fork tells callables by a ``__call__`` attribute, not by ``callable()``.

``hasattr(func, "__call__")`` is true for an object given a ``__call__`` of
its own, which a call ignores (Python looks it up on the type): fork accepts
it, and the task fails later, at ``wait``, instead of ``fork`` raising.

It breaks FORK-NOT-CALLABLE-1: "fork of something that is not callable MUST
raise TypeError from fork itself, not later from wait".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("FORK-NOT-CALLABLE-1")


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if not hasattr(func, "__call__"):  # the mutation: callable(func) is what counts  # noqa: B004
        raise TypeError(f"fork() expects a callable, got {type(func).__name__}")
    if callable(func):
        return ref.fork(func, *args, **kwargs)

    def call() -> Any:
        return func(*args, **kwargs)  # raises TypeError: not callable

    return ref.fork(call)


def adapter() -> Adapter:
    return mutant("callable-by-attribute", fork=fork)
