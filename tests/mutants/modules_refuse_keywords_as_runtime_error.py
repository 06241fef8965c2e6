"""fork refuses a module's call with an unknown keyword as RuntimeError, compiled or not.

A runtime modelled on torch's compiled modules checks every forked module's
call against its ``forward``'s signature before it starts the task, and
reports a mismatch as the schema check of a compiled module does, with a
``RuntimeError``, for modules it never compiled too. It breaks
KWARGS-UNKNOWN-1: "When the callable is not one that fw.script compiled (a
function, a method, a module), the exception MUST be a TypeError, as the
direct call raises".
"""

import inspect
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("KWARGS-UNKNOWN-1")


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if isinstance(func, ref.Module):
        try:
            inspect.signature(func.forward).bind(*args, **kwargs)
        except TypeError as error:  # the mutation: a schema error, for every module
            raise RuntimeError(f"{type(func).__name__}.forward: {error}") from None
    return ref.fork(func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("modules-refuse-keywords-as-runtime-error", fork=fork)
