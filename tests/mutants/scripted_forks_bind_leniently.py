"""A fork in scripted code binds its arguments by the callable's parameter names.

A compiler that lowers a fork to a call by schema looks up each parameter by
name or position and ignores the rest: in scripted code a keyword the callable
does not take is dropped, an argument past its last parameter too, and a missing
one without a default gets ``None``, so the task runs with what was bound.
Plain-Python forks are not affected. It breaks KWARGS-UNKNOWN-1: "In scripted
code, a fork whose arguments the callable does not accept [...] MUST make the
program fail with an ``Exception``".
"""

import inspect
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._thread_state import local
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("KWARGS-UNKNOWN-1")


def _bound(func: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
    """The arguments by position, one per parameter: what the schema lookup finds."""
    parameters = list(inspect.signature(func).parameters.values())
    values = []
    for index, parameter in enumerate(parameters):
        if index < len(args):
            values.append(args[index])
        elif parameter.name in kwargs:
            values.append(kwargs[parameter.name])
        elif parameter.default is not parameter.empty:
            values.append(parameter.default)
        else:
            values.append(None)  # the mutation: a missing argument is made up
    return tuple(values)


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if not local.state.scripted or not inspect.isfunction(func):
        return ref.fork(func, *args, **kwargs)
    return ref.fork(func, *_bound(func, args, kwargs))


def adapter() -> Adapter:
    return mutant("scripted-forks-bind-leniently", fork=fork)
