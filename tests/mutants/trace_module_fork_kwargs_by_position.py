"""While tracing, forking a module passes its keyword arguments by position, in the order given.

The tracer records a forked module as a call of its ``forward`` on a flat
list of inputs: the positional arguments, then the keyword values in the
order they were written. Forked functions bind keywords by name as they
should; a module forked with keywords in another order than its parameters
gets them in the wrong places, in the traced run and on every new input.
Breaks TRACE-KWARGS-1: "Keyword arguments given to a traced fork MUST be bound
into its subgraph by name".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl.tracing.scope import Scope
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("TRACE-KWARGS-1")

_fork = Scope.fork


def fork(self: Scope, func: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    if isinstance(func, ref.Module) and kwargs:
        return _fork(self, func, (*args, *kwargs.values()), {})  # the mutation
    return _fork(self, func, args, kwargs)


def adapter() -> Adapter:
    # the mutant runs in a suite process of its own: patching the class is enough
    Scope.fork = fork  # type: ignore[method-assign]
    return mutant("trace-module-fork-kwargs-by-position")
