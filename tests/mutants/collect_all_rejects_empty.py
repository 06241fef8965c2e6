"""collect_all and wait_all reject an empty list instead of giving the empty list.

An argument check that takes an empty list for a caller's mistake ("nothing to
wait for"). It breaks FUTURE-COLLECT-EMPTY-1: "fw.collect_all([]) MUST return a
future whose value is the empty list, and fw.wait_all([]) MUST return the empty
list".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("FUTURE-COLLECT-EMPTY-1")


def collect_all(futures: list[Any]) -> Any:
    if not futures:
        raise ValueError("collect_all() needs at least one future")
    return ref.collect_all(futures)


def wait_all(futures: list[Any]) -> list[Any]:
    if not futures:
        raise ValueError("wait_all() needs at least one future")
    return ref.wait_all(futures)


def adapter() -> Adapter:
    return mutant("collect-all-rejects-empty", collect_all=collect_all, wait_all=wait_all)
