"""collect_all's future gives the caller's own list back, not a new one.

Once every future of the list is done, the future ``collect_all`` returned is
completed with the list it was given: the same futures, and the same list
object, as an adapter that hands back what ``concurrent.futures.wait`` or
``gevent.joinall`` was given does. For ``[]``, a caller that changes what it
got changes its own list. It breaks
FUTURE-COLLECT-EMPTY-1: ``fw.collect_all([])`` MUST return a future whose
value is the empty list: "a new list at every call, which its caller may
change".
"""

import importlib
from typing import Any

from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("FUTURE-COLLECT-EMPTY-1")

_api: Any = importlib.import_module("reference_impl._api")
_check_futures = _api._check_futures


def _checked_in_place(name: str, futures: list[Any]) -> list[Any]:
    _check_futures(name, futures)
    return futures  # the mutation: the caller's list, not a copy


def adapter() -> Adapter:
    # the mutant runs in a suite process of its own: patching the module is enough
    _api._check_futures = _checked_in_place
    return mutant("collect-all-gives-the-callers-list")
