"""set_exception accepts anything: a non-exception fails the future with RuntimeError(str).

A lenient set_exception that makes an exception of what it is given
(``RuntimeError(str(x))``) instead of refusing it. It breaks
FUTURE-SET-EXCEPTION-1: "Given anything that is not an exception instance [...],
set_exception MUST raise an Exception and MUST leave the future not done".
"""

from typing import Any, TypeVar

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import AnyFuture, mutant
from tests.mutants._contract import contract

CONTRACT = contract("FUTURE-SET-EXCEPTION-1")

T = TypeVar("T")


class Future(ref.Future[T], metaclass=AnyFuture):
    __slots__ = ()

    def set_exception(self, exception: Any) -> None:
        if not isinstance(exception, BaseException):
            exception = RuntimeError(str(exception))  # the mutation: no error, a failed future
        super().set_exception(exception)


def adapter() -> Adapter:
    return mutant("set-exception-accepts-anything", Future=Future)
