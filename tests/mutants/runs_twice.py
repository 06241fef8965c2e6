"""The task runs twice; the second result is the one waited. (Traces are recorded as usual.)

A retry wrapper that runs a task again once it has ended, without looking at how
it ended, and keeps the second result. It breaks WAIT-SAME-OBJECT-1: "the task
MUST run exactly once however often it is waited".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl.tracing.scope import active_scope
from tests.mutants import _reasons as reasons
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "WAIT-SAME-OBJECT-1",
    extras={
        "ERR-BASE-EXCEPTION-1": reasons.SIDE_EFFECTS_TWICE,
        "NEST-LOOP-1": reasons.SIDE_EFFECTS_TWICE,
        "ASYNC-RETURNS-EARLY-1": "the probe's subtask, run again, reports the first run's end",
        "ASYNC-STARTS-1": reasons.SIDE_EFFECTS_TWICE,
        "CONTEXT-INHERITED-1": reasons.TWICE_SEEN,
        "CONTEXT-ISOLATED-1": reasons.TWICE_SEEN,
        "DET-HAPPENS-BEFORE-1": reasons.SIDE_EFFECTS_TWICE,
        "DET-NO-COPY-1": reasons.SIDE_EFFECTS_TWICE,
        "DET-PURE-1": "the generated programs check that each task they wait on ran once",
        "ERR-NESTED-1": "every level runs twice: the tree makes more calls than it has tasks",
        "ERR-SCRIPT-AT-WAIT-1": "the probe notes each fork's return, which happens twice",
        "FUTURE-RETURNED-1": "the task's second run returns another future than the one kept",
        "LIFECYCLE-EXIT-1": "the program's task prints its line twice",
        "NEST-ANY-POOL-1": reasons.CHAIN_TWICE,
        "NEST-LEVELS-1": reasons.CHAIN_TWICE,
        "NEST-UNWAITED-RUNS-1": reasons.SIDE_EFFECTS_TWICE,
    },
    slow=True,  # its runaway chains (2**1000 runs) outlive their deadline
)


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    def twice(*a: Any, **k: Any) -> Any:
        func(*a, **k)
        return func(*a, **k)

    tracing = active_scope() is not None
    return ref.fork(twice if callable(func) and not tracing else func, *args, **kwargs)


def adapter() -> Adapter:
    # not the dynamic profile: fib(12) would run 2**12 times longer, and time would decide
    return mutant("runs-twice", profiles={"core", "async", "trace"}, fork=fork)
