"""A queued task is claimed by checking that it is pending, then marking it running.

Check-then-act without a lock or an atomic token: two threads that reach a
queued task together (a pool worker and a thread that waits on it, or two
waiting threads) can both see it pending and both run it. Here the second run
fails on entering the task's context, which the first has entered, and its
failure becomes the future's outcome. It breaks WAIT-SAME-OBJECT-1: "Every
``wait`` on one future MUST return the same object, and the task MUST run
exactly once however often it is waited".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._core import _PENDING
from tests.mutants._base import mutant
from tests.mutants._contract import contract
from tests.mutants._tasks import fork_as

CONTRACT = contract(
    "WAIT-SAME-OBJECT-1",
    maybe={
        "NEST-LEVELS-1": "its probe's chain of 1,000 nested forks gives the unlocked claim a "
        "thousand races, any of which may run a task twice",
        "NEST-UNWAITED-RUNS-1": "its probe forks a task and waits on it at once, 100 times: a "
        "task run twice forks its unwaited child twice",
    },
)


class ClaimsByState(ref.Future[Any]):
    __slots__ = ()

    def _run_if_pending(self, thread: Any = None) -> bool:
        if self._claim is not None:
            if self._state != _PENDING:  # the mutation: checked, then claimed, no lock
                return False
            self._claim = [None]  # a token for this runner, whatever others took
        return super()._run_if_pending(thread)


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    return fork_as(ClaimsByState, func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("claims-by-state", fork=fork)
