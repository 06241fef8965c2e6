"""fork passes the first two positional arguments in the wrong order.

A launcher that builds the call from a stack popped in the wrong order. It
breaks KWARGS-PERMUTATIONS-1: "Positional and keyword arguments given to fork
MUST reach the function exactly as in a direct call".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants import _reasons as reasons
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "KWARGS-PERMUTATIONS-1",
    extras={
        "FUTURE-WAIT-ALL-1": reasons.TWO_POSITIONAL,
        "FUTURE-WAIT-ALL-FIRST-1": reasons.TWO_POSITIONAL,
        "DET-NO-COPY-1": reasons.TWO_POSITIONAL,
        "DET-PURE-1": "the generated programs pass arguments by position",
        "ERR-AT-WAIT-1": reasons.TWO_POSITIONAL,
        "ERR-NESTED-1": reasons.TWO_POSITIONAL,
        "FORK-BUILTINS-1": reasons.TWO_POSITIONAL,
        "FORK-CALLS-1": reasons.TWO_POSITIONAL,
        "FUTURE-ANNOTATIONS-1": reasons.TWO_POSITIONAL,
        "FUTURE-CONTAINERS-1": reasons.TWO_POSITIONAL,
        "FUTURE-ARGUMENT-1": "consume(fut, 10) runs as consume(10, fut): it waits on 10",
        "KWARGS-DEFAULTS-1": reasons.TWO_POSITIONAL,
        "MODULE-FORK-1": reasons.TWO_POSITIONAL,
        "MODULE-RETURNS-FUTURES-1": reasons.TWO_POSITIONAL,
        "SCRIPT-FORKS-TRACED-1": "its probe forks the traced module spread(y, x), which runs as "
        "spread(x, y)",
        "SCRIPT-SAME-RESULT-1": "partial_sum(half, 0) is an empty sum, scripted or not",
        "TRACE-NESTED-1": "its probe forks nest(x, depth), which runs as nest(depth, x)",
    },
)


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if len(args) >= 2:
        args = (args[1], args[0], *args[2:])
    return ref.fork(func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("swaps-args", fork=fork)
