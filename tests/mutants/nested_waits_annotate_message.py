"""A wait inside a task adds where it was waited to the failure's message, in place.

To say which task a failure came through, a wait inside a task appends
`` (waited in <task>)`` to the exception's first argument, on the exception
object the future keeps: every later wait on that future raises a longer text.

It breaks ERR-WAIT-AGAIN-1: "Waiting again on a failed future MUST raise again,
every time an exception of the same type, with the same text, as the first wait
raised".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._errors import describe_callable
from reference_impl._thread_state import local
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("ERR-WAIT-AGAIN-1")


def wait(future: Any, /) -> Any:
    try:
        return ref.wait(future)
    except BaseException as error:
        current = local.state.current
        if current is not None and error.args and isinstance(error.args[0], str):
            where = describe_callable(current._func)
            error.args = (f"{error.args[0]} (waited in {where})", *error.args[1:])  # mutation
        raise


def adapter() -> Adapter:
    return mutant("nested-waits-annotate-message", wait=wait)
