"""fork passes the first two positional arguments in the wrong order."""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if len(args) >= 2:
        args = (args[1], args[0], *args[2:])
    return ref.fork(func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("swaps-args", fork=fork)
