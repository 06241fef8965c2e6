"""Top-level scripted calls take a process-wide lock: callers on other threads wait their turn."""

import functools
import threading
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._state import state
from tests.mutants._base import mutant

_one_call = threading.RLock()


def script(obj: Any, **options: Any) -> Any:
    scripted = ref.script(obj, **options)
    if isinstance(obj, ref.Module):
        return scripted

    @functools.wraps(obj)
    def call(*args: Any, **kwargs: Any) -> Any:
        if state.scripted or state.current is not None:  # not a top-level call
            return scripted(*args, **kwargs)
        with _one_call:  # the mutation: a runtime that is not reentrant across threads
            return scripted(*args, **kwargs)

    return call


def adapter() -> Adapter:
    return mutant("one-scripted-call-at-a-time", script=script)
