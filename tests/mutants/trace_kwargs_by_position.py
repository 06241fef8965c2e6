"""While tracing, fork passes keyword arguments by position, in the order they were given."""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl.tracing.scope import active_scope
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("TRACE-KWARGS-1")


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if active_scope() is not None:
        return ref.fork(func, *args, *kwargs.values())
    return ref.fork(func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("trace-kwargs-by-position", fork=fork)
