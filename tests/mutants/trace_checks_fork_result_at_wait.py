"""While tracing, a fork's result is checked where it is waited: a fork nobody waits on is not.

As ``torch.jit.trace`` does: the wait's output must be a tensor, so a fork whose
body returns ``None`` or an ``int`` fails the trace when it is waited, while one
that is never waited is recorded (with one of its tensor inputs standing in for
its output). It breaks TRACE-NO-DATA-1: "When a forked function returns
something that is not a tensor [...], ``fw.trace`` MUST raise an exception (of
any type) instead of returning a traced function".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl.tracing import TracingError, active_scope
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("TRACE-NO-DATA-1")

#: id(future) -> the future, for forks of a trace whose body returned no tensor. Kept
#: alive, so that no later future takes an id over.
_no_data: dict[int, Any] = {}


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if active_scope() is None:
        return ref.fork(func, *args, **kwargs)
    returned_no_tensor: list[bool] = []

    def body(*a: Any, **k: Any) -> Any:
        result = func(*a, **k)
        if isinstance(result, ref.Tensor):
            return result
        returned_no_tensor.append(True)  # the mutation: checked later, at the wait
        tensors = [x for x in (*a, *k.values()) if isinstance(x, ref.Tensor)]
        return tensors[0] if tensors else ref.tensor(0)

    future = ref.fork(body, *args, **kwargs)
    if returned_no_tensor:
        _no_data[id(future)] = future
    return future


def wait(future: Any, /) -> Any:
    if active_scope() is not None and id(future) in _no_data:
        raise TracingError("the forked function returned no tensor: nothing to record")
    return ref.wait(future)


def adapter() -> Adapter:
    return mutant("trace-checks-fork-result-at-wait", fork=fork, wait=wait)
