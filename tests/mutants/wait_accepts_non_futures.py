"""wait gives back anything that is not a future unchanged, instead of raising TypeError.

A wait that is lenient with code that may hold a value or a future. It breaks
WAIT-NOT-A-FUTURE-1: "wait on anything that is not a future MUST raise
TypeError".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("WAIT-NOT-A-FUTURE-1")


def wait(future: Any) -> Any:
    return ref.wait(future) if isinstance(future, ref.Future) else future


def adapter() -> Adapter:
    return mutant("wait-accepts-non-futures", wait=wait)
