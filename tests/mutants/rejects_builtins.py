"""fork rejects builtins (max, len): only callables written in Python are accepted.

fork looks at its function's code object (to name the task, or to compile it)
and refuses what has none: builtins written in C. It breaks FORK-CALLABLES-1
(fork "MUST accept any callable as func [...] or a builtin") and FORK-BUILTINS-1
("Scripted code MUST be able to fork the builtin functions abs, max and len").
"""

import types
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "FORK-CALLABLES-1",
    "FORK-BUILTINS-1",
    extras={
        "WAIT-NOT-A-FUTURE-1": "the probe forks abs",
    },
)


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if isinstance(func, types.BuiltinFunctionType):
        raise TypeError(f"fork() cannot run the builtin {func.__name__}")
    return ref.fork(func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("rejects-builtins", fork=fork)
