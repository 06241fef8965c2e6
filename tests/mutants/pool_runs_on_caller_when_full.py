"""When 256 tasks are queued, a scripted fork runs its task on the calling thread.

A bounded work queue with a caller-runs policy (Java's
``ThreadPoolExecutor.CallerRunsPolicy``): once the queue holds 256 tasks
that no worker has taken, ``fork`` runs the next task itself before it
returns, which also slows the producer down. Below that the runtime is
asynchronous, and every task still runs once. Breaks ASYNC-RETURNS-EARLY-1:
"In scripted code, ``fork`` MUST return before the forked task has finished",
in every state of the runtime.
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._core import MAX_NESTED
from reference_impl._future import new_task
from reference_impl._pool import get_pool
from reference_impl._thread_state import local
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("ASYNC-RETURNS-EARLY-1")

QUEUE_LIMIT = 256


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    thread = local.state
    scripted = thread.scripted and thread.scope is None and thread.run is None
    full = get_pool().pending() >= QUEUE_LIMIT
    if scripted and callable(func) and full and thread.depth < MAX_NESTED:
        future = new_task(func, args, kwargs)
        future._run_if_pending(thread)  # the mutation: the caller runs it, now
        return future
    return ref.fork(func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("pool-runs-on-caller-when-full", fork=fork)
