"""threadper's ``wait_all`` blocks its task's thread without giving back its running slot.

SURVIVOR: it passes the whole spec while it breaks the rules its CONTRACT names; the
program at the end of this docstring shows the break.

A variant of the independent thread-per-task implementation: a task holds one
of a fixed number of running slots and gives it back while it blocks in a
wait, so that the tasks it waits on can run. ``wait_all`` here waits on each
future's condition directly (the future's own blocking, which is all a
thread outside tasks needs) instead of through the wait that gives the slot
back: once as many tasks as there are slots block in ``wait_all`` on subtasks
still waiting for a slot, nothing runs again. It breaks NEST-ANY-POOL-1
(tasks that wait with ``fw.wait_all`` "MUST all complete ... however many
threads the implementation runs tasks on").

The break (threadper prints ``2080``; the variant hangs once more tasks than its 32
running slots sit in ``wait_all``)::

    N = 64
    started, entered = fw.Future(), fw.Future()
    counts, lock = [0, 0], threading.Lock()

    @fw.ignore
    def arrive(which: int) -> None:
        with lock:
            counts[which] += 1
            last = counts[which] == N
        if last:
            (started if which == 0 else entered).set_result(0)

    def leaf(x: int) -> int:
        fw.wait(entered)
        return x + 1

    def task(x: int) -> int:
        arrive(0)
        fw.wait(started)  # every task runs before any forks
        fut = fw.fork(leaf, x)
        arrive(1)
        return fw.wait_all([fut])[0]

    @fw.script
    def run(n: int) -> int:
        return sum(fw.wait_all([fw.fork(task, i) for i in range(n)]))

    print(run(N))
"""

from tests.mutants import _reasons as reasons
from tests.mutants._contract import contract
from tests.mutants._variants import Edit, Variant

CONTRACT = contract(
    "NEST-ANY-POOL-1",
    slow=True,
    survives="no probe has more tasks blocked in fw.wait_all at once than a fixed table of "
    "32 running slots holds",
    maybe={
        "ERR-NESTED-1": reasons.THREAD_PER_TASK_UNDER_LOAD,
    },
)

VARIANT = Variant(
    "threadper",
    Edit(
        "combine.py",
        old="        waiting.block_until_done(item)\n",
        new="        item.wait_until_done()\n",
    ),
)
adapter = VARIANT.adapter
