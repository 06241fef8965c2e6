"""While tracing, a fork of a scripted function is not recorded: its body is inlined.

A tracer that sees through compiled calls: the fork calls the scripted function
on the spot, and its operations are recorded in place. It breaks
TRACE-FORKS-SCRIPTED-1: "Tracing a function that forks a function compiled by
fw.script MUST record the fork as a fork node and its wait as a wait node".
"""

import weakref
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl.tracing.scope import active_scope
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("TRACE-FORKS-SCRIPTED-1")

_compiled: "weakref.WeakSet[Any]" = weakref.WeakSet()


def script(obj: Any, **options: Any) -> Any:
    scripted = ref.script(obj, **options)
    _compiled.add(scripted)
    return scripted


class _Inlined:
    """What the inlined fork gives: its value, waited as if it were a future."""

    def __init__(self, value: Any) -> None:
        self.value = value


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if active_scope() is not None and func in _compiled:
        return _Inlined(func(*args, **kwargs))
    return ref.fork(func, *args, **kwargs)


def wait(future: Any) -> Any:
    if isinstance(future, _Inlined):
        return future.value
    return ref.wait(future)


def adapter() -> Adapter:
    return mutant("trace-inlines-scripted-forks", script=script, fork=fork, wait=wait)
