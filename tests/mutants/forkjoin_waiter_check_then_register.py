"""SURVIVES: a wait() that starts as the future completes is never woken (check, then register).

The independent fork/join implementation's blocking wait looks at the state
before taking the future's lock, then registers its wake-up event under it: a
completer that released the registered events in between never releases the
new one, and the waiter blocks forever.

It breaks FUTURE-WAKES-WAITERS-1 ("set_result and set_exception, called from
any thread, MUST wake every thread blocked in wait() or fw.wait") and, for
forked futures, every rule whose wait would then hang. The whole spec passes
(2 runs of 2; the 101 examples of ``-k "FUTURE- or WAIT-"`` passed too). A
trace hook that pauses the waiting thread at its ``with self._lock`` line while
another thread completes the future leaves it blocked every time
(tests/independent/test_forkjoin_races.py).
"""

from tests.mutants._contract import contract
from tests.mutants._variants import Edit, Variant

CONTRACT = contract(
    "FUTURE-WAKES-WAITERS-1",
    survives="no probe forces a waiter to register while the future completes",
)

VARIANT = Variant(
    "forkjoin",
    Edit(
        "future.py",
        old=(
            "        with self._lock:\n"
            "            if self._state != _PENDING:\n"
            "                return\n"
            "            self._waiters.append(event)\n"
            "        running"
        ),
        new=(
            "        if self._state != _PENDING:\n"
            "            return\n"
            "        with self._lock:\n"
            "            self._waiters.append(event)\n"
            "        running"
        ),
    ),
)
adapter = VARIANT.adapter
