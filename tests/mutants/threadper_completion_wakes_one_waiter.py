"""threadper's futures wake one waiting thread when they complete, not all of them.

A variant of the independent thread-per-task implementation: completing a
future notifies its condition with ``notify()`` instead of ``notify_all()``,
a one-word slip that passes every test with one waiter. With several threads
blocked on one future, one wakes and the others sleep on. It breaks
FUTURE-WAKES-WAITERS-1 ("MUST wake every thread blocked in ``wait()`` or
``fw.wait`` on the future").
"""

from tests.mutants import _reasons as reasons
from tests.mutants._contract import contract
from tests.mutants._variants import Edit, Variant

CONTRACT = contract(
    "FUTURE-WAKES-WAITERS-1",
    extras={
        "FUTURE-ARGUMENT-1": "its probe has several tasks wait on one shared future",
        "FUTURE-CREATE-1": "its probe has several threads wait on one created future",
        "FUTURE-SET-EXCEPTION-1": "its probe has several threads wait on one failed future",
        "WAIT-SAME-OBJECT-1": "its probes have many threads wait on one future at once",
        "WAIT-FROM-PYTHON-1": "its probes have several plain threads wait on one future",
    },
    maybe={
        "ERR-NESTED-1": reasons.THREAD_PER_TASK_UNDER_LOAD,
        "WAIT-SELF-1": "a SHOULD: its probe's waiters on one future may sleep on",
    },
    slow=True,
)

VARIANT = Variant(
    "threadper",
    Edit(
        "futures.py",
        old="            callbacks, self._callbacks = self._callbacks, []\n"
        "            self._cond.notify_all()\n",
        new="            callbacks, self._callbacks = self._callbacks, []\n"
        "            self._cond.notify()\n",
    ),
)
adapter = VARIANT.adapter
