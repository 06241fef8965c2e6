"""A forked future's own wait() blocks until a worker runs the task; only fw.wait runs it itself.

Help-while-waiting is written into ``fw.wait`` alone; the ``wait()`` method of
a future is a plain blocking wait on its completion. A task that waits with
``fut.wait()`` on a subtask still queued holds its thread until another worker
gets to it: once every worker waits this way, nothing runs. Breaks
NEST-ANY-POOL-1 (tasks that fork subtasks and wait on them "MUST all
complete ... however many threads the implementation runs tasks on"; a
future's ``wait()`` is the same wait as ``fw.wait``).
"""

import threading
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._callbacks import Entry, add
from reference_impl._thread_state import local
from tests.mutants._base import mutant
from tests.mutants._contract import contract
from tests.mutants._tasks import fork_as

CONTRACT = contract("NEST-ANY-POOL-1", slow=True)  # its probe hangs until the deadline


class BlockingWait(ref.Future[Any]):
    __slots__ = ()

    def wait(self) -> Any:
        thread = local.state
        if thread.scope is None and thread.run is None and not self.done():
            finished = threading.Event()
            add(self, Entry(lambda _: finished.set()))
            finished.wait()  # the mutation: nobody runs the task here
        return super().wait()


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    return fork_as(BlockingWait, func, *args, **kwargs)


def wait(future: Any, /) -> Any:
    """``fw.wait``: the reference's own, which runs a queued task itself."""
    if not isinstance(future, ref.Future):
        return ref.wait(future)  # raises the reference's TypeError
    return ref.Future.wait(future)


def adapter() -> Adapter:
    return mutant("wait-method-blocks-without-helping", fork=fork, wait=wait)
