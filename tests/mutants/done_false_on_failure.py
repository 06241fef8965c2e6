"""done() is True only for a future with a value: a failed task's future never looks done."""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant


class ValueDone(ref.Future[Any]):
    __slots__ = ()

    def done(self) -> bool:
        if not super().done():
            return False
        try:
            ref.wait(self)
        except BaseException:  # noqa: BLE001 - the mutation: a failure is not "done"
            return False
        return True


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    future = ref.fork(func, *args, **kwargs)
    future.__class__ = ValueDone  # still an fw.Future
    return future


def adapter() -> Adapter:
    return mutant("done-false-on-failure", fork=fork)
