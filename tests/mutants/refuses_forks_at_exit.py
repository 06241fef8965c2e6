"""Once the interpreter starts exiting, fork refuses new tasks: tasks forked by tasks are lost.

What ``concurrent.futures`` does ("cannot schedule new futures after
interpreter shutdown"): the tasks already forked run to the end, but a fork
they make then raises, so their unwaited children never run.

It breaks LIFECYCLE-EXIT-1: "A task that scripted code forked and that nobody
waits on MUST run to completion before the interpreter exits".
"""

import threading
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._thread_state import local
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("LIFECYCLE-EXIT-1")

_exiting = threading.Event()
_registered = False


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    global _registered
    if _exiting.is_set() and local.state.scripted:
        raise RuntimeError("cannot schedule new futures after interpreter shutdown")
    future = ref.fork(func, *args, **kwargs)  # creates the pool, and its exit hook, first
    if local.state.scripted and not _registered:
        # runs before the pool's own hook (last registered, first run)
        threading._register_atexit(_exiting.set)  # type: ignore[attr-defined]
        _registered = True
    return future


def adapter() -> Adapter:
    return mutant("refuses-forks-at-exit", fork=fork)
