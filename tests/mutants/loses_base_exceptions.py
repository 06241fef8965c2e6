"""A task's BaseException that is not an Exception is lost: its future gives None.

A worker that catches ``Exception`` to fail the future and takes anything else
for "no result": a task that raises KeyboardInterrupt, SystemExit or a
BaseException of its own completes with None. It breaks ERR-BASE-EXCEPTION-1:
such a task "MUST fail its future like any other failure".
"""

import functools
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "ERR-BASE-EXCEPTION-1",
    extras={
        "ERR-WAIT-AGAIN-1": "the probe's task raises a BaseException",
        "FUTURE-DONE-FAILED-1": "the probe's tasks raise BaseExceptions too",
        "FUTURE-COLLECT-ALL-FAIL-1": "probe 3's tasks raise BaseExceptions: their futures "
        "give None, and the failure is lost",
    },
)


def _guarded(func: Any) -> Any:
    @functools.wraps(func)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except Exception:
            raise
        except BaseException:  # noqa: BLE001 - the mutation: a worker that only handles Exception
            return None

    return run


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if not callable(func):
        return ref.fork(func, *args, **kwargs)
    return ref.fork(_guarded(func), *args, **kwargs)


def adapter() -> Adapter:
    return mutant("loses-base-exceptions", fork=fork)
