"""The task runs twice; the second result is the one waited. (Traces are recorded as usual.)"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl.tracing.scope import active_scope
from tests.mutants._base import mutant


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    def twice(*a: Any, **k: Any) -> Any:
        func(*a, **k)
        return func(*a, **k)

    tracing = active_scope() is not None
    return ref.fork(twice if callable(func) and not tracing else func, *args, **kwargs)


def adapter() -> Adapter:
    # not the dynamic profile: fib(12) would run 2**12 times longer, and time would decide
    return mutant("runs-twice", profiles={"core", "async", "trace"}, fork=fork)
