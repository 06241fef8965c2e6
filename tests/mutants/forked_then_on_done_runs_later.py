"""then on a forked future that is done already queues the callback on the pool, not running it.

Callbacks of forked futures always run on the runtime's worker threads, so
that a user's callback never runs inside the call that adds it: on a forked
future that is done, ``then`` queues the callback as a task and returns at
once. The new future completes once a worker gets to it, at once on an idle
pool, later on a busy one. Created futures are not affected. Breaks
FUTURE-THEN-1: "On a future that is done already, ``then`` MUST run the
callback before it returns, so that the new future is done when ``then``
returns."
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._future import new_task
from reference_impl._pool import get_pool
from tests.mutants._base import mutant
from tests.mutants._contract import contract
from tests.mutants._tasks import fork_as

CONTRACT = contract(
    "FUTURE-THEN-1",
    extras={
        "FUTURE-FORKED-METHODS-1": "the probe calls then on a forked future whose task has "
        "ended, and looks at the new future at once",
    },
)


class Later(ref.Future[Any]):
    __slots__ = ()

    def then(self, callback: Any) -> Any:
        if not self.done():
            return super().then(callback)
        gate: Any = new_task(lambda: None, (), {})
        chained = ref.Future.then(gate, lambda _: callback(self))
        if not get_pool().submit(gate):
            gate._run_if_pending()
        return chained  # the mutation: done once a worker has run it


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    return fork_as(Later, func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("forked-then-on-done-runs-later", fork=fork)
