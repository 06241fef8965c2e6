"""A fixed pool of 8 threads, and wait just blocks: once every thread waits, nothing runs.

The help-while-waiting rule is missing: a task that waits on a task it forked
blocks its thread, which the forked task may need. With 8 threads, nesting a
few levels deep works; 64 tasks waiting at once deadlock. Each top-level
scripted call gets a pool of its own (daemon threads), so one deadlock does not
wedge later examples.

It breaks NEST-LEVELS-1 ("A task blocked in wait MUST NOT keep the tasks it
waits on from running, however many tasks are waiting") and NEST-ANY-POOL-1
(tasks that fork subtasks and wait on them "MUST all complete, [...] however
many threads the implementation runs tasks on").
"""

from __future__ import annotations

import contextvars
import functools
import queue
import threading
from typing import Any, Generic, TypeVar

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants import _reasons as reasons
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "NEST-LEVELS-1",
    "NEST-ANY-POOL-1",
    extras={
        "CONTEXT-INHERITED-1": "its probe 3 is a chain of 60 nested waits in scripted code",
        "DET-HAPPENS-BEFORE-1": reasons.MORE_WAITERS,
        "DET-PURE-1": reasons.MORE_WAITERS,
        "ERR-NESTED-1": "1,000 nested waits, deeper than the pool",
        "LIFECYCLE-EXIT-1": "its pools are daemon threads (so that a deadlock cannot keep the "
        "suite from ending): at exit their tasks are abandoned",
        "MODULE-ENSEMBLE-1": reasons.MORE_WAITERS,
        "MODULE-METHOD-1": reasons.MORE_WAITERS,
        "SCRIPT-DYNAMIC-1": "fib(12) nests forks that wait, deeper than the pool",
        "SCRIPT-SAME-RESULT-1": reasons.MORE_WAITERS,
        "WAIT-SELF-1": "its wait blocks without looking for a cycle",
    },
    slow=True,  # its run sleeps out many deadlines and probes' patience
)

T = TypeVar("T")
_local = threading.local()
POOL_SIZE = 8


class BlockingFuture(Generic[T]):
    def __init__(self) -> None:
        self._event = threading.Event()
        self._value: Any = None
        self._error: BaseException | None = None

    def done(self) -> bool:
        return self._event.is_set()

    def wait(self) -> Any:
        self._event.wait()  # no timeout, no helping: the mutation
        if self._error is not None:
            raise self._error
        return self._value


def _worker(tasks: queue.SimpleQueue[Any]) -> None:
    _local.tasks = tasks
    while True:
        future, context, func, args, kwargs = tasks.get()
        try:
            future._value = context.run(func, *args, **kwargs)
        except BaseException as exc:  # noqa: BLE001 - every failure belongs to wait
            future._error = exc
        future._event.set()


def fork(func: Any, /, *args: Any, **kwargs: Any) -> BlockingFuture[Any]:
    if not callable(func):
        raise TypeError(f"fork() needs a callable, got {type(func).__name__}")
    future: BlockingFuture[Any] = BlockingFuture()
    tasks = getattr(_local, "tasks", None)
    context = contextvars.copy_context()  # a task runs in a copy of its caller's context
    if tasks is None:  # plain Python: run now
        try:
            future._value = context.run(func, *args, **kwargs)
        except BaseException as exc:  # noqa: BLE001 - every failure belongs to wait
            future._error = exc
        future._event.set()
    else:
        tasks.put((future, context, func, args, kwargs))
    return future


def wait(future: Any) -> Any:
    if not isinstance(future, BlockingFuture):
        raise TypeError(f"wait() needs a future, got {type(future).__name__}")
    return future.wait()


def _checked(futures: list[BlockingFuture[Any]]) -> list[BlockingFuture[Any]]:
    for item in futures:
        if not isinstance(item, BlockingFuture):
            raise TypeError(f"expected a list of futures, got a {type(item).__name__} in it")
    return list(futures)


def collect_all(futures: list[BlockingFuture[Any]]) -> BlockingFuture[Any]:
    futures = _checked(futures)

    def settle() -> list[BlockingFuture[Any]]:
        for future in futures:
            future._event.wait()
        return futures

    return fork(settle)


def wait_all(futures: list[BlockingFuture[Any]]) -> list[Any]:
    futures = _checked(futures)
    for future in futures:
        future._event.wait()
    return [future.wait() for future in futures]


class ScriptedModule:
    def __init__(self, module: Any) -> None:
        self._forward = script(module.forward)

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        return self._forward(*args, **kwargs)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._forward(*args, **kwargs)


def script(fn: Any) -> Any:
    if isinstance(fn, ref.Module):
        return ScriptedModule(fn)

    @functools.wraps(fn)
    def scripted(*args: Any, **kwargs: Any) -> Any:
        outer = getattr(_local, "tasks", None)
        tasks = outer
        if tasks is None:  # a top-level call: a pool of its own
            tasks = queue.SimpleQueue()
            for _ in range(POOL_SIZE):
                threading.Thread(target=_worker, args=(tasks,), daemon=True).start()
        _local.tasks = tasks
        try:
            return fn(*args, **kwargs)
        finally:
            _local.tasks = outer

    return scripted


def adapter() -> Adapter:
    return mutant(
        "deadlocks-on-nested-wait",
        profiles={"core", "async", "dynamic"},  # its fork and wait know nothing of traces
        fork=fork,
        wait=wait,
        script=script,
        Future=BlockingFuture,
        collect_all=collect_all,
        wait_all=wait_all,
    )
