"""A compiled function's waits give its forks' results in fork order, whichever future is waited."""

from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._calls import MatchingCall, Routes


def adapter() -> Adapter:
    routes = Routes(MatchingCall)
    return mutant(
        "matches-results-in-fork-order",
        fork=routes.fork,
        wait=routes.wait,
        script=routes.script,
    )
