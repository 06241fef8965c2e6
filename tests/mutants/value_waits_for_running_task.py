"""value() on a forked future whose task still runs waits for the task instead of raising.

value() waits for a task that still runs, since it will finish anyway. It breaks
FUTURE-VALUE-NOT-DONE-1: "value() on a future that is not done MUST raise an
Exception [...], MUST NOT block".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "FUTURE-VALUE-NOT-DONE-1",
    extras={
        "FUTURE-FORKED-METHODS-1": "its probe reads value() while the task runs",
    },
)


class Waits(ref.Future[Any]):
    __slots__ = ()

    def value(self) -> Any:
        if not self.done():
            return self.wait()  # the mutation: the task will finish anyway, so wait for it
        return super().value()


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    future = ref.fork(func, *args, **kwargs)
    future.__class__ = Waits  # still an fw.Future
    return future


def adapter() -> Adapter:
    return mutant("value-waits-for-running-task", fork=fork)
