"""fork gives the task deep copies of its list and dict arguments.

A runtime that isolates its tasks from their caller by copying mutable
arguments, as a process pool or a scheduler that serialises its calls does. It
breaks DET-NO-COPY-1: "Arguments MUST be passed to the task as they are, not
copied".
"""

import copy
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "DET-NO-COPY-1",
    extras={
        "FUTURE-ANNOTATIONS-1": "the probe gives a task futures, which cannot be copied "
        "(a future holds a Context)",
    },
)


def _copied(value: Any) -> Any:
    return copy.deepcopy(value) if isinstance(value, list | dict) else value


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    args = tuple(_copied(arg) for arg in args)
    kwargs = {key: _copied(value) for key, value in kwargs.items()}
    return ref.fork(func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("copies-arguments", fork=fork)
