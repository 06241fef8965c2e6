"""fork flattens a ``functools.partial``, letting the partial's keywords override the fork's.

Unwrapping partials (to name the task after the real function, or to check
it) merges the keywords the wrong way round: ``{**kwargs, **p.keywords}``,
where a direct call ``p(**kwargs)`` lets the call's keywords win.

It breaks FORK-CALLABLES-1: "In plain Python, fork MUST accept any callable as
func and call it as a direct call would".
"""

import functools
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("FORK-CALLABLES-1")


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if isinstance(func, functools.partial):
        merged = {**kwargs, **func.keywords}  # the mutation: the partial's keywords win
        return ref.fork(func.func, *func.args, *args, **merged)
    return ref.fork(func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("partial-keywords-win", fork=fork)
