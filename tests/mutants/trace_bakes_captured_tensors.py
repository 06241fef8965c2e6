"""A traced fork records a tensor it captures from the enclosing code as a constant.

Looking an object up only in the scope being recorded, not in the enclosing ones, is
enough for forks whose tensors come in as arguments; a forked closure (or a lambda)
that uses a tensor of the code around it gets that tensor's example value baked into
its subgraph, so the traced function replays it on new inputs.

It breaks TRACE-RERUN-1: "Calling a traced function on new inputs MUST give what
the function gives in plain Python on those inputs".
"""

from typing import Any

from conformance.adapter import Adapter
from reference_impl.tracing.scope import Scope
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("TRACE-RERUN-1")


def value_of(self: Any, obj: object) -> Any:
    entry = self.values.get(id(obj))
    if entry is not None:
        return entry[1]
    return self._constant(obj)  # the mutation: no lifting from an enclosing scope


def adapter() -> Adapter:
    Scope.value_of = value_of  # type: ignore[method-assign]
    return mutant("trace-bakes-captured-tensors")
