"""An adapter with two mistakes a first gevent adapter really made: its ``fw.Future``
cannot be subscripted (``fw.Future[int]`` raises), and the handle ``fork`` returns is no
``fw.Future`` and has no ``done()``. Every ``fw`` name is there, so the run starts; the
adapter check must name both mistakes once, before the examples
(tests/suite/test_adapter_check.py).
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant


class Handle:
    """What ``fork`` returns: it can be waited on, and has nothing else."""

    __slots__ = ("future",)

    def __init__(self, future: Any) -> None:
        self.future = future


class Future:
    """A plain class: ``Future[int]`` raises TypeError, as gevent's Greenlet does."""


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    return Handle(ref.fork(func, *args, **kwargs))


def wait(future: Any, /) -> Any:
    return ref.wait(future.future if isinstance(future, Handle) else future)


def adapter() -> Adapter:
    return mutant("unusable-future", profiles=["core"], fork=fork, wait=wait, Future=Future)
