"""then on a forked future runs the callback at once, without waiting for the task to end.

A ``then`` written for futures that are done, which calls the callback on the
spot without looking: on a forked future whose task still runs, the callback
gets an unfinished future. It breaks FUTURE-FORKED-METHODS-1: "callbacks run
once the task has finished".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "FUTURE-FORKED-METHODS-1",
    extras={
        "FUTURE-CALLBACK-ORDER-1": "its probe adds then callbacks to a forked future",
        "FUTURE-THEN-ERROR-1": "its probe calls then on futures fork returned",
    },
)


class Eager(ref.Future[Any]):
    __slots__ = ()

    def then(self, callback: Any) -> Any:
        chained: Any = ref.Future()
        try:
            chained.set_result(callback(self))
        except Exception as error:  # noqa: BLE001 - kept for the new future's wait
            chained.set_exception(error)
        return chained


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    future = ref.fork(func, *args, **kwargs)
    future.__class__ = Eager  # still an fw.Future
    return future


def adapter() -> Adapter:
    return mutant("forked-then-runs-at-once", fork=fork)
