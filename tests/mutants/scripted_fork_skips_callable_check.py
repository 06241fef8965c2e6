"""fork checks ``callable()`` only where it runs the task at once; a queued fork takes anything.

The check sits beside the plain-Python path, where a bad function would be
noticed at once anyway; while scripted code runs (on the reference, also
inside the ``fw.ignore`` functions it calls) fork queues the task unchecked,
and the TypeError comes out of the task, at ``wait``. It breaks
FORK-NOT-CALLABLE-1: "fork of something that is not callable MUST raise
TypeError from fork itself, not later from wait".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._thread_state import local
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("FORK-NOT-CALLABLE-1")


def _call(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    return func(*args, **kwargs)  # a non-callable fails here, inside the task


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if local.state.scripted and not callable(func):  # the mutation: queued unchecked
        return ref.fork(_call, func, *args, **kwargs)
    return ref.fork(func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("scripted-fork-skips-callable-check", fork=fork)
