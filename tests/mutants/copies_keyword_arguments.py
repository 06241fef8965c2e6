"""fork gives the task deep copies of the list and dict values it passes by keyword.

Positional arguments are passed as they are; the keyword arguments are kept
in a frozen snapshot of the call (deep-copied), so a task that mutates a list
given by keyword mutates its own copy.

It breaks DET-NO-COPY-1: "Arguments MUST be passed to the task as they are, not
copied, whether given by position or by keyword".
"""

import copy
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("DET-NO-COPY-1")


def _copied(value: Any) -> Any:
    return copy.deepcopy(value) if isinstance(value, list | dict) else value


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    kwargs = {key: _copied(value) for key, value in kwargs.items()}  # the mutation
    return ref.fork(func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("copies-keyword-arguments", fork=fork)
