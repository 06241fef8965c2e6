"""A traced function returns what the tracing run returned, whatever its inputs.

A cache keyed on nothing: the traced function gives back the output of the
tracing run. It breaks TRACE-RERUN-1: "Calling a traced function on new inputs
MUST give what the function gives in plain Python on those inputs".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants import _reasons as reasons
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "TRACE-RERUN-1",
    extras={
        "SCRIPT-FORKS-TRACED-1": "the example calls traced functions on another input",
        "TRACE-API-1": reasons.NEW_INPUT,
        "TRACE-FORK-WAIT-1": reasons.NEW_INPUT,
        "TRACE-FORKS-SCRIPTED-1": reasons.NEW_INPUT,
        "TRACE-KWARGS-1": reasons.NEW_INPUT,
        "TRACE-MODULE-1": reasons.NEW_INPUT,
        "TRACE-MODULE-FUTURES-1": reasons.NEW_INPUT,
        "TRACE-UNWAITED-1": reasons.NEW_INPUT,
    },
)


class Replaying(ref.TracedFunction):
    recorded: Any = None

    def __call__(self, *inputs: Any) -> Any:
        return self.recorded


def trace(func: Any, example_inputs: Any) -> Any:
    traced = ref.trace(func, example_inputs)
    inputs = example_inputs if isinstance(example_inputs, tuple) else (example_inputs,)
    recorded = traced(*inputs)
    traced.__class__ = Replaying
    assert isinstance(traced, Replaying)
    traced.recorded = recorded
    return traced


def adapter() -> Adapter:
    return mutant("trace-replays-recorded-output", trace=trace)
