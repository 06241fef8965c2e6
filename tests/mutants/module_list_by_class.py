"""ModuleList keeps one module per class: members of the same class collapse into the last one.

A ModuleList written as a registry keyed by its members' classes, to find a
submodule by its type: an ensemble of one class keeps only its last member. It
breaks MODULE-ENSEMBLE-1: "A module's forward MUST be able to fork every member
of a fw.ModuleList attribute in a loop, and wait on them in another; each future
gives its own member's result".
"""

from collections.abc import Iterable, Iterator
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("MODULE-ENSEMBLE-1")


class ModuleList(ref.Module):
    def __init__(self, modules: Iterable[Any] = ()) -> None:
        super().__init__()
        self._order: list[type] = []
        self._by_class: dict[type, Any] = {}
        for module in modules:
            self.append(module)

    def append(self, module: Any) -> "ModuleList":
        self._order.append(type(module))
        self._by_class[type(module)] = module  # the mutation: a registry keyed by class
        return self

    def __iter__(self) -> Iterator[Any]:
        return (self._by_class[kind] for kind in self._order)

    def __len__(self) -> int:
        return len(self._order)

    def __getitem__(self, index: int) -> Any:
        return self._by_class[self._order[index]]


def adapter() -> Adapter:
    return mutant("module-list-by-class", ModuleList=ModuleList)
