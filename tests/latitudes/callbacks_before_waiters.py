"""A forked task's future runs its done callbacks before it wakes the threads blocked on it.

The reference wakes the waiters first. Here a task's completion runs the
callbacks, then (in a ``finally``, whatever they raise) wakes the waiters.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl import _callbacks
from reference_impl._core import _DONE, _NO_KWARGS, _RUNNING, SCRIPTED_TASK
from reference_impl._errors import UnretrievedGuard, describe_callable
from reference_impl._future import new_task
from reference_impl._pool import get_pool
from reference_impl._thread_state import local
from tests.latitudes._variant import Latitude, variant

LATITUDE = Latitude(
    where="FUTURE-FORKED-METHODS-1",
    granted="callbacks run once the task has finished (on whatever thread finishes it) ... the "
    "add_done_callback callback signals an event, since nothing says whether it runs before "
    "or after wait() returns",
    reaches=("add_done_callback", ".then(", "collect_all", "wait_all"),
    shows="""
import threading

release, woken = threading.Event(), threading.Event()
seen = []

@fw.ignore
def held(x: int) -> int:
    release.wait(5)
    return x

@fw.script
def start(x: int) -> fw.Future[int]:
    return fw.fork(held, x)

fut = start(1)
waiter = threading.Thread(target=lambda: (fw.wait(fut), woken.set()))
waiter.start()
fut.add_done_callback(lambda f: seen.append(woken.wait(1)))
release.set()
waiter.join(5)
fut.wait()
print(seen)
""",
)


class CallbacksFirst(ref.Future[Any]):
    """A task's future whose completion runs the callbacks, then wakes the waiters."""

    __slots__ = ()

    def _run_if_pending(self, thread: Any = None) -> bool:
        """The reference's ``Core._run_if_pending``, the waiters woken after the callbacks."""
        if thread is None:
            thread = local.state
        scripted_task = self._kind is SCRIPTED_TASK
        if scripted_task:
            try:
                self._claim.pop()  # type: ignore[union-attr]
            except IndexError:
                return False
        func, caller = self._func, thread.current
        try:
            if caller is not None:
                caller._waiting_on = self
            self._state = _RUNNING
            scripted = thread.scripted
            try:
                thread.current, thread.scripted = self, scripted_task
                thread.depth += 1
                self._value = self._context.run(func, *self._args, **self._kwargs)  # type: ignore[union-attr, arg-type]
            finally:
                thread.current, thread.scripted = caller, scripted
                thread.depth -= 1
        except BaseException as exc:  # noqa: BLE001 - every failure belongs to wait()
            self._exception, self._traceback, self._guard = exc, exc.__traceback__, None
            try:  # noqa: SIM105 - as the reference: only the warning may be lost
                self._guard = UnretrievedGuard(exc, describe_callable(func))
            except BaseException:  # noqa: BLE001
                pass
        finally:
            self._func, self._args, self._kwargs, self._context = None, (), _NO_KWARGS, None
            if caller is not None:
                caller._waiting_on = None
            self._state = _DONE
        try:
            if self._callbacks is not None:
                _callbacks.run_all(self)
        finally:
            waker = self._waker
            if waker is not None:
                waker.release()
        return True


def fork(func: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    """The reference's fork; a task of scripted code gets a :class:`CallbacksFirst` future."""
    thread = local.state
    if not thread.scripted or thread.scope is not None or thread.run is not None:
        return ref.fork(func, *args, **kwargs)
    if not callable(func):
        raise TypeError(f"fork() expects a callable, got {type(func).__name__}")
    future = new_task(func, args, kwargs)
    future.__class__ = CallbacksFirst  # before any worker can see it
    if not get_pool().submit(future):
        future._run_if_pending(thread)
    return future


def adapter() -> Adapter:
    return variant("callbacks-before-waiters", fork=fork)
