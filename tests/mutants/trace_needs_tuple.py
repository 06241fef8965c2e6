"""trace takes its example inputs only as a tuple: a single tensor raises TypeError.

It breaks TRACE-API-1: "fw.trace(func, example_inputs) MUST accept as
example_inputs a tuple of tensors, one for each parameter of func, or a single
tensor for a func of one parameter".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("TRACE-API-1")


def trace(func: Any, example_inputs: Any) -> Any:
    if not isinstance(example_inputs, tuple):
        raise TypeError("trace() takes its example inputs as a tuple")
    return ref.trace(func, example_inputs)


def adapter() -> Adapter:
    return mutant("trace-needs-tuple", trace=trace)
