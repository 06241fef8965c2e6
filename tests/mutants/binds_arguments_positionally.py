"""fork binds the arguments to the signature, then passes every value by position.

A runtime that checks a call at fork time (``inspect.signature(func).bind``)
and then calls ``func(*bound.arguments.values())`` gets ordinary parameters
right in any order, but passes keyword-only parameters, ``*args`` and
``**kwargs`` as one positional value each. Only Python functions are bound;
other callables (builtins, modules, objects) are called as given.

It breaks FORK-CALLS-1 (waiting on the future "MUST give what func(*args,
**kwargs) returns") and KWARGS-PERMUTATIONS-1 (the arguments "MUST reach the
function exactly as in a direct call, in every mix and order"). The defaults it
fills in (a keyword-only default, an empty ``*args`` or ``**kwargs``) travel by
position too, which breaks KWARGS-DEFAULTS-1 ("Parameters that fork does not
pass MUST take their defaults"), FORK-NO-ARGS-1 ("fork(func), with no arguments
for func, MUST run func() as a task") and FORK-CALLABLES-1 (fork calls any
callable "as a direct call would").
"""

import inspect
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "FORK-CALLS-1",
    "KWARGS-PERMUTATIONS-1",
    "KWARGS-DEFAULTS-1",
    "FORK-NO-ARGS-1",
    "FORK-CALLABLES-1",
    extras={
        "TRACE-KWARGS-1": "the probe forks a function with keyword-only parameters",
    },
)


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if not inspect.isfunction(func):
        return ref.fork(func, *args, **kwargs)
    try:
        bound = inspect.signature(func).bind(*args, **kwargs)
    except TypeError:
        return ref.fork(func, *args, **kwargs)
    bound.apply_defaults()
    return ref.fork(func, *bound.arguments.values())  # the mutation: all by position


def adapter() -> Adapter:
    return mutant("binds-arguments-positionally", fork=fork)
