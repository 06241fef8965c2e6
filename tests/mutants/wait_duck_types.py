"""wait accepts anything with a ``wait`` method, and returns what that method gives.

Duck typing instead of ``isinstance``: a ``concurrent.futures.Future``
without ``wait`` still raises, but any object with a ``wait()`` is "waited".

It breaks WAIT-NOT-A-FUTURE-1: "wait on anything that is not a future MUST raise
TypeError".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("WAIT-NOT-A-FUTURE-1")


def wait(future: Any, /) -> Any:
    if not isinstance(future, ref.Future) and callable(getattr(future, "wait", None)):
        return future.wait()  # the mutation: it looks like a future, so it is one
    return ref.wait(future)


def adapter() -> Adapter:
    return mutant("wait-duck-types", wait=wait)
