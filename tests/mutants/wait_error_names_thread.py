"""A failure's text names the thread that waits: waits from two threads raise different texts.

The runtime re-raises a task's failure as a copy whose message adds where it
was waited for (a debugging aid). One thread's waits all agree; another
thread waiting on the same future gets another text.

It breaks ERR-WAIT-AGAIN-1: "Waiting again on a failed future MUST raise again,
every time an exception of the same type, with the same text, as the first wait
raised".
"""

import copy
import threading
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "ERR-WAIT-AGAIN-1",
    extras={
        "ERR-TYPE-KEPT-1": "an exception whose constructor takes keywords only cannot be copied: "
        "wait raises the copy's TypeError",
    },
)


def wait(future: Any, /) -> Any:
    try:
        return ref.wait(future)
    except BaseException as error:
        if getattr(future, "_claim", None) is None:  # a created future: as the reference
            raise
        if not error.args or not isinstance(error.args[0], str):
            raise
        named = copy.copy(error)
        where = threading.current_thread().name
        named.args = (f"{error.args[0]} (waited in {where})", *error.args[1:])
        named.__cause__ = error.__cause__
        raise named from error.__cause__


def adapter() -> Adapter:
    return mutant("wait-error-names-thread", wait=wait)
