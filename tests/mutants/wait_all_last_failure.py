"""wait_all waits for every future, then raises the failure of the last failed one in the list.

A loop that keeps the last failure it meets, where the first was meant. It
breaks FUTURE-WAIT-ALL-FIRST-1: "When several of the futures given to
fw.wait_all have failed before it is called, the exception it raises MUST be
that of the first failed future in the list".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("FUTURE-WAIT-ALL-FIRST-1")


def wait_all(futures: list[Any]) -> list[Any]:
    ref.wait(ref.collect_all(futures))
    for future in reversed(futures):
        ref.wait(future)  # the mutation: the last failure in list order is raised first
    return ref.wait_all(futures)


def adapter() -> Adapter:
    return mutant("wait-all-last-failure", wait_all=wait_all)
