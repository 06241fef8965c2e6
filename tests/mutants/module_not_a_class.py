"""fw.Module is a factory object, not a class (subclassing it still works).

An API that exports ``Module`` as a factory object: subclassing and calling it
work, but it is not a class, so ``isinstance`` and ``issubclass`` cannot take
it. It breaks API-NAMES-1: "An implementation MUST provide [...] Future, Module
and ModuleList as classes".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("API-NAMES-1")


class ModuleFactory:
    """Subclassable through ``__mro_entries__``, callable, but not a class."""

    def __mro_entries__(self, bases: tuple[Any, ...]) -> tuple[type, ...]:
        return (ref.Module,)

    def __call__(self) -> ref.Module:
        return ref.Module()


def adapter() -> Adapter:
    return mutant("module-not-a-class", Module=ModuleFactory())
