"""A task's BaseException ends the worker that ran it, and the pool still counts it.

The worker completes the task's future with the exception, as it must, and
then lets it through its loop (``except Exception`` guards only its own
bookkeeping): the thread ends, and since the pool counts workers when they
start and never when they die, it starts no replacement. Once a pool's worth
of tasks has raised ``KeyboardInterrupt`` or an exception of their own
derived from ``BaseException``, queued tasks run only when someone waits on
them. Breaks ERR-BASE-EXCEPTION-1: after such a failure "the implementation
goes on running later forks".
"""

import threading
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._workers import WorkerPool
from tests.mutants import _reasons as reasons
from tests.mutants._base import mutant
from tests.mutants._contract import contract
from tests.mutants._tasks import fork_as

#: how many workers the rule's probe ends depends on how many of its tasks raise on a worker
#: rather than in a wait that runs them: every worker, some, or none
_DEAD_POOL = (
    "its probes run after the rule's probe has ended the pool's workers, which it still "
    "counts: once every worker has ended, a scripted task starts only when waited"
)
_SOME_DEAD = (
    "its examples run after examples whose BaseExceptions ended some of the pool's workers, "
    "as many as ran them there rather than in a wait: a held task may then be queued for good"
)

CONTRACT = contract(
    "ERR-BASE-EXCEPTION-1",
    maybe={
        "ASYNC-STARTS-1": _DEAD_POOL,
        "ASYNC-CONCURRENT-1": _DEAD_POOL,
        "FUTURE-DONE-1": _SOME_DEAD,
        "FUTURE-VALUE-NOT-DONE-1": _SOME_DEAD,
        "FUTURE-FORKED-METHODS-1": _SOME_DEAD,
        "FUTURE-ADD-DONE-CALLBACK-1": _SOME_DEAD,
        "NEST-UNWAITED-RUNS-1": _SOME_DEAD,
        "SCRIPT-MODULE-1": _SOME_DEAD,
    },
    slow=True,  # the probes of its later rules wait out their patience,
    extras={
        "ERR-WAIT-AGAIN-1": reasons.DEAD_WORKERS_AFTER_BASE_EXCEPTIONS,
        "FUTURE-WAIT-ALL-FIRST-1": reasons.DEAD_WORKERS_AFTER_BASE_EXCEPTIONS,
    },
)


class _WorkerEnds(BaseException):
    """Ends the worker thread; threading's hook reports it on standard error."""


class EndsItsWorker(ref.Future[Any]):
    __slots__ = ()

    def _run_if_pending(self, thread: Any = None) -> bool:
        ran = super()._run_if_pending(thread)
        error = self._exception
        on_worker = threading.current_thread().name.startswith("forkwait-worker")
        if ran and on_worker and error is not None and not isinstance(error, Exception):
            raise _WorkerEnds(f"worker ended by {error!r}")  # the mutation
        return ran


def _replace(self: WorkerPool, task: Any) -> None:
    """A dead worker stays counted; nobody replaces it."""


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    return fork_as(EndsItsWorker, func, *args, **kwargs)


def adapter() -> Adapter:
    # the mutant runs in a suite process of its own: patching the class is enough
    WorkerPool._replace = _replace  # type: ignore[method-assign]
    return mutant("base-exceptions-end-workers", fork=fork)
