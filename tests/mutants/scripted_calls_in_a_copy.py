"""A scripted function called from plain Python runs in a copy of its caller's context.

A runtime that treats a call of compiled code like a task, and runs it in
``copy_context()`` to keep the compiled code's settings to itself. It breaks
CONTEXT-CALLS-1: "A call is not a task. A scripted function called from plain
Python [...] MUST run in the context of the code that calls it, not in a copy".
"""

import contextvars
import functools
import inspect
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("CONTEXT-CALLS-1")


def script(obj: Any) -> Any:
    scripted = ref.script(obj)
    if not inspect.isfunction(obj):
        return scripted  # modules keep their attributes: functions are enough to tell

    @functools.wraps(obj)
    def in_a_copy(*args: Any, **kwargs: Any) -> Any:
        return contextvars.copy_context().run(scripted, *args, **kwargs)  # the mutation

    return in_a_copy


def adapter() -> Adapter:
    return mutant("scripted-calls-in-a-copy", script=script)
