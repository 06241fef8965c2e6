"""On a forked future, then is built on add_done_callback and re-raises a BaseException.

The forked future's ``then`` registers a done callback that completes the new
future with the callback's outcome; for a BaseException that is not an
Exception it also re-raises it "so that Ctrl-C is not swallowed": the thread
that completed the task (a worker, or a waiter that ran it) gets it. Created
futures keep the reference's ``then``.

It breaks FUTURE-THEN-ERROR-1: "This holds for any BaseException the callback
raises [...]: it MUST NOT be raised to the code that completed the future".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract
from tests.mutants._tasks import fork_as

CONTRACT = contract("FUTURE-THEN-ERROR-1")


class ThenByCallback(ref.Future[Any]):
    __slots__ = ()

    def then(self, callback: Any) -> Any:
        if not callable(callback):
            return super().then(callback)  # the reference's TypeError
        chained: Any = ref.Future()

        def complete(future: Any) -> None:
            try:
                result = callback(future)
            except Exception as error:  # noqa: BLE001
                chained.set_exception(error)
            except BaseException as error:
                chained.set_exception(error)
                raise  # the mutation
            else:
                chained.set_result(result)

        self.add_done_callback(complete)
        return chained


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    return fork_as(ThenByCallback, func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("forked-then-raises-base-exceptions", fork=fork)
