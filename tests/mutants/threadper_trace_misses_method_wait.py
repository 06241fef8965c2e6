"""threadper records ``fw.wait`` in a trace but not a future's own ``wait()`` method.

SURVIVOR: it passes the whole spec while it breaks the rules its CONTRACT names; the
program at the end of this docstring shows the break.

A variant of the independent thread-per-task implementation: the hook that
tells the trace of a wait sits in ``fw.wait`` instead of in ``Future.wait``,
which ``fw.wait`` calls; an implementer who thinks of ``fw.wait`` as "the"
wait misses the method. Traced code that waits with ``fut.wait()`` then gets
no wait node, and the value the wait gave is recorded as a constant, so the
traced function replays the traced inputs' result. It breaks TRACE-FORK-WAIT-1
("For every wait the traced code ran, the graph MUST hold one wait node") and
TRACE-RERUN-1; the method is a wait in every other profile
(:req:`NEST-ANY-POOL-1`), so nothing in the text exempts it here.

The break (``tensor(15) tensor(15)`` on threadper)::

    def body(x):
        return x * 2

    def run(x):
        return fw.fork(body, x).wait() + x

    traced = fw.trace(run, (fw.tensor(1),))
    print([n.kind for n in fw.graph_nodes(traced) if n.kind in ("fork", "wait")])
    print(traced(fw.tensor(5)), run(fw.tensor(5)))  # ['fork'], then tensor(7) tensor(15)
"""

from tests.mutants import _reasons as reasons
from tests.mutants._contract import contract
from tests.mutants._variants import Edit, Variant

CONTRACT = contract(
    "TRACE-FORK-WAIT-1",
    "TRACE-RERUN-1",
    survives="no probe waits in traced code with the future's own wait() instead of fw.wait "
    "(the trace profile's text names no future method: whether it must is still to decide)",
    maybe={
        "ERR-NESTED-1": reasons.THREAD_PER_TASK_UNDER_LOAD,
        "NEST-LEVELS-1": reasons.THREAD_PER_TASK_UNDER_LOAD,
        "WAIT-SAME-OBJECT-1": reasons.THREAD_PER_TASK_UNDER_LOAD,
    },
)

VARIANT = Variant(
    "threadper",
    Edit(
        "futures.py",
        old="        value = self._outcome()\n        waiting.note_waited(self, value)\n"
        "        return value\n",
        new="        return self._outcome()\n",
    ),
    Edit(
        "futures.py",
        old="    return future.wait()\n",
        new="    value = future.wait()\n    waiting.note_waited(future, value)\n    return value\n",
    ),
)
adapter = VARIANT.adapter
