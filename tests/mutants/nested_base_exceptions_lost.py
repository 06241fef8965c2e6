"""In a task forked by a task, a BaseException that is not an Exception is lost.

The runner of nested tasks handles ``Exception`` only; its ``finally``
completes the future with no value, so ``wait`` gives None. The caller's own
forks are run as the reference runs them.

It breaks ERR-BASE-EXCEPTION-1: such a task "MUST fail its future like any other
failure: [...] wait raises a BaseException whose text contains its message".
"""

import functools
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._thread_state import local
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "ERR-BASE-EXCEPTION-1",
    extras={
        "ERR-WAIT-AGAIN-1": "the probe's subtask raises a BaseException, which is lost",
    },
)


def _guarded(func: Any) -> Any:
    @functools.wraps(func)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except Exception:
            raise
        except BaseException:  # noqa: BLE001 - the mutation: only Exception is kept
            return None

    return run


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if local.state.current is None or not callable(func):
        return ref.fork(func, *args, **kwargs)
    return ref.fork(_guarded(func), *args, **kwargs)


def adapter() -> Adapter:
    return mutant("nested-base-exceptions-lost", fork=fork)
