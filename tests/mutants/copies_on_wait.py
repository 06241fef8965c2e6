"""wait hands out a fresh copy of a list result each time.

A defensive copy, so that one waiter's changes to a list result cannot reach
another's. It breaks WAIT-SAME-OBJECT-1: "Every wait on one future MUST return
the same object".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "WAIT-SAME-OBJECT-1",
    extras={
        "FUTURE-CREATE-1": "the example checks that fw.wait gives the very result set",
    },
)


def wait(future: Any) -> Any:
    value = ref.wait(future)
    return list(value) if isinstance(value, list) else value


def adapter() -> Adapter:
    return mutant("copies-on-wait", wait=wait)
