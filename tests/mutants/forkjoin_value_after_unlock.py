"""CAUGHT ONLY BY CHANCE: completion sets the value after leaving the lock; wait() can give None.

The independent fork/join implementation's completion sets the state under
the future's lock and the value just after it: a ``wait()`` or ``value()``
that comes in between sees a done future and reads the old ``None``.

It breaks FUTURE-CREATE-1 (``wait()``, ``value()`` and ``fw.wait(fut)`` "each
return value itself") and, for forked futures, FORK-CALLS-1. The suite
catches it by chance: WAIT-SAME-OBJECT-1 probe 5 (20,000 fork-and-wait under a
tiny switch interval) failed in 1 of 2 runs of the whole spec and 1 of 5 of
that rule alone. A profile hook that pauses the completing thread just after
the lock's ``__exit__`` gives None every time
(tests/independent/test_forkjoin_races.py).
"""

from tests.mutants import _reasons as reasons
from tests.mutants._contract import contract
from tests.mutants._variants import Edit, Variant

CONTRACT = contract(
    "FUTURE-CREATE-1",
    maybe={
        "ERR-NESTED-1": reasons.COMPLETIONS_RACE_THE_UNLOCK,
        "WAIT-SAME-OBJECT-1": "probe 5 races 20,000 waits with completions",
    },
    chance="no probe forces a wait() to read the value while the completing thread is "
    "between its unlock and its store: the 20,000 waits of WAIT-SAME-OBJECT-1 catch it "
    "in some runs",
)

VARIANT = Variant(
    "forkjoin",
    Edit(
        "future.py",
        old=(
            "            self._state, self._outcome = state, outcome\n"
            "            self._task = None  # its context and arguments a"
            "re no longer needed\n"
            "            waiters, self._waiters = self._waiters, []\n"
            "            callbacks, self._callbacks = self._callbacks, []\n"
        ),
        new=(
            "            self._state = state\n"
            "            self._task = None  # its context and arguments a"
            "re no longer needed\n"
            "            waiters, self._waiters = self._waiters, []\n"
            "            callbacks, self._callbacks = self._callbacks, []\n"
            "        self._outcome = outcome\n"
        ),
    ),
)
adapter = VARIANT.adapter
