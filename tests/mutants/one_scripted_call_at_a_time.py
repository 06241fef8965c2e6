"""Top-level scripted calls take a process-wide lock: callers on other threads wait their turn.

A runtime whose scripted code holds one lock for the whole process: a scripted
call from a second thread waits until the first has returned. It breaks
LIFECYCLE-CALLERS-1: "the tasks of these calls MUST be able to run at the same
time as one another: no call waits for another thread's call to end before its
tasks run".
"""

import threading
from collections.abc import Callable
from typing import Any

from conformance.adapter import Adapter
from tests.mutants._base import TopLevelScript, mutant
from tests.mutants._contract import contract

CONTRACT = contract("LIFECYCLE-CALLERS-1", slow=True)  # callers wait out the start bound

_one_call = threading.RLock()


def _one_at_a_time(call: Callable[[], Any]) -> Any:
    with _one_call:  # the mutation: a runtime that is not reentrant across threads
        return call()


def adapter() -> Adapter:
    return mutant("one-scripted-call-at-a-time", script=TopLevelScript(_one_at_a_time))
