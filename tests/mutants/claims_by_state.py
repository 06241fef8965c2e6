"""A queued task is claimed by checking that it is pending, then marking it running.

Check-then-act without a lock or an atomic token: a pool worker and a thread
that waits on the future can both see it pending and both run the task; the
second run's value replaces the first's.
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._core import _PENDING
from tests.mutants._base import mutant
from tests.mutants._tasks import fork_as


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
