"""wait returns None for a failed task instead of raising.

A runtime that logs a task's failure and moves on. It breaks ERR-AT-WAIT-1
("wait on the task's future MUST raise it"), ERR-SCRIPT-AT-WAIT-1 (in scripted
code "the exception surfaces at wait on the task's future"), ERR-WAIT-AGAIN-1
("Waiting again on a failed future MUST raise again") and ERR-NESTED-1 ("A
failure MUST travel up through every level of nested forks").
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants import _reasons as reasons
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "ERR-AT-WAIT-1",
    "ERR-SCRIPT-AT-WAIT-1",
    "ERR-WAIT-AGAIN-1",
    "ERR-NESTED-1",
    extras={
        "WAIT-SAME-OBJECT-1": reasons.NO_RAISE,
        "DET-PURE-1": "a generated program catches a task's failure",
        "ERR-CHAIN-KEPT-1": reasons.NO_RAISE,
        "ERR-TYPE-KEPT-1": reasons.NO_RAISE,
        "FUTURE-COLLECT-ALL-FAIL-1": reasons.NO_RAISE,
        "FUTURE-DONE-FAILED-1": reasons.NO_RAISE,
        "FUTURE-FORKED-METHODS-1": reasons.FAILED_FORKED,
        "FUTURE-SET-EXCEPTION-1": reasons.NO_RAISE,
        "FUTURE-SET-ONCE-1": reasons.FAILED_FORKED,
        "FUTURE-WAKES-WAITERS-1": reasons.NO_RAISE,
        "KWARGS-UNKNOWN-1": reasons.NO_RAISE,
        "WAIT-NOT-A-FUTURE-1": "wait's own TypeError is swallowed too",
        "WAIT-SELF-1": reasons.NO_RAISE,
    },
)


def wait(future: Any) -> Any:
    try:
        return ref.wait(future)
    except Exception:  # noqa: BLE001 - the mutation
        return None


def adapter() -> Adapter:
    return mutant("swallows-exceptions", wait=wait)
