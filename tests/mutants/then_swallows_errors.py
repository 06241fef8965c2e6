"""A then callback that raises completes the new future with None instead of failing it.

then's wrapper of the callback logs an error and moves on. It breaks
FUTURE-THEN-ERROR-1: "When the callback given to then raises [...], the future
then returned MUST fail".
"""

from typing import Any, TypeVar

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import AnyFuture, mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "FUTURE-THEN-ERROR-1",
    extras={
        "FUTURE-COLLECT-CREATED-1": "wait_all is given a then future whose callback raises",
    },
)

T = TypeVar("T")


class Future(ref.Future[T], metaclass=AnyFuture):
    __slots__ = ()

    def then(self, callback: Any) -> Any:
        def guarded(future: Any) -> Any:
            try:
                return callback(future)
            except Exception:  # noqa: BLE001 - the mutation
                return None

        return super().then(guarded)


def adapter() -> Adapter:
    return mutant("then-swallows-errors", Future=Future)
