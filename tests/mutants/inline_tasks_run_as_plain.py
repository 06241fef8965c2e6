"""A scripted task run by a plain-Python thread that waits on it runs as plain Python.

Help-while-waiting runs a queued task on the waiting thread; the task then
inherits that thread's mode instead of being scripted code itself. When plain
Python waits on a future scripted code returned and finds its task still
queued (the pool busy), the task runs as plain Python: its own forks run at
once, one after the other. Breaks ASYNC-CONCURRENT-1: "In scripted code at
least two forked tasks MUST be able to run at the same time" (every task
forked from scripted code is scripted code, whoever runs it).
"""

import threading
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl import _callbacks
from reference_impl._core import _DONE, _NO_KWARGS, _RUNNING, SCRIPTED_TASK
from reference_impl._errors import UnretrievedGuard, describe_callable
from reference_impl._thread_state import ThreadState, local
from tests.mutants._base import mutant
from tests.mutants._contract import contract
from tests.mutants._tasks import fork_as

CONTRACT = contract("ASYNC-CONCURRENT-1")


def _on_runtime_thread() -> bool:
    return threading.current_thread().name.startswith(("forkwait-worker", "forkwait-nested"))


class RunsAsItsRunner(ref.Future[Any]):
    __slots__ = ()

    def _run_if_pending(self, thread: ThreadState | None = None) -> bool:
        """The reference's, but for the mode the task runs in."""
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
                if _on_runtime_thread() or thread.scripted:
                    thread.scripted = scripted_task
                # the mutation: on any other thread the task keeps that thread's mode
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
            waker = self._waker
            if waker is not None:
                waker.release()
        if self._callbacks is not None:
            _callbacks.run_all(self)
        return True


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    return fork_as(RunsAsItsRunner, func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("inline-tasks-run-as-plain", fork=fork)
