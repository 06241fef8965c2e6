"""Completing a done future again is silently ignored instead of raising RuntimeError.

An idempotent completion guard (``if not done: set``), as promise libraries with
resolve-once semantics have: a second completion is dropped without a word. It
breaks FUTURE-SET-ONCE-1: "set_result or set_exception on a future that is done
MUST raise RuntimeError (or a subclass)".
"""

from typing import Any, TypeVar

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import AnyFuture, mutant
from tests.mutants._contract import contract

CONTRACT = contract("FUTURE-SET-ONCE-1")

T = TypeVar("T")


class Future(ref.Future[T], metaclass=AnyFuture):
    __slots__ = ()

    def set_result(self, result: Any) -> None:
        if not self.done():
            super().set_result(result)

    def set_exception(self, exception: BaseException) -> None:
        if not self.done():
            super().set_exception(exception)


def adapter() -> Adapter:
    return mutant("completes-twice-silently", Future=Future)
