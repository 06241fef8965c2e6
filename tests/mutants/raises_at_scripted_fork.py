"""In scripted code, fork waits briefly for its task and raises the task's exception itself.

The compiled function's own forks wait until their task has started, then up to
0.2 s for it to end; a task that failed by then has its exception raised by
fork. (Tasks that run longer are left to run, as on the reference.)
"""

import threading
import time
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._thread_state import local
from tests.mutants._base import mutant

PATIENCE = 0.2


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if not (local.state.scripted and local.state.current is None and callable(func)):
        return ref.fork(func, *args, **kwargs)
    started = threading.Event()

    def task(*a: Any, **k: Any) -> Any:
        started.set()
        return func(*a, **k)

    future = ref.fork(task, *args, **kwargs)
    started.wait(timeout=5)
    deadline = time.monotonic() + PATIENCE
    while not future.done() and time.monotonic() < deadline:
        time.sleep(0.001)
    if future.done():
        ref.wait(future)  # re-raises the task's exception here, in fork
    return future


def adapter() -> Adapter:
    return mutant("raises-at-scripted-fork", fork=fork)
