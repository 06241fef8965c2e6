"""A failed future raises at its first wait only; later waits give None.

A future that hands its exception to the first waiter and then drops it (to free
the traceback it holds, or because it has been reported), so that later waits
find neither a failure nor a value. It breaks ERR-WAIT-AGAIN-1: "Waiting again
on a failed future MUST raise again, every time".
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
        "WAIT-SAME-OBJECT-1": reasons.WAITS_TWICE_ON_FAILURE,
        "DET-PURE-1": "a generated program waits twice on a failing task",
        "FUTURE-DONE-FAILED-1": "the probe's 8 threads each wait on one failed future",
        "FUTURE-SET-EXCEPTION-1": reasons.WAITS_TWICE_ON_FAILURE,
        "FUTURE-SET-ONCE-1": reasons.FAILED_FORKED,
        "WAIT-SELF-1": "the cycle's failure is waited twice (by a task, then by the caller): the "
        "second wait raises nothing",
    },
)

_reported: "weakref.WeakSet[Any]" = weakref.WeakSet()


def wait(future: Any) -> Any:
    if isinstance(future, ref.Future) and future in _reported:
        return None
    try:
        return ref.wait(future)
    except Exception:
        if isinstance(future, ref.Future):
            _reported.add(future)
        raise


def adapter() -> Adapter:
    return mutant("forgets-failure", wait=wait)
