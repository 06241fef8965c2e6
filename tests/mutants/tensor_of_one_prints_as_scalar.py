"""A tensor made from a list of one int prints as a scalar: tensor(7), not tensor([7]).

``Tensor.__repr__`` unwraps a one-entry list before formatting it, as a
formatter that squeezes singletons does, so a one-dimensional tensor of one
entry reads like a scalar. Lists of two or more, as in the examples, print as
they should. It breaks TRACE-TENSOR-1: repr() "MUST be tensor(N) for a scalar
and tensor([A, B, ...]) for a list".
"""

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl.tracing.tensor import _format
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("TRACE-TENSOR-1")


def _repr_squeezed(self: ref.Tensor) -> str:
    data = self._data
    if isinstance(data, list) and len(data) == 1:
        data = data[0]
    return f"tensor({_format(data)})"


def adapter() -> Adapter:
    # the mutant runs in a suite process of its own: patching the class is enough
    ref.Tensor.__repr__ = _repr_squeezed  # type: ignore[method-assign]
    return mutant("tensor-of-one-prints-as-scalar")
