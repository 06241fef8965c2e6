"""While tracing, a forked body that returns a future is recorded as giving that future's
result.

A tracer that adopts a future a forked body returns: it waits on it inside the
fork's subgraph and records the tensor, so the fork gives a tensor where the
program's fork gave a future. It breaks TRACE-NO-DATA-1: "When a forked function
returns something that is not a tensor, such as [...] a future (one it forked,
say), fw.trace MUST raise an exception".
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

        def adopting(*a: Any, **k: Any) -> Any:
            result = body(*a, **k)
            # the mutation: a returned future stands for its result
            return ref.wait(result) if isinstance(result, ref.Future) else result

        func = adopting
    return ref.fork(func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("trace-adopts-returned-futures", fork=fork)
