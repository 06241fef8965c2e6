"""A failed future raises at its first wait only; later waits give None."""

import weakref
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant

_reported: "weakref.WeakSet[Any]" = weakref.WeakSet()


def wait(future: Any) -> Any:
    if isinstance(future, ref.Future) and future in _reported:
        return None
    try:
        return ref.wait(future)
    except Exception:
        if isinstance(future, ref.Future):
            _reported.add(future)
        raise


def adapter() -> Adapter:
    return mutant("forgets-failure", wait=wait)
