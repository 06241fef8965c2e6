"""collect_all gives each distinct future once: a future given twice is listed once.

The futures are gathered through a dict keyed by future (to count each one
once), in the order given; a list that holds one future twice comes back
shorter, so the combined value no longer matches the list given.

It breaks FUTURE-COLLECT-ALL-1: the combined future's value "is the list of the
given futures".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("FUTURE-COLLECT-ALL-1")


def collect_all(futures: list[Any], /) -> Any:
    combined = ref.collect_all(futures)  # every check, and the wait for all of them
    distinct = list(dict.fromkeys(futures))
    return combined.then(lambda _: distinct)


def adapter() -> Adapter:
    return mutant("collect-all-drops-duplicates", collect_all=collect_all)
