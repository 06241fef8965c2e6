"""future.done() is always True, also while the task is still running.

A handle whose ``done()`` answers whether the fork was accepted, not whether the
task has finished. It breaks FUTURE-DONE-1: "future.done() MUST return False
while the future's task has not finished".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants import _reasons as reasons
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "FUTURE-DONE-1",
    extras={
        "FUTURE-ADD-DONE-CALLBACK-1": (
            "its probe adds callbacks to futures of tasks still running, which look done, so the "
            "callbacks run at once"
        ),
        "FUTURE-WAIT-ALL-FIRST-1": reasons.LOOKS_DONE,
        "FUTURE-FORKED-METHODS-1": reasons.LOOKS_DONE,
        "FUTURE-VALUE-NOT-DONE-1": "its probe of a running task requires the future not done "
        "while the task, started, is held",
        "FUTURE-WAIT-ALL-1": reasons.LOOKS_DONE,
        "NEST-ANY-POOL-1": "wait_all reads done(), always True, and gives values not yet set",
    },
)


class AlwaysDone(ref.Future[Any]):
    __slots__ = ()

    def done(self) -> bool:
        return True


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    future = ref.fork(func, *args, **kwargs)
    future.__class__ = AlwaysDone  # still an fw.Future
    return future


def adapter() -> Adapter:
    return mutant("done-always-true", fork=fork)
