"""fork rejects builtins (max, len): only callables written in Python are accepted."""

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
