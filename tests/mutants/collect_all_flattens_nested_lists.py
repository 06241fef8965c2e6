"""collect_all and wait_all take the futures out of list and tuple items instead of refusing them.

A convenience borrowed from Dask (``distributed.wait`` collects the futures
of any nesting of collections): ``collect_all([f, [g, h]])`` is taken as
``collect_all([f, g, h])``, and an empty list item adds nothing, so an item
that is a list or a tuple is never refused. It breaks
FUTURE-COLLECT-NOT-FUTURES-1: "fw.collect_all and fw.wait_all MUST raise
TypeError when an item of the list is not a future, from the call itself".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("FUTURE-COLLECT-NOT-FUTURES-1")


def _flat(items: Any) -> list[Any]:
    out: list[Any] = []
    for item in items:
        if isinstance(item, (list, tuple)):  # the mutation: nested sequences are spliced in
            out.extend(_flat(item))
        else:
            out.append(item)
    return out


def collect_all(futures: list[Any], /) -> Any:
    return ref.collect_all(_flat(futures))


def wait_all(futures: list[Any], /) -> list[Any]:
    return ref.wait_all(_flat(futures))


def adapter() -> Adapter:
    return mutant("collect-all-flattens-nested-lists", collect_all=collect_all, wait_all=wait_all)
