"""value() on a future that is not done returns None, as if None had been set.

value() reads the result slot without looking at the state. It breaks
FUTURE-VALUE-NOT-DONE-1: "value() on a future that is not done MUST raise an
Exception".
"""

from typing import Any, TypeVar

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import AnyFuture, mutant
from tests.mutants._contract import contract

CONTRACT = contract("FUTURE-VALUE-NOT-DONE-1")

T = TypeVar("T")


class Future(ref.Future[T], metaclass=AnyFuture):
    __slots__ = ()

    def value(self) -> Any:
        if not self.done():
            return None  # the mutation: a value that was never set
        return super().value()


def adapter() -> Adapter:
    return mutant("value-before-done-is-none", Future=Future)
