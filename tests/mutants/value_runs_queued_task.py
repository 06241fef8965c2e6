"""value() on a forked future whose task nobody has started runs the task there and then.

As ``wait`` does (help-while-waiting): ``value()`` raises only for a task
already running elsewhere; a task still queued is run on the calling thread,
which blocks until it ends, and its value is returned.

It breaks FUTURE-VALUE-NOT-DONE-1: value() on a future that is not done "MUST
NOT block [...]. This holds for [...] a future returned by fork whose task is
still queued".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._core import _PENDING
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "FUTURE-VALUE-NOT-DONE-1",
    extras={
        "FUTURE-FORKED-METHODS-1": "its probe reads value() before the task has begun",
    },
)


class RunsQueued(ref.Future[Any]):
    __slots__ = ()

    def value(self) -> Any:
        if self._claim is not None and self._state == _PENDING:
            self._run_if_pending()  # the mutation: a queued task is run, not refused
        return super().value()


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    future = ref.fork(func, *args, **kwargs)
    future.__class__ = RunsQueued
    return future


def adapter() -> Adapter:
    return mutant("value-runs-queued-task", fork=fork)
