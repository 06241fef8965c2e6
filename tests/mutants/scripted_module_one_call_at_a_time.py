"""A scripted module serves one call at a time: callers on other threads wait their turn.

A compiled module that keeps the state of a running call (its interpreter
frame) on the module object, and guards it with a lock of the module: a second
thread calling the same scripted module, or its ``forward``, waits until the
first call has returned. Scripted functions, and other modules, are not held.
It breaks LIFECYCLE-CALLERS-1: scripted modules "called from several Python
threads at the same time, the same one from several threads included, [...]
the tasks of these calls MUST be able to run at the same time as one another".
"""

import threading
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("LIFECYCLE-CALLERS-1", slow=True)  # callers wait out the start bound


class _OneCallAtATime(ref.ScriptModule):
    """The reference's scripted module, its calls held by a lock of its own."""

    def __init__(self, module: ref.Module, schedule: str | None = None) -> None:
        super().__init__(module, schedule)
        self._running = threading.RLock()  # the mutation: one call of this module at a time

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        with self._running:
            return super().forward(*args, **kwargs)


def script(obj: Any, *, schedule: str | None = None) -> Any:
    scripted = ref.script(obj, schedule=schedule)
    if isinstance(obj, ref.Module) and not isinstance(obj, ref.ScriptModule):
        return _OneCallAtATime(obj, schedule)
    return scripted


def adapter() -> Adapter:
    return mutant("scripted-module-one-call-at-a-time", script=script)
