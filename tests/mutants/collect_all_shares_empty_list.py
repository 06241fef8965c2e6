"""collect_all([]) and wait_all([]) give one shared empty list, which a caller can change.

A module constant for the empty case saves an allocation: after a caller
appends to what it got, every later empty combination gives that item.

It breaks FUTURE-COLLECT-EMPTY-1: "fw.collect_all([]) MUST return a future whose
value is the empty list, and fw.wait_all([]) MUST return the empty list"; once a
caller has changed the shared list, it is no longer empty.
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("FUTURE-COLLECT-EMPTY-1")

_EMPTY: list[Any] = []


def collect_all(futures: list[Any], /) -> Any:
    if isinstance(futures, list) and not futures:
        done: Any = ref.Future()
        done.set_result(_EMPTY)
        return done
    return ref.collect_all(futures)


def wait_all(futures: list[Any], /) -> list[Any]:
    if isinstance(futures, list) and not futures:
        return _EMPTY
    return ref.wait_all(futures)


def adapter() -> Adapter:
    return mutant("collect-all-shares-empty-list", collect_all=collect_all, wait_all=wait_all)
