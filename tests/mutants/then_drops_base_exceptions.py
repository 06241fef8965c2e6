"""A then callback that raises a BaseException (not an Exception) completes its future with None.

then's wrapper of the callback catches ``Exception`` to fail the new future, and
takes any other BaseException (KeyboardInterrupt, a subclass of its own) for "no
result". It breaks FUTURE-THEN-ERROR-1: the future then returned "MUST fail
[...]. This holds for any BaseException the callback raises".
"""

from typing import Any, TypeVar

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import AnyFuture, mutant
from tests.mutants._contract import contract

CONTRACT = contract("FUTURE-THEN-ERROR-1")

T = TypeVar("T")


class Future(ref.Future[T], metaclass=AnyFuture):
    __slots__ = ()

    def then(self, callback: Any) -> Any:
        def guarded(future: Any) -> Any:
            try:
                return callback(future)
            except Exception:
                raise
            except BaseException:  # noqa: BLE001 - the mutation
                return None

        return super().then(guarded)


def adapter() -> Adapter:
    return mutant("then-drops-base-exceptions", Future=Future)
