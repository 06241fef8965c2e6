"""set_result/set_exception check that the future is not done outside any lock, then complete it.

Check-then-act: two threads completing one future at once can both pass the
check, and both "succeed"; the second overwrites the first's outcome.

It breaks FUTURE-SET-ONCE-1: "A future is completed once. set_result or
set_exception on a future that is done MUST raise RuntimeError (or a subclass),
and MUST leave the future's outcome as it was."
"""

from typing import Any, TypeVar

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._core import _DONE
from tests.mutants._base import AnyFuture, mutant
from tests.mutants._contract import contract

CONTRACT = contract("FUTURE-SET-ONCE-1")

T = TypeVar("T")


class Future(ref.Future[T], metaclass=AnyFuture):
    __slots__ = ()

    def _set(self, value: Any, exception: BaseException | None) -> None:
        if self._state == _DONE:  # the mutation: checked, then set, with no lock between
            raise RuntimeError("Attempting to mark a completed Future as complete again")
        self._end(value, exception)


def adapter() -> Adapter:
    return mutant("completes-without-a-lock", Future=Future)
