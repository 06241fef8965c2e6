"""int - tensor computes tensor - int: the reflected subtraction has its operands swapped.

``Tensor.__rsub__`` written as ``self - other``, copied from ``__radd__`` and
``__rmul__``, for which the order does not matter. It breaks TRACE-TENSOR-1: the
three operators "MUST work on such tensors elementwise, [...] between a tensor
and a Python int on either side".
"""

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "TRACE-TENSOR-1",
    extras={
        "TRACE-RERUN-1": "its probe replays int - tensor on new inputs",
    },
)


def _rsub_swapped(self: ref.Tensor, other: object) -> ref.Tensor:
    return self - other


def adapter() -> Adapter:
    # the mutant runs in a suite process of its own: patching the class is enough
    ref.Tensor.__rsub__ = _rsub_swapped  # type: ignore[method-assign]
    return mutant("tensor-rsub-reversed")
