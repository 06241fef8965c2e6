"""fork silently drops keyword arguments the function does not accept.

A fork that filters keyword arguments against the function's signature, to be
lenient with callers, instead of letting the call fail. It breaks
KWARGS-UNKNOWN-1: "A keyword the function does not accept MUST raise TypeError
in plain Python, from fork or at the latest from wait".
"""

import inspect
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("KWARGS-UNKNOWN-1")


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    try:
        parameters = inspect.signature(func).parameters
    except (TypeError, ValueError):
        return ref.fork(func, *args, **kwargs)
    if not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
        kwargs = {key: value for key, value in kwargs.items() if key in parameters}
    return ref.fork(func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("drops-unknown-kwargs", fork=fork)
