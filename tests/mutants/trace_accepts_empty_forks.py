"""While tracing, a forked body that returns no tensor is recorded as a fork giving its input.

A tracer that keeps the graph well formed by giving such a fork one of its
tensor inputs as output, instead of refusing it. It breaks TRACE-NO-DATA-1:
"When a forked function returns something that is not a tensor [...], fw.trace
MUST raise an exception (of any type) instead of returning a traced function".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl.tracing.scope import active_scope
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("TRACE-NO-DATA-1")


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if active_scope() is not None:
        body = func

        def some_tensor(*a: Any, **k: Any) -> Any:
            result = body(*a, **k)
            tensors = [x for x in (*a, *k.values()) if isinstance(x, ref.Tensor)]
            return result if isinstance(result, ref.Tensor) or not tensors else tensors[0]

        func = some_tensor
    return ref.fork(func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("trace-accepts-empty-forks", fork=fork)
