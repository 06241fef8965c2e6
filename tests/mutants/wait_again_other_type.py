"""A failed future's later waits raise a RuntimeError with the same text, not the first type.

A failed future that keeps only its exception's text after the first wait (to
drop the traceback it holds): later waits raise a RuntimeError made from it. It
breaks ERR-WAIT-AGAIN-1: "Waiting again on a failed future MUST raise again,
every time an exception of the same type, with the same text, as the first wait
raised".
"""

import weakref
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants import _reasons as reasons
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "ERR-WAIT-AGAIN-1",
    extras={
        "FUTURE-SET-EXCEPTION-1": reasons.WAITS_TWICE_ON_FAILURE,
        "FUTURE-WAKES-WAITERS-1": "its probe has 24 threads wait on one failed future",
    },
)

_raised: "weakref.WeakSet[Any]" = weakref.WeakSet()


def wait(future: Any) -> Any:
    try:
        return ref.wait(future)
    except Exception as error:
        if not isinstance(future, ref.Future):
            raise
        if future in _raised:
            raise RuntimeError(str(error)) from None  # the mutation: the type is lost
        _raised.add(future)
        raise


def adapter() -> Adapter:
    return mutant("wait-again-other-type", wait=wait)
