"""future.done() is always True, also while the task is still running."""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant


class AlwaysDone(ref.Future[Any]):
    __slots__ = ()

    def done(self) -> bool:
        return True


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    future = ref.fork(func, *args, **kwargs)
    future.__class__ = AlwaysDone  # still an fw.Future
    return future


def adapter() -> Adapter:
    return mutant("done-always-true", fork=fork)
