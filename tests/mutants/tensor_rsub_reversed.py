"""int - tensor computes tensor - int: the reflected subtraction has its operands swapped."""

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("TRACE-TENSOR-1")


def _rsub_swapped(self: ref.Tensor, other: object) -> ref.Tensor:
    return self - other


def adapter() -> Adapter:
    # the mutant runs in a suite process of its own: patching the class is enough
    ref.Tensor.__rsub__ = _rsub_swapped  # type: ignore[method-assign]
    return mutant("tensor-rsub-reversed")
