"""A wait inside a task re-raises a copy of the failure without its chain.

To keep tracebacks short, the runtime re-raises a subtask's failure as a new
exception of the same type and args, ``from None``: the caller's own waits
keep the chain, a failure that comes up through a task loses it.

It breaks ERR-CHAIN-KEPT-1 (a SHOULD): "when the task raised error from cause
[...], the exception wait raises has cause as its __cause__".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._thread_state import local
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "ERR-CHAIN-KEPT-1",
    strict=True,
)


def wait(future: Any, /) -> Any:
    try:
        return ref.wait(future)
    except Exception as error:
        if local.state.current is None:
            raise
        try:
            copy = type(error)(*error.args)
        except TypeError:
            raise error from None
        raise copy from None  # the mutation: __cause__ is dropped


def adapter() -> Adapter:
    return mutant("nested-waits-drop-chain", wait=wait)
