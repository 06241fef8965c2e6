"""Tensor arithmetic wraps around at 32 bits, as arithmetic on an int32 store does.

``+``, ``-`` and ``*`` compute in a fixed 32-bit integer (the default integer of
numpy on Windows before 2.0, or ``array('i')``), so a result beyond 2**31 - 1
comes back wrapped. It breaks TRACE-TENSOR-1: the three operators "MUST work on
such tensors elementwise", with "the entries written as Python writes an int".
"""

import importlib
from collections.abc import Callable
from typing import Any

from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("TRACE-TENSOR-1")

#: the module, not the function of the same name that reference_impl.tracing exports
_tensor = importlib.import_module("reference_impl.tracing.tensor")


def _int32(x: Any) -> Any:
    if isinstance(x, int) and not isinstance(x, bool):
        return (x + 2**31) % 2**32 - 2**31
    return x


def _wrapping(op: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    return lambda a, b: _tensor._map1(_int32, op(a, b))


def adapter() -> Adapter:
    # the mutant runs in a suite process of its own: patching the table is enough
    for kind in ("aten::add", "aten::sub", "aten::mul"):
        _tensor.OPS[kind] = _wrapping(_tensor.OPS[kind])
    return mutant("tensor-int32-wraps")
