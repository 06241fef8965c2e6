"""Under a schedule, tasks the call forked and never waited are dropped when it returns.

A controlled run that ends with its top-level call and drops the tasks still
queued, as a scheduler that discards its queue on the way out does. It breaks
EXPLORER-FINISHES-1: "Tasks the call forks and never waits (and the tasks they
fork) MUST still run, to completion, before the top-level call returns or
raises".
"""

from conformance.adapter import Adapter, Explorer
from reference_impl import default_schedules
from reference_impl.schedules.controlled import ControlledRun
from tests.mutants._base import ScheduleWithTheRest, mutant
from tests.mutants._contract import contract

CONTRACT = contract("EXPLORER-FINISHES-1")


def _return_at_once(run: ControlledRun) -> None:
    """The mutation: the call returns without running the tasks nobody waited on."""


def adapter() -> Adapter:
    explorer = Explorer(schedules=default_schedules, use=ScheduleWithTheRest(_return_at_once))
    return mutant("explorer-drops-unwaited-tasks", explorer=explorer)
