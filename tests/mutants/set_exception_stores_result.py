"""set_exception stores the exception as the future's value: wait returns it instead of raising.

One slot for the outcome and no mark of failure: set_exception stores the
exception where set_result stores a value. It breaks FUTURE-SET-EXCEPTION-1:
"set_exception(error) [...] MUST complete the future with that failure: [...]
wait(), value() and fw.wait(fut) each raise error itself".
"""

from typing import TypeVar

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants import _reasons as reasons
from tests.mutants._base import AnyFuture, mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "FUTURE-SET-EXCEPTION-1",
    extras={
        "FUTURE-ADD-DONE-CALLBACK-1": reasons.EXCEPTION_AS_VALUE,
        "FUTURE-THEN-1": reasons.EXCEPTION_AS_VALUE,
        "FUTURE-SET-ONCE-1": reasons.EXCEPTION_AS_VALUE,
        "FUTURE-THEN-ERROR-1": reasons.EXCEPTION_AS_VALUE,
        "FUTURE-WAKES-WAITERS-1": reasons.EXCEPTION_AS_VALUE,
    },
)

T = TypeVar("T")


class Future(ref.Future[T], metaclass=AnyFuture):
    __slots__ = ()

    def set_exception(self, exception: BaseException) -> None:
        super().set_result(exception)  # type: ignore[arg-type]  # the mutation


def adapter() -> Adapter:
    return mutant("set-exception-stores-result", Future=Future)
