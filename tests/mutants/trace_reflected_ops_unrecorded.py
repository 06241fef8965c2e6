"""A trace records ``t + 1`` but not ``1 + t``: reflected operators compute without recording.

The tracer hooks the tensor's operators, but the reflected ones (``__radd__``,
``__rsub__``, ``__rmul__``) were written as plain arithmetic on the data. The
traced run computes the right values; the graph holds the result of ``2 * t``
as a constant, so the traced function gives the example's value on every
input. Breaks TRACE-RERUN-1: a traced function called on new inputs "MUST give
what the function gives in plain Python on those inputs".
"""

import operator
from collections.abc import Callable
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl.tracing.tensor import _map2, _raw
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("TRACE-RERUN-1")


def _unrecorded(op: Callable[[Any, Any], Any]) -> Callable[[ref.Tensor, object], ref.Tensor]:
    def reflected(self: ref.Tensor, other: object) -> ref.Tensor:
        return ref.Tensor._wrap(_map2(op, _raw(other), self._data))  # the mutation: not recorded

    return reflected


def adapter() -> Adapter:
    # the mutant runs in a suite process of its own: patching the class is enough
    ref.Tensor.__radd__ = _unrecorded(operator.add)  # type: ignore[method-assign]
    ref.Tensor.__rsub__ = _unrecorded(operator.sub)  # type: ignore[method-assign]
    ref.Tensor.__rmul__ = _unrecorded(operator.mul)  # type: ignore[method-assign]
    return mutant("trace-reflected-ops-unrecorded")
