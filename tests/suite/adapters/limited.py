"""The reference with three limits real engines have, for the loop from a first red run to
a clean, declared one (tests/suite/test_triage.py):

- no keyword arguments: ``fork(func, *args)``, as many remote-call APIs are;
- tasks are pickled (with cloudpickle, as Dask, Ray and loky do), so a task that holds a
  lock, a generator or a context variable cannot be forked;
- a nesting limit: a task forked deeper than ``NESTING_LIMIT`` levels waits for a worker
  of its level, and there is none, as in a pool with a fixed number of workers per level.

Each limit fails many examples for one cause, which is what the triage view groups.
"""

from __future__ import annotations

import contextvars
import threading
from typing import Any

import cloudpickle  # type: ignore[import-untyped]  # (a dependency of dask)

import reference_impl as ref
from conformance.adapter import Adapter
from conformance.adapters.reference import adapter as reference_adapter

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


def fork(func: Any, /, *args: Any) -> Any:
    cloudpickle.dumps((func, args))  # as it would be sent to a worker process
    return ref.fork(_at_depth, _DEPTH.get() + 1, func, args)


def adapter() -> Adapter:
    base = reference_adapter()
    base.fw.fork = fork
    return Adapter(name="limited", version="1", fw=base.fw, profiles=base.profiles)
