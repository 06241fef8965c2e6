"""fork and wait: the two primitives every example of the spec is built on."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from reference_impl import _pool
from reference_impl._future import Future
from reference_impl._pool import get_pool
from reference_impl._state import local
from reference_impl._trace import trace_fork, trace_wait

# fork and wait read the thread's context (see _state) once, and the facts behind
# active_scope() and active_run() from it: they are the hot path of every program.

P = ParamSpec("P")
T = TypeVar("T")


def fork(func: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
    """Start ``func(*args, **kwargs)`` as a task and return its :class:`Future` at once.

    Inside scripted code the task runs on the worker pool, in parallel with the
    caller. In plain Python it runs right here, before ``fork`` returns, as
    ``torch.jit.fork`` does; either way an exception it raises is kept for
    :func:`wait`, never raised by ``fork``.

    Raises:
        TypeError: ``func`` is not callable (checked now, not when the task runs).
    """
    if not callable(func):
        raise TypeError(
            f"fork() expects a callable as its first argument, got {type(func).__name__}: {func!r}"
        )
    context = local.context
    scope = context.scope
    if scope is not None:
        return trace_fork(scope, func, args, kwargs)
    if not context.scripted:
        return Future(func, args, kwargs, True)  # run now
    run = context.run
    if run is not None:  # a controlled schedule decides when the task runs
        controlled: Future[T] = run.fork(func, args, kwargs)
        return controlled
    future: Future[T] = Future(func, args, kwargs, False)  # queued
    if not (_pool._pool or get_pool()).submit(future):
        future._run_if_pending()  # pool shut down (interpreter exit): run it here
    return future


def wait(future: Future[T], /) -> T:
    """Block until the task of ``future`` is done; return its value or raise its exception.

    Every call on the same future gives the same object (or re-raises the same
    exception, with the task's traceback). A task that is queued but not started
    is run by the waiting thread itself, so nested forks cannot exhaust the pool.

    Raises:
        TypeError: ``future`` is not a :class:`Future`.
        DeadlockError: the calling task would wait on itself, directly or in a cycle.
    """
    if not isinstance(future, Future):
        raise TypeError(
            f"wait() expects a Future returned by fork(), got {type(future).__name__}: {future!r}"
        )
    context = local.context
    scope = context.scope
    if scope is not None:
        return trace_wait(scope, future)  # type: ignore[no-any-return]
    run = context.run
    if run is not None:
        controlled: T = run.wait(future)
        return controlled
    return future._wait(context)


def _settle(futures: list[Future[Any]]) -> list[Future[Any]]:
    """Wait until every future is done, leaving failures to be retrieved from each."""
    run = local.context.run
    for future in futures:
        if run is not None:  # a wait point of the controlled schedule, as wait() is
            run.complete(future)
        else:
            future._complete()
    return futures


def collect_all(futures: list[Future[T]], /) -> Future[list[Future[T]]]:
    """A future that completes once every future in ``futures`` has, successful or not.

    Its value is the same list of futures, as with ``torch.futures.collect_all``.
    """
    checked = _check_futures("collect_all", futures)
    return fork(_settle, checked)


def wait_all(futures: list[Future[T]], /) -> list[T]:
    """Wait for every future, then return their values in order.

    All tasks finish before anything is raised; the first failure in list order is
    then re-raised, as with ``torch.futures.wait_all``.
    """
    checked = _check_futures("wait_all", futures)
    return [future._wait() for future in _settle(checked)]


def _check_futures(name: str, futures: list[Future[T]]) -> list[Future[T]]:
    items = list(futures)
    for index, item in enumerate(items):
        if not isinstance(item, Future):
            raise TypeError(
                f"{name}() expects a list of Futures; item {index} is "
                f"{type(item).__name__}: {item!r}"
            )
    return items


__all__ = ["collect_all", "fork", "wait", "wait_all"]
