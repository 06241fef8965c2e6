"""Forking a lambda takes the whole interpreter down (a crashing implementation).

A native runtime that reads something a lambda lacks (a qualified name it can
look up, a source it can compile) and aborts; ``os._exit(70)`` stands in for the
crash. The suite must tell it as a crash of the examples that fork a lambda and
go on with the rest. It breaks FORK-CALLABLES-1: "In plain Python, fork MUST
accept any callable as func [...]: a function, a lambda, ...".
"""

import os
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants import _reasons as reasons
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "FORK-CALLABLES-1",
    extras={
        "SCRIPT-DYNAMIC-1": reasons.LAMBDA,
        "SCRIPT-IGNORE-1": reasons.LAMBDA,
    },
    slow=True,  # each crash costs a new executor process
)


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if getattr(func, "__name__", "") == "<lambda>":
        os._exit(70)
    return ref.fork(func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("crashes-on-lambda", fork=fork)
