"""trace takes a bare example tensor only for a callable of one parameter, and counts a
module's on its class's ``forward``, ``self`` included.

The check reads ``type(func).forward``, the unbound function, so a module whose
``forward`` takes one tensor looks like it takes two, and tracing it from a bare
tensor raises TypeError. It breaks TRACE-API-1: trace "MUST accept as
example_inputs [...] a single tensor for a func of one parameter; and as func a
function or an instance of a fw.Module subclass".
"""

import inspect
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("TRACE-API-1")


def trace(func: Any, example_inputs: Any) -> Any:
    if not isinstance(example_inputs, tuple):
        target: Any = func if inspect.isroutine(func) else type(func).forward  # the mutation
        if target.__code__.co_argcount != 1:
            raise TypeError("trace(): a single example tensor is for a function of one parameter")
        example_inputs = (example_inputs,)
    return ref.trace(func, example_inputs)


def adapter() -> Adapter:
    return mutant("trace-bare-tensor-counts-self", trace=trace)
