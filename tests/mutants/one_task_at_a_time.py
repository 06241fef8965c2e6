"""Scripted tasks take turns: one lock, held while a task runs and let go only in wait.

Forks still return at once and tasks start without a wait, but no two tasks
ever run at the same time (a task that waits lets another run, so nesting
works).

A runtime whose tasks hold an interpreter lock while they run, as Python code
holds the GIL, behaves so. It breaks ASYNC-CONCURRENT-1: "In scripted code at
least two forked tasks MUST be able to run at the same time".
"""

from __future__ import annotations

import functools
import threading
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._thread_state import local
from tests.mutants import _reasons as reasons
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "ASYNC-CONCURRENT-1",
    extras={
        "ERR-SCRIPT-AT-WAIT-1": reasons.HELD_TASKS_BESIDE_OTHERS,
        "ERR-WAIT-AGAIN-1": reasons.HELD_TASKS_BESIDE_OTHERS,
        "SCRIPT-MODULE-1": (
            "its probe's two tasks of a scripted forward meet at a barrier, which tasks taking "
            "turns never open"
        ),
        "ASYNC-STARTS-1": "the probe's 20 subtasks must all start while their task checks",
        "LIFECYCLE-CALLERS-1": "the example's two tasks meet at a barrier",
        "SCRIPT-IGNORE-1": "the probe's ignored function reads what a subtask of its task made, "
        "which runs only after",
    },
    slow=True,  # its run sleeps out many deadlines and probes' patience
)

_turn = threading.Lock()


class _Held(threading.local):
    depth = 0


_held = _Held()


def _taking_turns(func: Any) -> Any:
    @functools.wraps(func)
    def task(*args: Any, **kwargs: Any) -> Any:
        if _held.depth == 0:
            _turn.acquire()
        _held.depth += 1
        try:
            return func(*args, **kwargs)
        finally:
            _held.depth -= 1
            if _held.depth == 0:
                _turn.release()

    return task


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if local.state.scripted and callable(func):
        func = _taking_turns(func)
    return ref.fork(func, *args, **kwargs)


def wait(future: Any) -> Any:
    depth = _held.depth
    if depth == 0:
        return ref.wait(future)
    _held.depth = 0
    _turn.release()
    try:
        return ref.wait(future)
    finally:
        _turn.acquire()
        _held.depth = depth


def adapter() -> Adapter:
    return mutant("one-task-at-a-time", fork=fork, wait=wait)
