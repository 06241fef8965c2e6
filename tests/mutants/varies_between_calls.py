"""Every second call of a compiled function hands its forks' results out in reverse fork order.

A runtime whose results depend on state left by the previous call (here, which
end of its list of forks a wait takes from). It breaks DET-PURE-1: "A program
whose forked functions are pure [...] MUST give the same result on every run,
and the result of plain Python".
"""

from typing import Any

from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._calls import Call, MatchingCall, Routes
from tests.mutants._contract import contract

CONTRACT = contract(
    "DET-PURE-1",
    extras={
        "ERR-BASE-EXCEPTION-1": "every second scripted call of the probe gets its three forks' "
        "results in reverse order",
    },
)


class AlternatingCall(MatchingCall):
    lifo = True

    def wait(self, future: Any) -> Any:
        if self.number % 2 == 0:  # first, third... call: as on the reference
            return Call.wait(self, future)
        return super().wait(future)


def adapter() -> Adapter:
    routes = Routes(AlternatingCall)
    return mutant("varies-between-calls", fork=routes.fork, wait=routes.wait, script=routes.script)
