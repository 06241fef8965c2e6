"""A forked task's tuple or dict result has the futures in it replaced by their values.

A runtime that materialises a task's result before completing its future, as
Dask computes the futures nested in what a task returns, waits on each future
the tuple or dict holds and puts its value in its place. It breaks
FUTURE-CONTAINERS-1: futures "MUST be usable inside tuples
(``tuple[int, fw.Future[int]]``), dicts (``dict[str, fw.Future[int]]``) [...]:
as values of functions and tasks [...]. Each future in them stays the future
it was".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("FUTURE-CONTAINERS-1")


def _resolved(value: Any) -> Any:
    if isinstance(value, tuple):
        return tuple(ref.wait(v) if isinstance(v, ref.Future) else v for v in value)
    if isinstance(value, dict):
        return {k: ref.wait(v) if isinstance(v, ref.Future) else v for k, v in value.items()}
    return value


def _run(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    return _resolved(func(*args, **kwargs))  # the mutation: the values, not the futures


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if not callable(func):
        return ref.fork(func, *args, **kwargs)  # raises TypeError, as the reference does
    return ref.fork(_run, func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("task-results-resolve-contained-futures", fork=fork)
