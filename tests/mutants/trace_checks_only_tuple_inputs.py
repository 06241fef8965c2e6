"""trace checks its example inputs only when they come in a tuple.

The single-input path wraps a bare example input in a tuple after the check, so
an ``int``, ``None`` or a string given alone is traced as if it were the tensor
it should be. It breaks TRACE-INPUTS-1: "fw.trace MUST raise an exception (of
any type) when an example input is not a tensor".
"""

import importlib
from collections.abc import Sequence
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("TRACE-INPUTS-1")

#: the module, not the function of the same name that reference_impl exports
_trace: Any = importlib.import_module("reference_impl.tracing.trace")


def _unchecked(inputs: Sequence[Any], expected: int | None, what: str) -> list[Any]:
    return list(inputs)


def trace(func: Any, example_inputs: Any) -> Any:
    if isinstance(example_inputs, tuple):
        return ref.trace(func, example_inputs)
    check = _trace._check_inputs
    _trace._check_inputs = _unchecked  # the mutation: the single-input path skips the check
    try:
        return ref.trace(func, example_inputs)
    finally:
        _trace._check_inputs = check


def adapter() -> Adapter:
    return mutant("trace-checks-only-tuple-inputs", trace=trace)
