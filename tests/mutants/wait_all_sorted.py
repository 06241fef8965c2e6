"""wait_all returns the values sorted, not in the order of the futures.

wait_all gathers the values through a heap or a sorted structure, not in the
order given. It breaks FUTURE-WAIT-ALL-1: "fw.wait_all(futures) MUST return the
values in the order of futures (not sorted, not in the order the tasks
finished)".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("FUTURE-WAIT-ALL-1")


def wait_all(futures: list[Any]) -> list[Any]:
    return sorted(ref.wait_all(futures))


def adapter() -> Adapter:
    return mutant("wait-all-sorted", wait_all=wait_all)
