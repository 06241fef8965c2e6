"""wait_all raises the failure that happened first in time, not the first failed future in the list.

Each future's completion is stamped as it arrives; once every future is done,
``wait_all`` re-raises the earliest failure, which is the first in the list
whenever the tasks fail in list order. Breaks FUTURE-WAIT-ALL-FIRST-1: when
several have failed before ``wait_all`` is called, the exception "MUST be that
of the first failed future in the list".
"""

import itertools
import threading
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("FUTURE-WAIT-ALL-FIRST-1")

_clock = itertools.count()
#: id(future) -> (the future, when it ended). The future is kept alive, so that no later
#: future takes its id over with an earlier stamp.
_stamps: dict[int, tuple[Any, int]] = {}
_lock = threading.Lock()


def _stamp(future: Any) -> None:
    with _lock:
        _stamps.setdefault(id(future), (future, next(_clock)))


class Stamped(ref.Future[Any]):
    __slots__ = ()

    def _end(self, value: Any, exception: BaseException | None) -> None:
        _stamp(self)
        super()._end(value, exception)

    def _run_if_pending(self, thread: Any = None) -> bool:
        ran = super()._run_if_pending(thread)
        if ran:
            _stamp(self)
        return ran


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    from tests.mutants._tasks import fork_as  # noqa: PLC0415

    return fork_as(Stamped, func, *args, **kwargs)


def wait_all(futures: list[Any]) -> list[Any]:
    checked = list(futures)
    ref.wait(ref.collect_all(checked))  # every future done (collect_all checks the items)
    failed = [f for f in checked if f._exception is not None]
    if failed:  # the mutation: the earliest failure in time
        first = min(failed, key=lambda f: _stamps.get(id(f), (f, -1))[1])
        first._outcome()
    return ref.wait_all(checked)


def adapter() -> Adapter:
    return mutant("wait-all-first-completed-failure", fork=fork, wait_all=wait_all)
