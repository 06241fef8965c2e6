"""then adopts a future its callback returns: the new future completes with that future's outcome.

Promise-style flattening, as JavaScript's ``then`` and ``asyncio``'s chaining
helpers do: a callback that returns a future (one it forked, say) makes the
new future wait for it and take its value, so ``then`` never gives a future
of a future. Breaks FUTURE-THEN-1: the new future "completes with what
``callback(fut)`` returns", which is the future itself.
"""

from typing import Any, TypeVar

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import AnyFuture, mutant
from tests.mutants._contract import contract

T = TypeVar("T")

CONTRACT = contract("FUTURE-THEN-1")


def then_adopting(future: Any, callback: Any) -> Any:
    adopted: Any = ref.Future()
    adopted._args = (future,)  # its source, as the reference's then: waiting on it helps

    def settle(source: Any) -> None:
        try:
            adopted.set_result(source.value())
        except BaseException as error:  # noqa: BLE001 - passed on to the new future
            adopted.set_exception(error)

    def run(done: Any) -> None:
        try:
            result = callback(done)
        except BaseException as error:  # noqa: BLE001 - the callback's failure
            adopted.set_exception(error)
            return
        if isinstance(result, ref.Future):
            result.add_done_callback(settle)  # the mutation: adopt it
        else:
            adopted.set_result(result)

    future.add_done_callback(run)
    return adopted


class Future(ref.Future[T], metaclass=AnyFuture):
    __slots__ = ()

    def then(self, callback: Any) -> Any:
        return then_adopting(self, callback)


class Forked(ref.Future[Any]):
    __slots__ = ()

    def then(self, callback: Any) -> Any:
        return then_adopting(self, callback)


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    future = ref.fork(func, *args, **kwargs)
    if type(future) is ref.Future:
        future.__class__ = Forked
    return future


def adapter() -> Adapter:
    return mutant("then-adopts-returned-future", Future=Future, fork=fork)
