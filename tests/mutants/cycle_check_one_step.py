"""Cycle detection looks one step ahead: self-waits and 2-cycles raise, longer cycles hang.

A deadlock check that compares the future waited with the waiter and with what
it waits on directly, and never walks the chain further. It breaks WAIT-SELF-1
(a SHOULD): a task that waits on its own future "through a cycle of tasks of any
length [...] SHOULD fail with a RuntimeError (or a subclass) instead of blocking
forever".
"""

from typing import Any

from conformance.adapter import Adapter
from reference_impl import _core
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "WAIT-SELF-1",
    slow=True,  # its long cycles hang until their deadline
    strict=True,
)


def _reaches_one_step(self: Any, target: Any) -> bool:
    """The mutation: only the future itself and what it waits on directly are looked at."""
    if self is target:
        return True
    return self._state != _core._DONE and self._waiting_on is target


def adapter() -> Adapter:
    _core.Core._reaches = _reaches_one_step  # type: ignore[method-assign] # its process only
    return mutant("cycle-check-one-step")
