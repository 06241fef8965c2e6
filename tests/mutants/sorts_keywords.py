"""fork hands the task its keyword arguments sorted by name, not in the order given.

The runtime keeps a task's call in a canonical form (keywords sorted, as a
cache key or a serialised call would have them): named parameters are bound
the same either way, but a ``**kwargs`` parameter sees another order than a
direct call gives.

It breaks KWARGS-PERMUTATIONS-1: "Positional and keyword arguments given to fork
MUST reach the function exactly as in a direct call, in every mix and order".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("KWARGS-PERMUTATIONS-1")


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    return ref.fork(func, *args, **dict(sorted(kwargs.items())))  # the mutation


def adapter() -> Adapter:
    return mutant("sorts-keywords", fork=fork)
