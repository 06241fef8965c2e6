"""Cycle detection follows at most eight "waits on" edges: longer cycles hang.

A bounded walk keeps every blocking wait cheap, and catches every cycle an
example builds (up to four tasks); a cycle of sixteen is never reported.

It breaks WAIT-SELF-1 (a SHOULD): "A task that waits on its own future, directly
or through a cycle of tasks of any length, [...] SHOULD fail with a RuntimeError
(or a subclass) instead of blocking forever".
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

_STEPS = 8


def _reaches_within(self: Any, target: Any) -> bool:
    """The mutation: the walk stops after ``_STEPS`` futures."""
    node = self
    for _ in range(_STEPS):
        if node is target:
            return True
        if node is None or node._state == _core._DONE:
            return False
        node = node._waiting_on
    return False


def adapter() -> Adapter:
    _core.Core._reaches = _reaches_within  # type: ignore[method-assign] # its process only
    return mutant("cycle-check-bounded")
