"""At interpreter exit the runtime ends the process at once: unfinished tasks are abandoned.

The first scripted fork registers an exit hook that runs before the worker
pool's own (hooks run last-registered first) and calls ``os._exit(0)``. Only
programs run for the examples get it: the suite's own process (which has
pytest loaded) must still end its run normally.

A runtime that skips the interpreter's slow teardown with ``os._exit`` does
this. It breaks LIFECYCLE-EXIT-1: "A task that scripted code forked and that
nobody waits on MUST run to completion before the interpreter exits".
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

_registered = False


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    global _registered
    future = ref.fork(func, *args, **kwargs)  # creates the pool, and its exit hook, first
    if local.state.scripted and not _registered and "pytest" not in sys.modules:
        threading._register_atexit(os._exit, 0)  # type: ignore[attr-defined]
        _registered = True
    return future


def adapter() -> Adapter:
    return mutant("abandons-tasks-at-exit", fork=fork)
