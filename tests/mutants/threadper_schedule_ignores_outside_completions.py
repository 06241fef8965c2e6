"""threadper's schedules never wake a task whose future a thread outside the schedule completes.

SURVIVOR: it passes the whole spec while it breaks the rules its CONTRACT names; the
program at the end of this docstring shows the break.

A variant of the independent thread-per-task implementation: under a
controlled schedule one task holds the baton, and the baton moves only at
forks, waits and task ends, among the schedule's own tasks. When every task
is blocked, nobody holds it; a future completed then by a plain thread (a
created ``fw.Future()`` set by a timer, an RPC reply) makes its waiter ready,
but the variant forgot that case: the waiter is marked ready and nobody hands
it the baton, so the scripted call hangs under every schedule while it
returns without one. It breaks EXPLORER-FINISHES-1 ("Under every schedule, a
top-level scripted call MUST give what it gives without one").

The break (``2`` without a schedule, a hang under ``fifo``; threadper gives ``2`` both)::

    gate = fw.Future()

    def task(x: int) -> int:
        return fw.wait(gate) + x

    @fw.script
    def program(x: int) -> int:
        return fw.wait(fw.fork(task, x))

    threading.Timer(0.2, gate.set_result, (1,)).start()
    with explorer.use("fifo"):
        print(program(1))  # never returns
"""

from tests.mutants import _reasons as reasons
from tests.mutants._contract import contract
from tests.mutants._variants import Edit, Variant

CONTRACT = contract(
    "EXPLORER-FINISHES-1",
    chance="no probe has a task under a schedule wait on a created future that a thread "
    "outside the schedule completes: it passed two whole-spec runs, and failed the rule in "
    "one under the mutant runs' load, at a deadline",
    maybe={
        "ERR-NESTED-1": reasons.THREAD_PER_TASK_UNDER_LOAD,
        "WAIT-SAME-OBJECT-1": reasons.THREAD_PER_TASK_UNDER_LOAD,
    },
)

VARIANT = Variant(
    "threadper",
    Edit(
        "schedules.py",
        old="        self._ready.insert(index, member)\n        if self._running is None:\n"
        "            self._pass_on()\n",
        new="        self._ready.insert(index, member)\n",
    ),
)
adapter = VARIANT.adapter
