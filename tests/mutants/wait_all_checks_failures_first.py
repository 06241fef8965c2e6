"""wait_all looks for failures once, when called, then gathers the values: a later failure is lost.

Check, then act: the futures that have failed by the time ``wait_all`` is called
are raised, as they should be; one that fails while it waits for the others
gives its missing value (None) in the list instead.

It breaks FUTURE-WAIT-ALL-1: fw.wait_all MUST "raise an exception whose text
contains the failure's message if any of them failed".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("FUTURE-WAIT-ALL-1")


def wait_all(futures: list[Any], /) -> list[Any]:
    items = list(futures)
    for future in items:
        if not isinstance(future, ref.Future):
            raise TypeError(f"wait_all() expects futures, got {type(future).__name__}")
        if future.done():
            ref.wait(future)  # raises a failure known now
    values = []
    for future in items:
        try:
            values.append(ref.wait(future))
        except Exception:  # noqa: BLE001 - the mutation: checked already
            values.append(None)
    return values


def adapter() -> Adapter:
    return mutant("wait-all-checks-failures-first", wait_all=wait_all)
