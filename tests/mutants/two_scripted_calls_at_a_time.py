"""Two interpreters serve scripted calls: a third caller thread waits for one to be free.

A runtime with a fixed number of interpreter slots (here two) serves two
callers at once, which every example needs; the tasks of a third call do not
start until one of the first two calls has returned.
"""

import functools
import threading
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._state import state
from tests.mutants._base import mutant

_slots = threading.BoundedSemaphore(2)


def script(obj: Any, **options: Any) -> Any:
    scripted = ref.script(obj, **options)
    if isinstance(obj, ref.Module):
        return scripted

    @functools.wraps(obj)
    def call(*args: Any, **kwargs: Any) -> Any:
        if state.scripted or state.current is not None:  # not a top-level call
            return scripted(*args, **kwargs)
        with _slots:  # the mutation: two top-level calls at a time
            return scripted(*args, **kwargs)

    return call


def adapter() -> Adapter:
    return mutant("two-scripted-calls-at-a-time", script=script)
