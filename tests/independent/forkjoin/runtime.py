"""fork and wait, and the futures that combine others, on one pool per process.

Every fork, in plain Python or in scripted code, becomes a task on the pool,
run in a copy of the forking code's context; the task's failure, whatever
its class, goes into its future. The pool is made at the first fork (and made
afresh in a child process after ``os.fork``); before the interpreter exits,
the tasks nobody waited on finish.
"""

from __future__ import annotations

import atexit
import contextvars
import functools
import os
import threading
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from . import control_hooks, trace_hooks
from . import future as future_module
from .future import Future
from .pool import ForkJoinPool, Task, default_parallelism

T = TypeVar("T")

_lock = threading.Lock()
_pools: list[ForkJoinPool] = []


def the_pool() -> ForkJoinPool:
    """This process's pool, started at the first fork."""
    if not _pools:
        with _lock:
            if not _pools:
                made = ForkJoinPool(default_parallelism())
                future_module.use_pool(made)
                _pools.append(made)
    return _pools[0]


def _forget_pool_in_child() -> None:
    # the workers are the parent's threads: a child process starts its own pool
    _pools.clear()
    future_module.use_pool_none()


def _finish_unwaited_tasks() -> None:
    if _pools:
        _pools[0].quiesce()


os.register_at_fork(after_in_child=_forget_pool_in_child)
atexit.register(_finish_unwaited_tasks)


def fork(func: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
    """Start ``func(*args, **kwargs)`` as a task on the pool; its future at once."""
    if not callable(func):
        raise TypeError(f"fork needs a callable, got {type(func).__name__} {func!r}")
    recorder = trace_hooks.current.get()
    if recorder is not None:
        return recorder.fork(func, args, kwargs, _start)
    return _start(functools.partial(func, *args, **kwargs))


def _start(call: Callable[[], T]) -> Future[T]:
    """Queue ``call`` as a task, in a copy of this context; its future."""
    result: Future[T] = Future()
    result._forked = True

    def body() -> None:
        try:
            value = call()
        except BaseException as error:  # noqa: BLE001 - every failure belongs to the future
            result._complete_by_task(error, failed=True)
        else:
            result._complete_by_task(value, failed=False)

    context = contextvars.copy_context()
    controller = control_hooks.active.get()
    if controller is not None and controller.owns_this_thread():
        controller.start(body, context)
        return result
    task = Task(body, context)
    result._task = task
    the_pool().submit(task)
    return result


def wait(fut: Future[T]) -> T:
    """The value of ``fut``'s task, once it is done, or its failure raised."""
    if not isinstance(fut, Future):
        raise TypeError(f"wait needs a future, got {type(fut).__name__} {fut!r}")
    return fut.wait()


def _checked(futures: Iterable[Future[T]], caller: str) -> list[Future[T]]:
    items = list(futures)
    for index, item in enumerate(items):
        if not isinstance(item, Future):
            raise TypeError(
                f"{caller}: item {index} is {type(item).__name__} {item!r}, not a future"
            )
    return items


def collect_all(futures: Iterable[Future[T]]) -> Future[list[Future[T]]]:
    """A future of the given futures, in a new list, done once every one of them is."""
    items = _checked(futures, "collect_all")
    combined: Future[list[Future[T]]] = Future()
    combined._sources = tuple(items)
    if not items:
        combined.set_result([])
        return combined
    remaining = [len(items)]
    count_lock = threading.Lock()

    def one_done(_: Future[T]) -> None:
        with count_lock:
            remaining[0] -= 1
            last = remaining[0] == 0
        if last:
            combined.set_result(list(items))

    for item in items:
        item.add_done_callback(one_done)
    return combined


def wait_all(futures: Iterable[Future[T]]) -> list[T]:
    """The values in the order given; the first failure in that order is raised."""
    items = _checked(futures, "wait_all")
    return [item.wait() for item in items]
