"""then on a forked future runs the callback at once, without waiting for the task to end."""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant


class Eager(ref.Future[Any]):
    __slots__ = ()

    def then(self, callback: Any) -> Any:
        chained: Any = ref.Future()
        try:
            chained.set_result(callback(self))
        except Exception as error:  # noqa: BLE001 - kept for the new future's wait
            chained.set_exception(error)
        return chained


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    future = ref.fork(func, *args, **kwargs)
    future.__class__ = Eager  # still an fw.Future
    return future


def adapter() -> Adapter:
    return mutant("forked-then-runs-at-once", fork=fork)
