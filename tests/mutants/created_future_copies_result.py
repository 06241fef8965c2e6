"""set_result keeps a copy of a list or dict result: wait and value give another object.

A future that keeps a shallow copy of its result, to shield it from the setter's
later changes. It breaks FUTURE-CREATE-1: "wait(), value() and fw.wait(fut) each
return value itself (the same object)".
"""

import copy
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
        super().set_result(copy.copy(result))


def adapter() -> Adapter:
    return mutant("created-future-copies-result", Future=Future)
