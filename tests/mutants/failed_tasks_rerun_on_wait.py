"""A failed task is run again by every later wait on its future: failures are retried.

The runtime keeps a task's function and arguments until it succeeds; a wait
that finds the future failed runs the task once more on the waiting thread
(a transient failure may have passed) and gives the new outcome. A task that
fails the same way each time raises the same type and text at every wait,
but runs once per wait. Breaks WAIT-SAME-OBJECT-1: "the task MUST run exactly
once however often it is waited".
"""

from contextvars import Context
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._thread_state import local
from tests.mutants import _reasons as reasons
from tests.mutants._base import mutant
from tests.mutants._contract import contract
from tests.mutants._tasks import fork_as

CONTRACT = contract(
    "WAIT-SAME-OBJECT-1",
    extras={
        "DET-PURE-1": "the generated programs note every run of a task, and wait again on "
        "failed ones, which run again",
        "ERR-NESTED-1": reasons.WAITS_TWICE_ON_FAILURE,
    },
)


class Retried(ref.Future[Any]):
    __slots__ = ()

    def _run_if_pending(self, thread: Any = None) -> bool:
        call = (self._func, self._args, self._kwargs, self._context)
        ran = super()._run_if_pending(thread)
        if ran and self._exception is not None:
            _kept[id(self)] = (self, call)  # kept for a retry
        return ran

    def wait(self) -> Any:
        thread = local.state
        if thread.scope is None and thread.run is None:
            self._wait_until_done(thread)
            kept = _kept.get(id(self))
            if kept is not None and kept[0] is self:
                func, args, kwargs, task_context = kept[1]
                assert isinstance(task_context, Context)
                try:  # the mutation: the failed task runs again
                    value = task_context.copy().run(func, *args, **kwargs)
                except BaseException as error:  # noqa: BLE001 - the new outcome
                    self._exception, self._traceback = error, error.__traceback__
                else:
                    self._exception, self._value = None, value
                    del _kept[id(self)]
        return super().wait()


_kept: dict[int, tuple[Retried, tuple[Any, ...]]] = {}


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    return fork_as(Retried, func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("failed-tasks-rerun-on-wait", fork=fork)
