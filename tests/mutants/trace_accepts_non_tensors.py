"""trace accepts example inputs that are not tensors, and records a constant function for them.

A tracer that takes whatever it cannot trace for a constant. It breaks
TRACE-INPUTS-1: "fw.trace MUST raise an exception (of any type) when an example
input is not a tensor".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants import _reasons as reasons
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "TRACE-INPUTS-1",
    maybe={
        "DET-PURE-1": reasons.GENERATED_BODIES_WITHOUT_TENSORS,
    },
)


def _zero() -> Any:
    return ref.tensor(0)


def trace(func: Any, example_inputs: Any) -> Any:
    inputs = example_inputs if isinstance(example_inputs, tuple) else (example_inputs,)
    if not all(isinstance(x, ref.Tensor) for x in inputs):
        return ref.trace(_zero, ())
    return ref.trace(func, example_inputs)


def adapter() -> Adapter:
    return mutant("trace-accepts-non-tensors", trace=trace)
