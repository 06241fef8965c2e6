"""wait_all cancels the futures still pending when one fails, as a task group does.

At the first failure, every task of the list that has not started is
completed with ``CancelledError`` and never runs; the failure is raised as it
should be. When every task has finished before the failure is seen, as in the
examples, nothing is cancelled.

It breaks FUTURE-WAIT-ALL-FIRST-1: "Either way it raises only once at least one
given future has failed, and tasks still running when it raises go on running".
"""

from concurrent.futures import CancelledError
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("FUTURE-WAIT-ALL-FIRST-1")


def wait_all(futures: list[Any], /) -> list[Any]:
    items = list(futures)
    try:
        return ref.wait_all(items)
    except BaseException:
        for future in items:
            if isinstance(future, ref.Future) and future._claim is not None:
                future._fail_if_pending(CancelledError("cancelled by wait_all"))
        raise


def adapter() -> Adapter:
    return mutant("wait-all-cancels-the-rest", wait_all=wait_all)
