"""set_result/set_exception on a forked future whose task is done replace its outcome.

The check that refuses them looks for a task still to run (``'pending or
running'``), not for a done future: once the task has ended, the future is
taken for a completed one that may be set, and the new outcome is stored
before the "completed twice" error is raised.

It breaks FUTURE-SET-ONCE-1: set_result or set_exception on a future that is
done "MUST raise RuntimeError (or a subclass), and MUST leave the future's
outcome as it was".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract
from tests.mutants._tasks import fork_as

CONTRACT = contract("FUTURE-SET-ONCE-1")


class Overwritten(ref.Future[Any]):
    __slots__ = ()

    def _set(self, value: Any, exception: BaseException | None) -> None:
        if self.done():  # the mutation: store first, then complain
            self._value, self._exception = value, exception
            self._traceback = None if exception is None else exception.__traceback__
            self._guard = None
        super()._set(value, exception)


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    return fork_as(Overwritten, func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("set-result-overwrites-done-task", fork=fork)
