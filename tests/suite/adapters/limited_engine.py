"""The engine behind tests/suite/adapters/limited.py: its limits are here, in the engine's
module, as a real engine's are in its own package, so the triage view tells them from bugs
of the adapter (whose module is limited.py).
"""

from __future__ import annotations

import contextvars
import threading
from typing import Any

import cloudpickle  # type: ignore[import-untyped]  # (a dependency of dask)

import reference_impl as ref

#: how deep tasks may fork tasks: the task a plain call forks is at level 1
NESTING_LIMIT = 3
_DEPTH = contextvars.ContextVar("depth", default=0)
#: what a task beyond the nesting limit waits for: a worker that never comes
_NO_WORKER = threading.Event()


def _at_depth(depth: int, func: Any, args: tuple[Any, ...]) -> Any:
    if depth > NESTING_LIMIT:
        _NO_WORKER.wait()
    _DEPTH.set(depth)
    return func(*args)


def submit(func: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Send a task to a worker: positional arguments only, pickled, one level deeper."""
    if kwargs:
        raise TypeError(f"a remote call takes positional arguments only, got {sorted(kwargs)}")
    cloudpickle.dumps((func, args))  # as it would be sent to a worker process
    return ref.fork(_at_depth, _DEPTH.get() + 1, func, args)
