"""fork(func) with no arguments for func raises TypeError."""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if not args and not kwargs:
        raise TypeError("fork() needs at least one argument for the function")
    return ref.fork(func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("rejects-no-arg-forks", fork=fork)
