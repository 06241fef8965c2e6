"""set_result(value) where value is an exception instance completes the future as failed.

One slot holds the outcome, and "is it an exception?" decides whether wait
returns it or raises it.

It breaks FUTURE-CREATE-1: "set_result(value) MUST complete it: [...] wait(),
value() and fw.wait(fut) each return value itself".
"""

from typing import Any, TypeVar

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import AnyFuture, mutant
from tests.mutants._contract import contract

CONTRACT = contract("FUTURE-CREATE-1")

T = TypeVar("T")


class Future(ref.Future[T], metaclass=AnyFuture):
    __slots__ = ()

    def set_result(self, result: Any) -> None:
        if isinstance(result, BaseException):  # the mutation: an exception value is a failure
            self.set_exception(result)
        else:
            super().set_result(result)


def adapter() -> Adapter:
    return mutant("result-exception-raises", Future=Future)
