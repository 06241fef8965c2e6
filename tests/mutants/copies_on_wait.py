"""wait hands out a fresh copy of a list result each time."""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant


def wait(future: Any) -> Any:
    value = ref.wait(future)
    return list(value) if isinstance(value, list) else value


def adapter() -> Adapter:
    return mutant("copies-on-wait", wait=wait)
