"""fork replaces a future among the task's arguments by its value, as Dask's submit does.

It breaks FUTURE-ARGUMENT-1: "A future passed as an argument to a forked task
MUST reach the task as that future (not, say, its value)".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants import _reasons as reasons
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "FUTURE-ARGUMENT-1",
    extras={
        "FUTURE-WAIT-ALL-1": reasons.PREVIOUS_FUTURE_AS_ARGUMENT,
        "FUTURE-WAIT-ALL-FIRST-1": reasons.PREVIOUS_FUTURE_AS_ARGUMENT,
        "ERR-WAIT-AGAIN-1": reasons.WAITS_AGAIN_IN_A_TASK,
        "FUTURE-ANNOTATIONS-1": "the probe gives a task a future as an argument",
        "FUTURE-CONTAINERS-1": "its probes 4 and 5 give tasks as an argument the future they "
        "return in a tuple, a dict and an optional",
        "FUTURE-RETURNED-1": "its probes 4 and 5 give a task as an argument the future it returns",
        "WAIT-SAME-OBJECT-1": "the probe hands a future to 8 tasks",
    },
)


def _resolved(value: Any) -> Any:
    return ref.wait(value) if isinstance(value, ref.Future) else value


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    args = tuple(_resolved(arg) for arg in args)
    kwargs = {key: _resolved(value) for key, value in kwargs.items()}
    return ref.fork(func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("resolves-future-arguments", fork=fork)
