"""Forking a module calls its forward with the positional arguments only.

A launcher written for a forward that takes tensors by position calls
``module.forward(*args)``. It breaks MODULE-FORK-1: "Forking a module MUST call
its forward with the given arguments".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "MODULE-FORK-1",
    extras={
        "KWARGS-UNKNOWN-1": (
            "its probe forks a module with an unknown keyword, which is dropped instead of refused"
        ),
        "TRACE-KWARGS-1": (
            "its probe forks a module with keywords while tracing, which never arrive"
        ),
        "FORK-SCRIPTED-1": "the probe forks a scripted module with keyword arguments",
    },
)


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if isinstance(func, ref.Module):
        return ref.fork(func, *args)
    return ref.fork(func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("module-fork-drops-kwargs", fork=fork)
