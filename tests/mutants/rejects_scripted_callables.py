"""fork rejects what fw.script returned: compiled functions and modules cannot be forked.

A runtime that forks Python callables but not its own compiled ones. It breaks
FORK-SCRIPTED-1: "fork MUST accept a function compiled by fw.script and a
scripted module".
"""

import weakref
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "FORK-SCRIPTED-1",
    extras={
        "TRACE-RERUN-1": "its probe's traced function forks a scripted function",
        "SCRIPT-SAME-RESULT-1": "the probe forks a scripted function from scripted code",
        "TRACE-FORKS-SCRIPTED-1": "the example forks a scripted function while tracing",
    },
)

_compiled: "weakref.WeakSet[Any]" = weakref.WeakSet()


def script(obj: Any, **options: Any) -> Any:
    scripted = ref.script(obj, **options)
    _compiled.add(scripted)
    return scripted


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if func in _compiled:
        raise TypeError("fork() cannot run a compiled function; fork the original")
    return ref.fork(func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("rejects-scripted-callables", script=script, fork=fork)
