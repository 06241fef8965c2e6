"""collect_all's future gives the futures' values instead of the futures."""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant


def collect_all(futures: list[Any]) -> Any:
    return ref.fork(ref.wait_all, list(futures))


def adapter() -> Adapter:
    return mutant("collect-all-values", collect_all=collect_all)
