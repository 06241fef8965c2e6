"""While tracing, only the first wait of a future is recorded: later waits reuse its value.

Memoised: the value a future gave is looked up instead of waited again, so a
traced function that waits twice on one future holds one wait node.

It breaks TRACE-FORK-WAIT-1: "For every wait that ran while tracing, the graph
MUST hold one wait node".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl.tracing import active_scope
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "TRACE-FORK-WAIT-1",
    extras={
        "TRACE-GRAPH-NODES-1": "its probe waits twice on one future and lists the wait nodes",
    },
)

#: id(scope) -> (the scope, the futures waited in it by id). Both are kept alive, so that
#: no later trace's scope or future takes an id over and looks waited already.
_recorded: dict[int, tuple[object, dict[int, Any]]] = {}


def wait(future: Any, /) -> Any:
    scope = active_scope()
    if scope is not None and isinstance(future, ref.Future):
        _, waited = _recorded.setdefault(id(scope), (scope, {}))
        if id(future) in waited:
            return future.value()  # the mutation: not recorded again
        waited[id(future)] = future
    return ref.wait(future)


def adapter() -> Adapter:
    return mutant("trace-records-first-wait", wait=wait)
