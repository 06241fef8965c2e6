"""wait_all of a single future gives that future's value, not a list of it.

A shortcut for the case with nothing to gather: ``wait_all([fut])`` returns
``wait(fut)``. Waiting on several futures, as every example does, is
unchanged.

It breaks FUTURE-WAIT-ALL-1: "fw.wait_all(futures) MUST return the values in
the order of futures".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("FUTURE-WAIT-ALL-1")


def wait_all(futures: list[Any], /) -> Any:
    if isinstance(futures, list) and len(futures) == 1 and isinstance(futures[0], ref.Future):
        return ref.wait(futures[0])
    return ref.wait_all(futures)


def adapter() -> Adapter:
    return mutant("wait-all-of-one-is-its-value", wait_all=wait_all)
