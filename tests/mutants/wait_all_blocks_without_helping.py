"""wait_all blocks until its futures are done without running any still queued itself.

``fw.wait`` runs a queued task on the waiting thread (help-while-waiting), but
``wait_all`` just blocks on a gate completed by the futures' callbacks, as a
condition-variable wait_all does: tasks of the pool that wait_all on subtasks
still queued behind them hold every worker, and nothing runs.

It breaks NEST-ANY-POOL-1: "In scripted code, tasks that fork subtasks and wait
on them MUST all complete, [...] however many threads the implementation runs
tasks on".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl import _api
from reference_impl._callbacks import Entry, add, countdown
from reference_impl._core import _DONE
from reference_impl._thread_state import local
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "NEST-ANY-POOL-1",
    slow=True,  # its deadlocked pools hang until their deadline
)


def wait_all(futures: list[Any], /) -> list[Any]:
    checked = _api._check_futures("wait_all", futures)
    if any(future._state != _DONE for future in checked):
        gate: Any = ref.Future()  # the mutation: no sources (_args), so nothing is helped

        def one_done(future: Any) -> None:
            if future._exception is not None:
                gate._settle(None, None)
            else:
                all_done(future)

        all_done = countdown(len(checked), lambda: gate._settle(None, None))
        for future in checked:
            add(future, Entry(one_done))
        thread = local.state
        if thread.run is not None:
            thread.run.wait_until_done(gate)
        else:
            gate._wait_until_done(thread)
    for future in checked:
        if future._state == _DONE and future._exception is not None:
            future._outcome()
    return [future._value for future in checked]


def adapter() -> Adapter:
    return mutant("wait-all-blocks-without-helping", wait_all=wait_all)
