"""fork does not check its function: calling a non-callable fails later, at wait.

A runtime that leaves every check to the task, calling ``func(*args)`` on a
worker, reports a non-callable only as its future's failure: the TypeError
surfaces at ``wait``. It breaks FORK-NOT-CALLABLE-1: "fork of something that is
not callable MUST raise TypeError from fork itself, not later from wait".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("FORK-NOT-CALLABLE-1")


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    def call_later(*a: Any, **k: Any) -> Any:
        return func(*a, **k)  # a non-callable fails here, inside the task

    return ref.fork(call_later, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("accepts-non-callable", fork=fork)
