"""future.done() is True once the task has started, not once it has finished.

The flag a runner sets when it takes the task from the queue, read as "done":
a task still queued is not done, as it should be, but one that runs is.
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._core import _PENDING
from tests.mutants._base import mutant


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
