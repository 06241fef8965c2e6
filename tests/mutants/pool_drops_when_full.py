"""A scripted fork into a full queue (256 tasks not yet taken) is not queued.

A bounded work queue whose ``put_nowait`` raises ``queue.Full``, which the
runtime swallows: the future is returned as usual and a ``wait`` on it still
runs the task (help-while-waiting), so every waited task completes; a task
nobody waits on, forked while the queue is full, never runs, and none starts
before it is waited. Breaks NEST-UNWAITED-RUNS-1 ("In scripted code a task
nobody waits on MUST still run to completion") in a busy runtime.
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._future import new_task
from reference_impl._pool import get_pool
from reference_impl._thread_state import local
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("NEST-UNWAITED-RUNS-1", slow=True)  # its probe waits out its patience

QUEUE_LIMIT = 256


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    thread = local.state
    scripted = thread.scripted and thread.scope is None and thread.run is None
    if scripted and callable(func) and get_pool().pending() >= QUEUE_LIMIT:
        return new_task(func, args, kwargs)  # the mutation: queue.Full, swallowed
    return ref.fork(func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("pool-drops-when-full", fork=fork)
