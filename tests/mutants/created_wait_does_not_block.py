"""wait on a created future that is not complete yet raises instead of blocking."""

from typing import Any, TypeVar

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import AnyFuture, mutant

T = TypeVar("T")


class Future(ref.Future[T], metaclass=AnyFuture):
    __slots__ = ()

    def wait(self) -> Any:
        if not self.done():
            raise RuntimeError("this Future has no result yet")
        return super().wait()


def wait(future: Any) -> Any:
    if type(future) is Future:
        return future.wait()
    return ref.wait(future)


def adapter() -> Adapter:
    return mutant("created-wait-does-not-block", Future=Future, wait=wait)
