"""fork's first parameter is an ordinary one: a keyword named ``func`` collides with it.

``def fork(func, *args, **kwargs)`` without ``/`` is the signature most
wrappers write: the call ``fork(f, func=1)`` then fails with "got multiple
values for argument 'func'" instead of passing ``func=1`` on to ``f``.

It breaks FORK-CALLS-1 ("Waiting on the future of fork(func, *args, **kwargs)
MUST give what func(*args, **kwargs) returns") and KWARGS-PERMUTATIONS-1
(keyword arguments "MUST reach the function exactly as in a direct call").
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "FORK-CALLS-1",
    "KWARGS-PERMUTATIONS-1",
    extras={
        "SCRIPT-SAME-RESULT-1": "the probe forks with a keyword named func from scripted code",
    },
)


def fork(func: Any, *args: Any, **kwargs: Any) -> Any:  # the mutation: no "/"
    return ref.fork(func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("fork-func-by-keyword", fork=fork)
