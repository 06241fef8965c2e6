"""Module instruments each subclass's ``forward`` at class creation, read from the class's own
namespace.

``Module.__init_subclass__`` wraps ``cls.__dict__["forward"]``: a subclass that
defines ``forward`` works, but a base class of a program's own without one, or a
subclass that inherits ``forward``, raises KeyError at its ``class`` statement.
It breaks API-NAMES-1: "Module MUST be a class that programs can subclass".
"""

import functools
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("API-NAMES-1")


def _instrument(cls: type, /, **kwargs: Any) -> None:
    forward = cls.__dict__["forward"]  # the mutation: only the class's own forward

    @functools.wraps(forward)
    def instrumented(self: Any, *args: Any, **kw: Any) -> Any:
        return forward(self, *args, **kw)

    cls.forward = instrumented  # type: ignore[attr-defined]


def adapter() -> Adapter:
    # the mutant runs in a suite process of its own: patching the class is enough
    ref.Module.__init_subclass__ = classmethod(_instrument)  # type: ignore[assignment,method-assign]
    return mutant("module-subclass-needs-own-forward")
