"""wait on a created future that is not complete yet raises instead of blocking.

A wait written for forked futures, which it can run or block on their runner: a
created future has neither, and wait raises "no result yet" where it should
block until another thread completes it. It breaks FUTURE-WAKES-WAITERS-1:
"set_result and set_exception, called from any thread, MUST wake every thread
blocked in wait() or fw.wait on the future".
"""

from typing import Any, TypeVar

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants import _reasons as reasons
from tests.mutants._base import AnyFuture, mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "FUTURE-WAKES-WAITERS-1",
    extras={
        "FUTURE-ADD-DONE-CALLBACK-1": "its probe has a thread blocked on the future",
        "FUTURE-CREATE-1": reasons.MANY_WAITERS,
        "FUTURE-SET-EXCEPTION-1": reasons.MANY_WAITERS,
    },
)

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
