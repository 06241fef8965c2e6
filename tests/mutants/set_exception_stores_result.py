"""set_exception stores the exception as the future's value: wait returns it instead of raising."""

from typing import TypeVar

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import AnyFuture, mutant

T = TypeVar("T")


class Future(ref.Future[T], metaclass=AnyFuture):
    __slots__ = ()

    def set_exception(self, exception: BaseException) -> None:
        super().set_result(exception)  # type: ignore[arg-type]  # the mutation


def adapter() -> Adapter:
    return mutant("set-exception-stores-result", Future=Future)
