"""fork(func) with no arguments for func raises TypeError.

An argument check that takes an empty argument list for a caller's mistake. It
breaks FORK-NO-ARGS-1: "fork(func), with no arguments for func, MUST run func()
as a task".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "FORK-NO-ARGS-1",
    extras={
        "FORK-CALLABLES-1": "the probe forks a partial with no further arguments",
        "FUTURE-COLLECT-NOT-FUTURES-1": "the probe forks a function with no arguments",
        "KWARGS-DEFAULTS-1": "the probe forks a function with no arguments, to get every default",
        "KWARGS-PERMUTATIONS-1": "its probe 4 forks a task with no arguments",
        "TRACE-RERUN-1": "its probe forks closures with no arguments",
    },
)


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if not args and not kwargs:
        raise TypeError("fork() needs at least one argument for the function")
    return ref.fork(func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("rejects-no-arg-forks", fork=fork)
