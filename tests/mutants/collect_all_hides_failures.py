"""collect_all puts a future of None in place of a failed future: the failure is lost.

A collect_all that settles its futures for the caller, putting an empty
placeholder in place of each one that failed, so that every item can be waited
without a ``try``. It breaks FUTURE-COLLECT-ALL-FAIL-1: "When a given future
fails, that failure MUST NOT be lost."
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("FUTURE-COLLECT-ALL-FAIL-1")


def _nothing() -> None:
    return None


def _hide_failures(combined: Any) -> list[Any]:
    settled = []
    for future in combined.value():
        try:
            ref.wait(future)
        except Exception:  # noqa: BLE001 - the mutation
            settled.append(ref.fork(_nothing))
        else:
            settled.append(future)
    return settled


def collect_all(futures: list[Any]) -> Any:
    return ref.collect_all(futures).then(_hide_failures)


def adapter() -> Adapter:
    return mutant("collect-all-hides-failures", collect_all=collect_all)
