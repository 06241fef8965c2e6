"""ModuleList is its own iterator: two loops over one list at once share its place and skip members.

``__iter__`` resets a cursor kept on the list and returns the list itself, as a
hand-written iterator often does: one loop at a time goes through every member,
but a loop nested in another over the same list, or the same module's forward
running in two tasks, moves the other loop's place too. It breaks
MODULE-ENSEMBLE-1: "Each for loop over the list MUST go through every member,
in order, also while other loops over the same list are under way".
"""

from collections.abc import Iterable
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("MODULE-ENSEMBLE-1")


class ModuleList(ref.ModuleList):
    def __init__(self, modules: Iterable[Any] = ()) -> None:
        super().__init__(modules)
        self._cursor = 0

    def __iter__(self) -> "ModuleList":
        self._cursor = 0  # the mutation: one place per list, not one per loop
        return self

    def __next__(self) -> Any:
        if self._cursor >= len(self._items):
            raise StopIteration
        item = self._items[self._cursor]
        self._cursor += 1
        return item


def adapter() -> Adapter:
    return mutant("module-list-is-its-own-iterator", ModuleList=ModuleList)
