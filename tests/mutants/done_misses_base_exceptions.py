"""A task that raised a BaseException never reads as done: ``except Exception`` sets the flag.

The runner keeps the outcome and sets the done flag for a value and for an
``Exception``; a ``BaseException`` (``KeyboardInterrupt``, ``SystemExit``, a
subclass of its own) is kept for ``wait`` by an outer handler that never sets
the flag, so ``done()`` stays False after ``wait`` has raised it.

It breaks FUTURE-DONE-FAILED-1: "A future whose task raised is done:
future.done() MUST return True once wait on it has raised".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants import _reasons as reasons
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "FUTURE-DONE-FAILED-1",
    extras={
        "ERR-BASE-EXCEPTION-1": reasons.DONE_AFTER_BASE_EXCEPTION,
        "ERR-WAIT-AGAIN-1": reasons.DONE_AFTER_BASE_EXCEPTION,
    },
)


class MissesBase(ref.Future[Any]):
    __slots__ = ()

    def done(self) -> bool:
        error = self._exception
        return super().done() and (error is None or isinstance(error, Exception))


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    future = ref.fork(func, *args, **kwargs)
    future.__class__ = MissesBase  # still an fw.Future
    return future


def adapter() -> Adapter:
    return mutant("done-misses-base-exceptions", fork=fork)
