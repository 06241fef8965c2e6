"""CAUGHT ONLY BY CHANCE: a done callback added as the future completes is lost (check, then lock).

The independent fork/join implementation's ``add_done_callback`` looks at the
state before taking the future's lock, then appends under it: a completer
that swapped out the callback list in between never runs the new callback,
and a future ``then`` returned never completes.

It breaks FUTURE-ADD-DONE-CALLBACK-1 ("run callback(fut) exactly once, when
fut completes"). The suite catches it by chance: on the whole spec it failed
FUTURE-ADD-DONE-CALLBACK-1 or FUTURE-THEN-1 in each of 3 runs, but a run of
those two rules alone passed 5 times of 5 (and ``-k FUTURE-`` 4 of 6). A trace
hook that pauses the adding thread at its ``with self._lock`` line while
another thread completes the future loses the callback every time
(tests/independent/test_forkjoin_races.py).
"""

from tests.mutants._contract import contract
from tests.mutants._variants import Edit, Variant

CONTRACT = contract(
    "FUTURE-ADD-DONE-CALLBACK-1",
    maybe={
        "FUTURE-THEN-1": "a then-callback lost in the same race leaves its future pending",
    },
    chance="no probe forces add_done_callback to register as the future completes: the "
    "whole spec's many callbacks catch it in some runs",
)

VARIANT = Variant(
    "forkjoin",
    Edit(
        "future.py",
        old=(
            "        with self._lock:\n"
            "            if self._state == _PENDING:\n"
            "                self._callbacks.append(callback)\n"
            "                return\n"
            "        self._run_callback(callback)"
        ),
        new=(
            "        if self._state == _PENDING:\n"
            "            with self._lock:\n"
            "                self._callbacks.append(callback)\n"
            "            return\n"
            "        self._run_callback(callback)"
        ),
    ),
)
adapter = VARIANT.adapter
