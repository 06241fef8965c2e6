"""A task that returns a future not yet done gives a linked copy of it, not that future.

The runtime links the task's future to a still-running future it returns
through ``inner.then(lambda f: f.wait())``: the same value later, but another
object, as a runtime that chains promises instead of handing them on does. A
future already done is returned as it is, which is all the examples used to
return. It breaks FUTURE-RETURNED-1: "When a task returns a future, such as
one it forked, waiting on the task's future MUST give that future, unchanged".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import ForkChangingResults, mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "FUTURE-RETURNED-1",
    extras={
        "FUTURE-CONTAINERS-1": "its probes' tasks return a still-running future as an optional, "
        "which is that future, and get a linked copy of it back",
    },
)


def _inner_value(fut: Any) -> Any:
    return fut.wait()


def _linked_copy(value: Any) -> Any:
    if isinstance(value, ref.Future) and not value.done():
        return value.then(_inner_value)  # the mutation: a linked copy, not the future itself
    return value


def adapter() -> Adapter:
    return mutant("pending-returned-future-proxied", fork=ForkChangingResults(_linked_copy))
