"""A trace records ``k - t`` as ``t - k``: the reflected subtraction's node has swapped operands.

``__rsub__`` computes ``k - t`` right, then records the node the way
``__sub__`` does, ``sub(self, other)``. Addition and multiplication do not
care; the traced function gives ``t - k`` for ``k - t`` on every new input.
Breaks TRACE-RERUN-1: a traced function called on new inputs "MUST give what
the function gives in plain Python on those inputs".
"""

import operator

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl.tracing.scope import active_scope
from reference_impl.tracing.tensor import _map2, _raw
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("TRACE-RERUN-1")


def _rsub(self: ref.Tensor, other: object) -> ref.Tensor:
    result = ref.Tensor._wrap(_map2(operator.sub, _raw(other), self._data))
    scope = active_scope()
    if scope is not None:
        scope.record("aten::sub", [self, other], result, "Tensor")  # the mutation: swapped
    return result


def adapter() -> Adapter:
    # the mutant runs in a suite process of its own: patching the class is enough
    ref.Tensor.__rsub__ = _rsub  # type: ignore[method-assign]
    return mutant("trace-rsub-recorded-swapped")
