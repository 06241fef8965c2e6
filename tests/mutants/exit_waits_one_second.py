"""At interpreter exit the runtime waits one second for unfinished tasks, then ends the process.

Workers are daemon threads and an exit hook joins them with a timeout, so that
a task stuck forever cannot keep the process alive: a task that needs more
than a second after the main thread has ended is cut off, and the process
exits with status 0 as if it had finished. Breaks LIFECYCLE-EXIT-1: a task
nobody waits on "MUST run to completion before the interpreter exits", however
long it runs.

Only programs run for the examples get it: the suite's own process (which has
pytest loaded) must still end its run normally.
"""

import os
import sys
import threading
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._thread_state import local
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("LIFECYCLE-EXIT-1")

EXIT_TIMEOUT = 1.0
_registered = False


def _cut_off_later() -> None:
    timer = threading.Timer(EXIT_TIMEOUT, os._exit, (0,))  # the mutation: a time limit
    timer.daemon = True
    timer.start()


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    global _registered
    future = ref.fork(func, *args, **kwargs)  # creates the pool, and its exit hook, first
    if local.state.scripted and not _registered and "pytest" not in sys.modules:
        threading._register_atexit(_cut_off_later)  # type: ignore[attr-defined]
        _registered = True
    return future


def adapter() -> Adapter:
    return mutant("exit-waits-one-second", fork=fork)
