"""wait_all returns the values in reverse order.

wait_all collects the values by popping a stack of futures. It breaks
FUTURE-WAIT-ALL-1: "fw.wait_all(futures) MUST return the values in the order of
futures".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "FUTURE-WAIT-ALL-1",
    extras={
        "FUTURE-COLLECT-CREATED-1": "the example prints what wait_all gives",
    },
)


def wait_all(futures: list[Any]) -> list[Any]:
    return list(reversed(ref.wait_all(futures)))


def adapter() -> Adapter:
    return mutant("wait-all-reversed", wait_all=wait_all)
