"""future.done() is True once the task has started, not once it has finished.

The flag a runner sets when it takes the task from the queue, read as "done":
a task still queued is not done, as it should be, but one that runs is.

It breaks FUTURE-DONE-1: "future.done() MUST return False while the future's
task has not finished".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._core import _PENDING
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "FUTURE-DONE-1",
    extras={
        "FUTURE-VALUE-NOT-DONE-1": "its probe of a running task requires the future not done "
        "while the task, started, is held",
    },
    maybe={
        "FUTURE-WAIT-ALL-1": "wait_all reads a value of a future that says done while its task "
        "runs: it fails only if the task has not ended by then",
    },
)


class StartedFuture(ref.Future[Any]):
    __slots__ = ()

    def done(self) -> bool:
        return self._state != _PENDING


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    future = ref.fork(func, *args, **kwargs)
    future.__class__ = StartedFuture  # still an fw.Future
    return future


def adapter() -> Adapter:
    return mutant("done-means-started", fork=fork)
