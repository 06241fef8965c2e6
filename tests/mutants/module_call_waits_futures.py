"""Calling a module waits on the futures it returns: the caller gets values, not futures."""

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
