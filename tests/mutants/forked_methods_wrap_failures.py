"""A forked future's own wait() and value() re-raise a task's failure as RuntimeError.

``fw.wait`` raises the task's exception; the methods of the future ``fork``
returns go through a torch-like path that raises ``RuntimeError`` with the
same text (type and chain lost), as a C++ future would.

It breaks FUTURE-FORKED-METHODS-1: "wait() and, once the task is done, value()
give what fw.wait gives (its value, or an exception of the type fw.wait raises,
with its text)".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract
from tests.mutants._tasks import fork_as

CONTRACT = contract("FUTURE-FORKED-METHODS-1")


class Wraps(ref.Future[Any]):
    __slots__ = ()

    def wait(self) -> Any:
        try:
            return super().wait()
        except Exception as error:  # noqa: BLE001 - any failure is rewrapped
            raise RuntimeError(str(error)) from None  # the mutation

    def value(self) -> Any:
        if not self.done():
            return super().value()
        try:
            return super().value()
        except Exception as error:  # noqa: BLE001 - any failure is rewrapped
            raise RuntimeError(str(error)) from None  # the mutation


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    return fork_as(Wraps, func, *args, **kwargs)


def wait(future: Any, /) -> Any:
    """fw.wait: the reference's own path, not the future's methods."""
    if not isinstance(future, ref.Future):
        return ref.wait(future)  # the reference's TypeError
    return ref.Future.wait(future)


def adapter() -> Adapter:
    return mutant("forked-methods-wrap-failures", fork=fork, wait=wait)
