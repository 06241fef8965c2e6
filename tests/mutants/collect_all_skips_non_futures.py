"""collect_all and wait_all drop the items of the list that are not futures.

A lenient filter (``isinstance(item, Future)`` in a comprehension) that drops
what it cannot wait on instead of refusing it. It breaks
FUTURE-COLLECT-NOT-FUTURES-1: "fw.collect_all and fw.wait_all MUST raise
TypeError when an item of the list is not a future, from the call itself".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("FUTURE-COLLECT-NOT-FUTURES-1")


def _futures(items: list[Any]) -> list[Any]:
    return [item for item in items if isinstance(item, ref.Future)]


def collect_all(futures: list[Any]) -> Any:
    return ref.collect_all(_futures(futures))


def wait_all(futures: list[Any]) -> list[Any]:
    return ref.wait_all(_futures(futures))


def adapter() -> Adapter:
    return mutant("collect-all-skips-non-futures", collect_all=collect_all, wait_all=wait_all)
