"""Two interpreters serve scripted calls: a third caller thread waits for one to be free.

A runtime with a fixed number of interpreter slots (here two) serves two
callers at once, which every example needs; the tasks of a third call do not
start until one of the first two calls has returned.

It breaks LIFECYCLE-CALLERS-1: "the tasks of these calls MUST be able to run at
the same time as one another: no call waits for another thread's call to end
before its tasks run".
"""

import threading
from collections.abc import Callable
from typing import Any

from conformance.adapter import Adapter
from tests.mutants._base import TopLevelScript, mutant
from tests.mutants._contract import contract

CONTRACT = contract("LIFECYCLE-CALLERS-1")

_slots = threading.BoundedSemaphore(2)


def _two_at_a_time(call: Callable[[], Any]) -> Any:
    with _slots:  # the mutation: two top-level calls at a time
        return call()


def adapter() -> Adapter:
    return mutant("two-scripted-calls-at-a-time", script=TopLevelScript(_two_at_a_time))
