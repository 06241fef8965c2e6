"""A ``fw.fork`` whose scripted tasks are futures of a given subclass from the start.

Swapping ``__class__`` after ``ref.fork`` returns is too late for a queued
task: a pool worker may have begun running it with the reference's methods.
"""

from typing import Any

import reference_impl as ref
from reference_impl._future import new_task
from reference_impl._pool import get_pool
from reference_impl._thread_state import local


def fork_as(cls: type, func: Any, /, *args: Any, **kwargs: Any) -> Any:
    """``fw.fork(func, *args, **kwargs)``, its future a ``cls``. A module's ``fork`` calls it."""
    thread = local.state
    if thread.scope is not None or not thread.scripted or thread.run is not None:
        future = ref.fork(func, *args, **kwargs)
        future.__class__ = cls
        return future
    if not callable(func):
        return ref.fork(func)  # raises the reference's TypeError
    future = new_task(func, args, kwargs)
    future.__class__ = cls  # before any worker can see it
    if not get_pool().submit(future):
        future._run_if_pending(thread)
    return future
