"""fork forgets keyword arguments.

A launcher that hands its worker the call as ``(func, args)``, as a
``submit(fn, *args)`` wrapper written without ``**kwargs`` does: keyword
arguments are lost on the way, and the parameters they named take their
defaults, or the call fails. It breaks FORK-CALLS-1 ("Waiting on the future of
fork(func, *args, **kwargs) MUST give what func(*args, **kwargs) returns"),
KWARGS-PERMUTATIONS-1 (keyword arguments "MUST reach the function exactly as in
a direct call") and KWARGS-DEFAULTS-1, whose examples leave some parameters to
their defaults and pass the others by keyword.
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants import _reasons as reasons
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "FORK-CALLS-1",
    "KWARGS-PERMUTATIONS-1",
    "KWARGS-DEFAULTS-1",
    extras={
        "DET-NO-COPY-1": "its probe passes the lists by keyword",
        "DET-PURE-1": "the generated programs pass keyword arguments",
        "FORK-CALLABLES-1": reasons.KWARGS,
        "FORK-SCRIPTED-1": reasons.KWARGS,
        "KWARGS-UNKNOWN-1": "the unknown keyword is dropped before it can raise TypeError",
        "MODULE-FORK-1": reasons.KWARGS,
        "SCRIPT-SAME-RESULT-1": reasons.SCRIPTED_BY_KEYWORD,
        "TRACE-FORK-WAIT-1": reasons.KWARGS,
        "TRACE-KWARGS-1": reasons.KWARGS,
    },
)


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    return ref.fork(func, *args)


def adapter() -> Adapter:
    return mutant("drops-kwargs", fork=fork)
