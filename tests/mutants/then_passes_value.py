"""then calls its callback with the future's value, not with the future.

then modelled on promises' ``then(onFulfilled)``, which passes the value. It
breaks FUTURE-THEN-1: "callback receives fut itself".
"""

from typing import Any, TypeVar

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import AnyFuture, mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "FUTURE-THEN-1",
    extras={
        "FUTURE-ADD-DONE-CALLBACK-1": "its probe calls then in a callback and reads value()",
        "FUTURE-THEN-ERROR-1": "its probe's callbacks read f.value()",
    },
)

T = TypeVar("T")


class Future(ref.Future[T], metaclass=AnyFuture):
    __slots__ = ()

    def then(self, callback: Any) -> Any:
        return super().then(lambda future: callback(future.value()))


def adapter() -> Adapter:
    return mutant("then-passes-value", Future=Future)
