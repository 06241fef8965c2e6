"""A scripted call made by an ``fw.ignore`` helper starts the schedule afresh.

The runtime tells a top-level scripted call by "made from plain Python", and a
helper marked ``fw.ignore`` runs as plain Python, so a scripted call the helper
makes inside a task starts a controlled run of its own under the block's
schedule, with its own tasks only: a future of the enclosing call's that it
waits on is not one of them. It breaks EXPLORER-USE-1: a top-level scripted call
is "a call of a scripted function or module from plain Python, as opposed to a
call made by scripted code or by a task", the helper's call included.
"""

import functools
from collections.abc import Callable
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter, Explorer
from reference_impl import default_schedules, use_schedule
from reference_impl._thread_state import local
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "EXPLORER-USE-1",
    extras={
        "CONTEXT-INHERITED-1": "probe 3's chain of scripted calls made through helpers, run "
        "under a schedule, starts a controlled run inside the last at every level: "
        "RecursionError",
    },
)


def ignore(func: Callable[..., Any]) -> Callable[..., Any]:
    ref.ignore(func)  # its TypeError for what is not callable

    @functools.wraps(func)
    def plain(*args: Any, **kwargs: Any) -> Any:
        thread = local.state
        outer = thread.scripted, thread.run
        thread.scripted, thread.run = False, None  # the mutation: a helper is a fresh start
        try:
            return func(*args, **kwargs)
        finally:
            thread.scripted, thread.run = outer

    return plain


def adapter() -> Adapter:
    explorer = Explorer(schedules=default_schedules, use=use_schedule)
    return mutant("explorer-restarts-in-helpers", explorer=explorer, ignore=ignore)
