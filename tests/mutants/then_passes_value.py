"""then calls its callback with the future's value, not with the future."""

from typing import Any, TypeVar

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import AnyFuture, mutant

T = TypeVar("T")


class Future(ref.Future[T], metaclass=AnyFuture):
    __slots__ = ()

    def then(self, callback: Any) -> Any:
        return super().then(lambda future: callback(future.value()))


def adapter() -> Adapter:
    return mutant("then-passes-value", Future=Future)
