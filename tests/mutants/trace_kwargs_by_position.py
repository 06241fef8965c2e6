"""While tracing, fork passes keyword arguments by position, in the order they were given.

The subgraph's inputs are recorded in the order the call gave them, keywords
after positions, with no names. It breaks TRACE-KWARGS-1: "Keyword arguments
given to a traced fork MUST be bound into its subgraph by name".
"""

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
