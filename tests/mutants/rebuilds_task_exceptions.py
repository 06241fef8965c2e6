"""wait re-raises a task's failure rebuilt from its type and args, else as RuntimeError.

Carrying an exception across threads by its type and ``args`` (as pickling
does) works for most exceptions; one whose constructor takes keywords only
cannot be rebuilt, and becomes a RuntimeError with its text.

It breaks ERR-TYPE-KEPT-1 (a SHOULD): "The exception wait raises SHOULD be of
the type the task raised".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "ERR-TYPE-KEPT-1",
    strict=True,
)


def wait(future: Any, /) -> Any:
    try:
        return ref.wait(future)
    except BaseException as error:
        if getattr(future, "_claim", None) is None:  # a created future: as the reference
            raise
        try:
            rebuilt = type(error)(*error.args)
        except TypeError:
            rebuilt = RuntimeError(str(error))  # the mutation: the type is lost
        raise rebuilt from error.__cause__


def adapter() -> Adapter:
    return mutant("rebuilds-task-exceptions", wait=wait)
