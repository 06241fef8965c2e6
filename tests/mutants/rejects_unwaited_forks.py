"""A compiled function that returns without waiting on a fork (and without returning it) raises."""

from typing import Any

from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._calls import Call, Routes


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
