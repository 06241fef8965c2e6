"""A forked task's future runs its callbacks before it wakes its blocked waiters.

The task's completion runs the done callbacks, then releases the threads
blocked in ``wait``, with no ``finally`` between: a callback that raises a
``KeyboardInterrupt`` or ``SystemExit`` (raised once every callback has run)
leaves the waiters blocked for good. Created futures wake first, as they should.

It breaks FUTURE-ADD-DONE-CALLBACK-1: "An exception the callback raises, any
BaseException included, MUST NOT [...] keep waiters from waking".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl import _callbacks
from reference_impl._core import _DONE, _NO_KWARGS, _RUNNING, SCRIPTED_TASK
from reference_impl._errors import UnretrievedGuard, describe_callable
from reference_impl._thread_state import local
from tests.mutants._base import mutant
from tests.mutants._contract import contract
from tests.mutants._tasks import fork_as

CONTRACT = contract(
    "FUTURE-ADD-DONE-CALLBACK-1",
    slow=True,  # its blocked waiters hang until their deadline
)


class CallbacksFirst(ref.Future[Any]):
    __slots__ = ()

    def _run_if_pending(self, thread: Any = None) -> bool:
        if thread is None:
            thread = local.state
        scripted_task = self._kind is SCRIPTED_TASK
        if scripted_task:
            try:
                self._claim.pop()  # type: ignore[union-attr]
            except IndexError:
                return False
        func = self._func
        caller = thread.current
        try:
            if caller is not None:
                caller._waiting_on = self
            self._state = _RUNNING
            scripted = thread.scripted
            try:
                thread.current = self
                thread.scripted = scripted_task
                thread.depth += 1
                self._value = self._context.run(func, *self._args, **self._kwargs)  # type: ignore[union-attr, arg-type]
            finally:
                thread.current = caller
                thread.scripted = scripted
                thread.depth -= 1
        except BaseException as exc:  # noqa: BLE001
            self._exception = exc
            self._traceback = exc.__traceback__
            self._guard = None
            try:  # noqa: SIM105
                self._guard = UnretrievedGuard(exc, describe_callable(func))
            except BaseException:  # noqa: BLE001
                pass
        finally:
            self._func, self._args, self._kwargs, self._context = None, (), _NO_KWARGS, None
            if caller is not None:
                caller._waiting_on = None
            self._state = _DONE
        if self._callbacks is not None:
            _callbacks.run_all(self)  # the mutation: before the waiters are woken
        waker = self._waker
        if waker is not None:
            waker.release()
        return True


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    return fork_as(CallbacksFirst, func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("forked-callbacks-before-waking", fork=fork)
