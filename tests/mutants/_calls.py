"""Mutations of top-level scripted calls: what the compiled function itself forks and waits.

``scripted_call_mutant`` builds ``fork``, ``wait`` and ``script`` that route the
forks and waits a compiled function makes *itself* (on the calling thread, not
inside a task) through a :class:`Call` object, one per top-level call. Tasks,
and scripted modules, run as on the reference.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any

import reference_impl as ref
from reference_impl._thread_state import local


class Call:
    """One top-level scripted call; subclasses change what its waits give."""

    def __init__(self, number: int) -> None:
        #: 0 for the first call of a compiled function, 1 for the next...
        self.number = number
        self.forks: list[ref.Future[Any]] = []
        self.waited: set[int] = set()

    def forked(self, future: ref.Future[Any]) -> None:
        self.forks.append(future)

    def wait(self, future: ref.Future[Any]) -> Any:
        self.waited.add(id(future))
        return ref.wait(future)

    def finish(self, result: Any) -> None:
        """Called with the compiled function's result, before it is returned."""


class Routes:
    """``fork``, ``wait`` and ``script`` for an ``fw`` whose scripted calls are ``kind``."""

    def __init__(self, kind: Callable[[int], Call]) -> None:
        self.kind = kind
        self.local = threading.local()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (LIFECYCLE-EXIT-1 hands fw.fork to a new interpreter) as a fresh Routes."""
        return (Routes, (self.kind,))

    def current(self) -> Call | None:
        if local.state.current is not None:  # a task, perhaps run inline by a wait
            return None
        call: Call | None = getattr(self.local, "call", None)
        return call

    def fork(self, func: Any, /, *args: Any, **kwargs: Any) -> Any:
        future = ref.fork(func, *args, **kwargs)
        call = self.current()
        if call is not None:
            call.forked(future)
        return future

    def wait(self, future: Any) -> Any:
        call = self.current()
        if call is None or not isinstance(future, ref.Future):
            return ref.wait(future)
        return call.wait(future)

    def script(self, obj: Any, **options: Any) -> Any:
        scripted = ref.script(obj, **options)
        if isinstance(obj, ref.Module):
            return scripted
        calls = [0]

        @functools.wraps(obj)
        def top_level(*args: Any, **kwargs: Any) -> Any:
            if getattr(self.local, "call", None) is not None or local.state.current is not None:
                return scripted(*args, **kwargs)  # not a top-level call
            call = self.local.call = self.kind(calls[0])
            calls[0] += 1
            try:
                result = scripted(*args, **kwargs)
                call.finish(result)
                return result
            finally:
                self.local.call = None

        return top_level


class MatchingCall(Call):
    """The first wait on each future gives the result of the earliest unclaimed fork
    (``lifo``: the latest), whichever future it was given."""

    lifo = False

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.claimed: dict[int, ref.Future[Any]] = {}

    def use_lifo(self) -> bool:
        return self.lifo

    def wait(self, future: ref.Future[Any]) -> Any:
        if id(future) not in self.claimed and any(f is future for f in self.forks):
            taken = {id(f) for f in self.claimed.values()}
            free = [f for f in self.forks if id(f) not in taken]
            self.claimed[id(future)] = free[-1] if self.use_lifo() else free[0]
        return super().wait(self.claimed.get(id(future), future))
