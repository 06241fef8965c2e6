"""wait_all returns the values in reverse order."""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant


def wait_all(futures: list[Any]) -> list[Any]:
    return list(reversed(ref.wait_all(futures)))


def adapter() -> Adapter:
    return mutant("wait-all-reversed", wait_all=wait_all)
