"""Calling a scripted function converts its arguments: futures inside tuples and dicts are waited.

A compiler that converts Python containers into its own values at the boundary
may do this; the futures inside arrive as their values.

It breaks FUTURE-CONTAINERS-1: futures "MUST be usable inside tuples [...],
dicts [...] and optionals [...]: [...] as arguments of scripted functions called
from plain Python. Each future in them stays the future it was".
"""

import functools
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import futures_waited_in_containers, mutant
from tests.mutants._contract import contract

CONTRACT = contract("FUTURE-CONTAINERS-1")


def script(obj: Any, **options: Any) -> Any:
    scripted = ref.script(obj, **options)
    if isinstance(obj, ref.Module):
        return scripted

    @functools.wraps(obj)
    def call(*args: Any, **kwargs: Any) -> Any:
        args = tuple(futures_waited_in_containers(arg) for arg in args)
        kwargs = {key: futures_waited_in_containers(value) for key, value in kwargs.items()}
        return scripted(*args, **kwargs)

    return call


def adapter() -> Adapter:
    return mutant("script-resolves-nested-futures", script=script)
