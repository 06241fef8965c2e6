"""The task runs twice; the second result is the one waited."""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant


def fork(func: Any, *args: Any, **kwargs: Any) -> Any:
    def twice(*a: Any, **k: Any) -> Any:
        func(*a, **k)
        return func(*a, **k)

    return ref.fork(twice if callable(func) else func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("runs-twice", fork=fork)
