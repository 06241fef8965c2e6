"""wait returns None for a failed task instead of raising."""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant


def wait(future: Any) -> Any:
    try:
        return ref.wait(future)
    except Exception:  # noqa: BLE001 - the mutation
        return None


def adapter() -> Adapter:
    return mutant("swallows-exceptions", wait=wait)
