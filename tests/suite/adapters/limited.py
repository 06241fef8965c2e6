"""The reference with three limits real engines have, for the loop from a first red run to
a clean, declared one (tests/suite/test_triage.py); the limits are the engine's
(limited_engine.py), this module only the adapter:

- no keyword arguments: ``submit(func, args, {})``, as many remote-call APIs are;
- tasks are pickled (with cloudpickle, as Dask, Ray and loky do), so a task that holds a
  lock, a generator or a context variable cannot be forked;
- a nesting limit: a task forked deeper than ``NESTING_LIMIT`` levels waits for a worker
  of its level, and there is none, as in a pool with a fixed number of workers per level.

Each limit fails many examples for one cause, which is what the triage view groups.
"""

from __future__ import annotations

from typing import Any

from conformance.adapter import Adapter
from conformance.adapters.reference import adapter as reference_adapter
from tests.suite.adapters.limited_engine import submit


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    return submit(func, args, kwargs)


def adapter() -> Adapter:
    base = reference_adapter()
    base.fw.fork = fork
    return Adapter(name="limited", version="1", fw=base.fw, profiles=base.profiles)
