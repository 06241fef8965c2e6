"""In scripted code, fork waits briefly for its task and raises the task's exception itself.

The compiled function's own forks wait until their task has started, then up to
0.2 s for it to end; a task that failed by then has its exception raised by
fork. (Tasks that run longer are left to run, as on the reference.)

It breaks ERR-SCRIPT-AT-WAIT-1: "In scripted code, a task's exception MUST NOT
be raised by fork: the code after fork runs, and the exception surfaces at wait
on the task's future".
"""

import threading
import time
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._thread_state import local
from tests.mutants import _reasons as reasons
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "ERR-SCRIPT-AT-WAIT-1",
    extras={
        "ASYNC-CONCURRENT-1": reasons.HELD_PAST_FORK,
        "ASYNC-RETURNS-EARLY-1": reasons.HELD_PAST_FORK,
        "NEST-UNWAITED-RUNS-1": reasons.HELD_PAST_FORK,
        "FUTURE-ADD-DONE-CALLBACK-1": reasons.FORK_RAISES_FAILED_FORKED,
        "FUTURE-THEN-1": reasons.FORK_RAISES_FAILED_FORKED,
        "NEST-UNWAITED-1": reasons.FORK_RAISES_FAILED_FORKED,
        "WAIT-SAME-OBJECT-1": reasons.FORK_RAISES_FAILED_FORKED,
        "CONTEXT-SNAPSHOT-1": reasons.HELD_PAST_FORK,
        "DET-PURE-1": reasons.FAILS_AT_FORK,
        "ERR-BASE-EXCEPTION-1": "the probe's scripted tasks fail, which fork raises",
        "ERR-WAIT-AGAIN-1": reasons.FAILED_FUTURE,
        "FUTURE-COLLECT-ALL-FAIL-1": reasons.FAILED_FUTURE,
        "FUTURE-DONE-1": reasons.HELD_PAST_FORK,
        "FUTURE-DONE-FAILED-1": reasons.FAILED_FUTURE,
        "FUTURE-FORKED-METHODS-1": reasons.FORK_RAISES_FAILED_FORKED,
        "FUTURE-SET-ONCE-1": reasons.FORK_RAISES_FAILED_FORKED,
        "FUTURE-VALUE-NOT-DONE-1": "its scripted fork waits up to 0.2 s for each of probe 3's 64 "
        "held tasks: 12.8 s, past the mutants' 10 s deadline",
        "FUTURE-WAIT-ALL-1": "the probe's late failure is raised by its scripted fork",
        "FUTURE-WAIT-ALL-FIRST-1": reasons.FAILED_FUTURE,
        "LIFECYCLE-EXIT-1": "the probe's short task 7 fails, which its scripted fork raises",
        "WAIT-FROM-PYTHON-1": reasons.HELD_PAST_FORK,
        "WAIT-SELF-1": "the cycle's tasks fail while fork waits for them, which fork raises",
    },
    maybe={
        "LIFECYCLE-CALLERS-1": "each caller's fork waits for its task to start, then 0.2 s: "
        "the calls' tasks still meet within the start bound (measured passing), unless a "
        "loaded machine delays the callers past it",
    },
    slow=True,  # its run sleeps out many deadlines and probes' patience
)

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
