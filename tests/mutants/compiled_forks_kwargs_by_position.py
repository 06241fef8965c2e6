"""Forking a module or a scripted function passes keyword arguments by position, in the order given.

Compiled callables take positional arguments in the order of their schema;
this fork appends the keyword arguments' values after the positional ones, in
the order the caller wrote them. Right when the keywords follow the
parameters' order, as in the examples; wrong when they do not.

It breaks MODULE-FORK-1 ("Forking a module MUST call its forward with the given
arguments") and FORK-SCRIPTED-1 (fork "MUST accept a function compiled by
fw.script and a scripted module [...] and run them as direct calls would").
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants import _reasons as reasons
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "MODULE-FORK-1",
    "FORK-SCRIPTED-1",
    extras={
        "KWARGS-UNKNOWN-1": (
            "its probe forks scripted functions and modules with an unknown keyword, which "
            "arrives by position instead of being refused"
        ),
        "TRACE-KWARGS-1": (
            "its probe forks a module with keywords out of order while tracing: they arrive by "
            "position"
        ),
        "SCRIPT-SAME-RESULT-1": reasons.SCRIPTED_BY_KEYWORD,
    },
)


def _compiled(func: Any) -> bool:
    owner = getattr(func, "__self__", None)
    return isinstance(func, (ref.Module, ref.ScriptModule)) or isinstance(owner, ref.Module)


def _scripted_function(func: Any) -> bool:
    code = getattr(func, "__code__", None)
    return code is not None and code.co_name == "run_scripted"  # what fw.script returns


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if kwargs and (_compiled(func) or _scripted_function(func)):
        return ref.fork(func, *args, *kwargs.values())
    return ref.fork(func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("compiled-forks-kwargs-by-position", fork=fork)
