"""Calling a module waits on the futures it returns: the caller gets values, not futures.

A framework that converts a module's outputs into plain values when the call
returns. It breaks MODULE-RETURNS-FUTURES-1 ("the module that calls it MUST get
those futures and be able to wait on them") and TRACE-MODULE-FUTURES-1 (tracing
a module whose forward waits on such futures "MUST give a traced function that
computes on new inputs what the module computes"): the forward is handed values
where it waits on futures.
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("MODULE-RETURNS-FUTURES-1", "TRACE-MODULE-FUTURES-1")


def _resolved(value: Any) -> Any:
    if isinstance(value, ref.Future):
        return ref.wait(value)
    if isinstance(value, (list, tuple)):
        return type(value)(_resolved(item) for item in value)
    return value


class Module(ref.Module):
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return _resolved(super().__call__(*args, **kwargs))


def adapter() -> Adapter:
    return mutant("module-call-waits-futures", Module=Module)
