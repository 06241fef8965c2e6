"""fork and wait: the two primitives every example of the spec is built on."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from reference_impl._callbacks import Entry, add, countdown
from reference_impl._core import _DONE
from reference_impl._future import Future, new_task, run_now
from reference_impl._pool import get_pool
from reference_impl._thread_state import local

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
    thread = local.state
    scope = thread.scope
    if scope is not None:  # a trace being recorded
        return scope.fork(func, args, kwargs)
    if not thread.scripted:
        return run_now(func, args, kwargs)
    run = thread.run
    if run is not None:  # a controlled schedule decides when the task runs
        return run.fork(func, args, kwargs)
    future: Future[T] = new_task(func, args, kwargs)
    if not get_pool().submit(future):
        future._run_if_pending(thread)  # pool shut down (interpreter exit): run it here
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
    return future.wait()


def collect_all(futures: list[Future[T]], /) -> Future[list[Future[T]]]:
    """A future that completes once every future in ``futures`` has, successful or not.

    It returns at once. Its value is the list of the same futures, as with
    ``torch.futures.collect_all`` (which, unlike this, fails the combined future
    when one fails). Waiting on it runs those of its tasks nobody has started.
    """
    checked = _check_futures("collect_all", futures)
    combined: Future[list[Future[T]]] = Future()
    combined._args = tuple(checked)  # its sources
    if not checked:
        combined._settle(checked, None)
        return combined
    entry = Entry(countdown(len(checked), lambda: combined._settle(checked, None)))
    for future in checked:
        add(future, entry)
    return combined


def wait_all(futures: list[Future[T]], /) -> list[T]:
    """The values of ``futures`` in order, once all are done; or the first failure, at once.

    As ``torch.futures.wait_all`` (since pytorch PR #53953): a failure is raised
    as soon as it is known, without waiting for the other futures. When several
    have failed by then, the first in list order is raised. A task still queued
    is run by this wait itself (help-while-waiting), to its end: a failure
    elsewhere meanwhile is raised once it ends.
    """
    checked = _check_futures("wait_all", futures)
    for future in checked:
        if future._state != _DONE:
            _wait_for_failure_or_all(checked)
            break
    for future in checked:
        if future._state == _DONE and future._exception is not None:
            future._outcome()  # raises it
    return [future._value for future in checked]


def _wait_for_failure_or_all(futures: list[Future[Any]]) -> None:
    gate: Future[None] = Future()
    gate._args = tuple(futures)  # its sources: waiting on it runs those nobody started

    def one_done(future: Future[Any]) -> None:
        if future._exception is not None:
            gate._settle(None, None)
        else:
            all_done(future)

    all_done = countdown(len(futures), lambda: gate._settle(None, None))
    for future in futures:
        add(future, Entry(one_done))
    thread = local.state
    run = thread.run
    if run is not None:  # wait points of the controlled schedule, as wait() is
        run.wait_until_done(gate)
    else:
        gate._wait_until_done(thread)


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
