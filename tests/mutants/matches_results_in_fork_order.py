"""A compiled function's waits give its forks' results in fork order, whichever future is waited.

A compiler that pairs the forks and waits of a compiled function in program
order: the first wait gets the first fork's result. It breaks NEST-LOOP-1:
"Forks made in a loop and kept in a list[fw.Future[T]] MUST each give their own
task's result, whatever order they are waited in".
"""

from conformance.adapter import Adapter
from tests.mutants import _reasons as reasons
from tests.mutants._base import mutant
from tests.mutants._calls import MatchingCall, Routes
from tests.mutants._contract import contract

CONTRACT = contract(
    "NEST-LOOP-1",
    extras={
        "DET-HAPPENS-BEFORE-1": "the probe waits on its forks out of order",
        "DET-PURE-1": "the generated programs wait on their forks in orders of their own",
        "ERR-SCRIPT-AT-WAIT-1": "the probe's scripted code waits on its forks out of order",
        "ERR-WAIT-AGAIN-1": reasons.WAITS_AGAIN_IN_A_TASK,
        "FORK-RETURNS-FUTURE-1": "the probe's caller waits on its forks out of order",
        "FUTURE-ARGUMENT-1": "the caller waits on its second and third forks, not the first",
        "FUTURE-CONTAINERS-1": "its probe 4 waits on the forks it gave its first fork to, and "
        "on the first only after them",
        "FUTURE-RETURNED-1": "its probe 4 waits on the fork it gave its first fork to, and on "
        "the first only after it",
        "NEST-UNWAITED-RUNS-1": "the probe waits on some forks and not others",
        "WAIT-SAME-OBJECT-1": "probe 5 waits on each of 20,000 forks as soon as it is made",
    },
)


def adapter() -> Adapter:
    routes = Routes(MatchingCall)
    return mutant(
        "matches-results-in-fork-order",
        fork=routes.fork,
        wait=routes.wait,
        script=routes.script,
    )
