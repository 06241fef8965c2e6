"""A forked bound method of a module runs on a fresh, uninitialised instance of its class.

fork rebinds a module's bound method to a new instance of its class (as
unpickling it without its state would), so the method sees none of the module's
attributes. It breaks MODULE-METHOD-1: "A module's own methods MUST be forkable
as bound methods that see the module's attributes".
"""

import inspect
import types
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("MODULE-METHOD-1")


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if inspect.ismethod(func) and isinstance(func.__self__, ref.Module):
        fresh = object.__new__(type(func.__self__))
        func = types.MethodType(func.__func__, fresh)
    return ref.fork(func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("module-methods-lose-self", fork=fork)
