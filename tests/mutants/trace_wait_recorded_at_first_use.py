"""A trace records a wait when its value is first used, not when the wait runs.

While tracing, the forked body has run already, so ``wait`` just hands its
value back and notes that a wait node is owed; the node is written when an
operation first reads that value (or the graph returns it). Every wait node
is there and reads its fork's future, but an operation made between a wait and
the first use of its value comes before the wait in the graph. Breaks
TRACE-GRAPH-NODES-1: the nodes come "in the order their operations ran while
tracing".
"""

from typing import Any

from conformance.adapter import Adapter
from reference_impl.tracing.graph import WAIT, Value
from reference_impl.tracing.scope import Scope, TracingError
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("TRACE-GRAPH-NODES-1")

_value_of = Scope.value_of


def _owed(scope: Scope) -> dict[int, list[Any]]:
    owed: dict[int, list[Any]] | None = scope.__dict__.get("owed_waits")
    if owed is None:
        owed = scope.__dict__["owed_waits"] = {}
    return owed


def wait(self: Scope, future: Any) -> Any:
    if not self.tracks(future):
        raise TracingError("wait() on a future that was not forked inside this trace")
    result = future._outcome()
    entry = _owed(self).setdefault(id(result), [result])
    entry.append(future)  # the mutation: the node is written at the value's first use
    return result


def value_of(self: Scope, obj: object) -> Value:
    entry = _owed(self).pop(id(obj), None)
    if entry is not None:
        for future in entry[1:]:
            node = self.graph.add_node(WAIT, [_value_of(self, future)], ["Tensor"])
            self.bind(obj, node.outputs[0])
    return _value_of(self, obj)


def adapter() -> Adapter:
    # the mutant runs in a suite process of its own: patching the class is enough
    Scope.wait = wait  # type: ignore[method-assign]
    Scope.value_of = value_of  # type: ignore[method-assign]
    return mutant("trace-wait-recorded-at-first-use")
