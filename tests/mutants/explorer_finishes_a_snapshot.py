"""Under a schedule, the call's end runs the tasks unfinished when it returned, and no more.

The top-level call, before it returns, waits on every task in the run's list up
to the length the list had when it started doing so: a snapshot. Tasks forked
after that, by never-waited tasks and never waited themselves, are left. It
breaks EXPLORER-FINISHES-1: "Tasks the call forks and never waits (and the
tasks they fork) MUST still run, to completion, before the top-level call
returns or raises".
"""

from conformance.adapter import Adapter, Explorer
from reference_impl import default_schedules
from reference_impl.schedules.controlled import ControlledRun
from tests.mutants._base import ScheduleWithTheRest, mutant
from tests.mutants._contract import contract

CONTRACT = contract("EXPLORER-FINISHES-1")


def _run_a_snapshot(self: ControlledRun) -> None:
    me, tasks = self.current, self._tasks
    for index in range(self._unfinished_from, len(tasks)):  # the mutation: len read once
        if not tasks[index].done:
            self._block(me, tasks[index])
            self._switch(me)


def adapter() -> Adapter:
    explorer = Explorer(schedules=default_schedules, use=ScheduleWithTheRest(_run_a_snapshot))
    return mutant("explorer-finishes-a-snapshot", explorer=explorer)
