"""While tracing, a forked body that returns no tensor is recorded as a fork giving its input."""

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
