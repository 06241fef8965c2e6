"""wait looks inside what it returns: a future whose value is a future gives the inner value.

Promise-style flattening, as JavaScript's promises do: a future completed with a
future takes on that future's value. It breaks FUTURE-RETURNED-1: "When a task
returns a future, such as one it forked, waiting on the task's future MUST give
that future, unchanged".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "FUTURE-RETURNED-1",
    extras={
        "FORK-RETURNS-FUTURE-1": "the probe's task returns a future",
        "FUTURE-CONTAINERS-1": "its probes' tasks return a future as an optional, and waiting "
        "on them gives that future's value, not the future",
        "FUTURE-CREATE-1": "its probe sets another future as a value",
    },
)


def wait(future: Any) -> Any:
    value = ref.wait(future)
    while isinstance(value, ref.Future):  # the mutation: promise-style flattening
        value = ref.wait(value)
    return value


def adapter() -> Adapter:
    return mutant("flattens-nested-futures", wait=wait)
