"""A task's calls of plain-Python functions that return nothing land 0.2 s later, after wait.

A runtime that batches a task's fire-and-forget calls into plain Python (those
that return nothing) and sends them later from a timer, as a logging or RPC
layer might. It breaks DET-HAPPENS-BEFORE-1: "Everything a task does MUST have
happened by the time wait on its future returns, the side effects of the
plain-Python functions it calls included".
"""

import functools
import inspect
import threading
from typing import Any

from conformance.adapter import Adapter
from reference_impl._thread_state import local
from tests.mutants import _reasons as reasons
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "DET-HAPPENS-BEFORE-1",
    extras={
        "CONTEXT-CALLS-1": reasons.DEFERRED_HELPERS,
        "CONTEXT-INHERITED-1": "the task's helper that sets the variable returns nothing: the "
        "setting lands after the child task has read it",
        "CONTEXT-ISOLATED-1": reasons.DEFERRED_HELPERS,
        "CONTEXT-SNAPSHOT-1": reasons.DEFERRED_HELPERS,
        "ERR-SCRIPT-AT-WAIT-1": reasons.DEFERRED_HELPERS,
        "LIFECYCLE-EXIT-1": reasons.DEFERRED_HELPERS,
    },
)

DELAY = 0.2


def ignore(func: Any) -> Any:
    returns_nothing = inspect.signature(func).return_annotation is None

    @functools.wraps(func)
    def call(*args: Any, **kwargs: Any) -> Any:
        if returns_nothing and local.state.scripted and local.state.current is not None:
            later = threading.Timer(DELAY, func, args, kwargs)
            later.daemon = True
            later.start()
            return None
        return func(*args, **kwargs)

    return call


def adapter() -> Adapter:
    return mutant("defers-task-side-effects", ignore=ignore)
