"""wait_all gives the values in the order the futures completed, not the order of the list.

Gathering by completion: each future's value is appended by a done callback as
it arrives (as ``asyncio.as_completed`` hands them out), which is the list's
order whenever the tasks happen to finish in it. Breaks FUTURE-WAIT-ALL-1:
the values come "in the order of ``futures`` (not sorted, not in the order the
tasks finished)".
"""

import threading
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("FUTURE-WAIT-ALL-1")


def wait_all(futures: list[Any]) -> list[Any]:
    arrived: list[Any] = []
    lock = threading.Lock()

    def collect(future: Any) -> None:
        with lock:
            arrived.append(future)

    checked = ref._api._check_futures("wait_all", futures)
    for future in checked:
        ref._callbacks.add(future, ref._callbacks.Entry(collect))
    values = ref.wait_all(checked)  # raises a failure as the reference does
    if len(arrived) != len(checked):  # a duplicate's callbacks: fall back to list order
        return values
    return [future._value for future in arrived]  # the mutation: completion order


def adapter() -> Adapter:
    return mutant("wait-all-in-completion-order", wait_all=wait_all)
