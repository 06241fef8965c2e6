"""collect_all of a single future returns that future itself.

A shortcut that saves making a future when there is nothing to combine:
``collect_all([fut])`` is ``fut``, so waiting on it gives the task's value,
not a list holding the one future. Collecting several futures, as every
example does, is unchanged.

It breaks FUTURE-COLLECT-ALL-1: "its value is the list of the given futures
(the futures, not their values)".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("FUTURE-COLLECT-ALL-1")


def collect_all(futures: list[Any], /) -> Any:
    if isinstance(futures, list) and len(futures) == 1 and isinstance(futures[0], ref.Future):
        return futures[0]
    return ref.collect_all(futures)


def adapter() -> Adapter:
    return mutant("collect-all-of-one-is-that-future", collect_all=collect_all)
