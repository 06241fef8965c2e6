"""A wait deep in a stack blocks its thread instead of running the task elsewhere.

A guard against ``RecursionError`` done halfway: past ``MAX_NESTED`` nested tasks
a wait no longer runs the task it waits on, nor starts a thread for it; it
blocks, and leaves the task to the pool. Every worker that reaches that depth
blocks too, so a chain of scripted forks deeper than the pool's threads times
``MAX_NESTED`` deadlocks (a plain fork, with no pool, still recurses).

It breaks NEST-LEVELS-1 ("A task blocked in wait MUST NOT keep the tasks it
waits on from running, however many tasks are waiting") and NEST-ANY-POOL-1
(tasks that fork subtasks and wait on them "MUST all complete, for any depth of
nesting").
"""

from typing import Any

import reference_impl._core as core
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "NEST-LEVELS-1",
    "NEST-ANY-POOL-1",
    extras={
        "ERR-NESTED-1": "its probes nest 1,000 levels, past where waits block",
    },
    slow=True,  # its blocked workers stay so: each timed-out probe needs a new worker
)


def _nowhere(self: Any) -> None:
    return None


def adapter() -> Adapter:
    core.Core.run_elsewhere = _nowhere  # type: ignore[method-assign]
    return mutant("blocks-when-deep")
