"""While tracing, a forked module runs untraced: its result is recorded as a constant.

A tracer that treats modules as opaque leaves runs a forked module with
recording off. It breaks TRACE-MODULE-1: "Forking a fw.Module inside a traced
function MUST record the module's computation in the fork's subgraph".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl.tracing.scope import active_scope, recording
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "TRACE-MODULE-1",
    extras={
        "TRACE-KWARGS-1": (
            "its probe traces a forked module, whose result is recorded as a constant"
        ),
    },
)


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if active_scope() is not None and isinstance(func, ref.Module):
        module = func

        def untraced(*a: Any, **k: Any) -> Any:
            with recording(None):  # type: ignore[arg-type]
                return module(*a, **k)

        func = untraced
    return ref.fork(func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("trace-skips-module-bodies", fork=fork)
