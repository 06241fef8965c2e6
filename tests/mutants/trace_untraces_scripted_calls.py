"""A scripted function called while tracing runs untraced: its result is recorded as a constant.

A top-level scripted call (one not made by a task) starts from a fresh
runtime state, and that state has no trace in it: the compiled function runs
for real, its forks on the pool, and the tensor it returns is one the tracer
never saw, so the graph holds it as a constant. A scripted function forked
while tracing runs in the fork's body, under the trace, and is recorded as it
should be. Breaks TRACE-RERUN-1: the traced function, called on new inputs,
"MUST give what the function gives in plain Python on those inputs".
"""

import functools
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._thread_state import local
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("TRACE-RERUN-1")


def script(obj: Any, **options: Any) -> Any:
    scripted = ref.script(obj, **options)
    if isinstance(obj, ref.Module):
        return scripted

    @functools.wraps(obj)
    def fresh_state(*args: Any, **kwargs: Any) -> Any:
        thread = local.state
        if thread.current is not None or thread.scripted:  # not a top-level call
            return scripted(*args, **kwargs)
        outer, thread.scope = thread.scope, None  # the mutation: the trace is left behind
        try:
            return scripted(*args, **kwargs)
        finally:
            thread.scope = outer

    return fresh_state


def adapter() -> Adapter:
    return mutant("trace-untraces-scripted-calls", script=script)
