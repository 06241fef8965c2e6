"""A compiled function that returns without waiting on a fork (and without returning it) raises.

Structured concurrency enforced, as a task group refuses orphans: a compiled
function that returns while a fork of its own was neither waited nor returned
raises. It breaks NEST-UNWAITED-1: "returning without waiting on them MUST NOT
be an error".
"""

from typing import Any

from conformance.adapter import Adapter
from tests.mutants import _reasons as reasons
from tests.mutants._base import mutant
from tests.mutants._calls import Call, Routes
from tests.mutants._contract import contract

CONTRACT = contract(
    "NEST-UNWAITED-1",
    extras={
        "NEST-ANY-POOL-1": (
            "its probe's tasks wait with the future's wait() method, which this mutant does not "
            "count as a wait"
        ),
        "WAIT-SAME-OBJECT-1": (
            "its probe's scripted code leaves its forks for other threads to wait on"
        ),
        "DET-PURE-1": "the generated programs leave forks unwaited",
        "ERR-WAIT-AGAIN-1": reasons.WAITS_AGAIN_IN_A_TASK,
        "FUTURE-ARGUMENT-1": "the caller never waits on the future its tasks wait on",
        "LIFECYCLE-EXIT-1": reasons.UNWAITED_CHILDREN,
        "NEST-UNWAITED-RUNS-1": "the example forks a task it never waits on",
        "SCRIPT-IGNORE-1": "the probe leaves a fork unwaited",
    },
)


class StrictCall(Call):
    def finish(self, result: Any) -> None:
        returned = list(result) if isinstance(result, list | tuple) else [result]
        forgotten = [
            future
            for future in self.forks
            if id(future) not in self.waited and not any(future is r for r in returned)
        ]
        if forgotten:
            raise RuntimeError(f"scripted code returned, {len(forgotten)} fork(s) never waited")


def adapter() -> Adapter:
    routes = Routes(StrictCall)
    return mutant(
        "rejects-unwaited-forks", fork=routes.fork, wait=routes.wait, script=routes.script
    )
