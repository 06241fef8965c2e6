"""fork and wait: the two primitives every example of the spec is built on."""

from __future__ import annotations

from collections.abc import Callable
from contextvars import copy_context
from typing import Any, ParamSpec, TypeVar

from reference_impl import _pool
from reference_impl._callbacks import Entry, add, countdown, run_all
from reference_impl._core import _DONE, _NO_KWARGS, _PENDING, _RUNNING, _new
from reference_impl._errors import UnretrievedGuard, describe_callable
from reference_impl._future import Future, run_now
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
        return run_now(func, args, kwargs)
    run = context.run
    if run is not None:  # a controlled schedule decides when the task runs
        controlled: Future[T] = run.fork(func, args, kwargs)
        return controlled
    # new_task() written out: this is the hot path of every scripted fork
    future: Future[T] = _new(Future)
    future._func = func
    future._args = args
    future._kwargs = kwargs
    future._context = copy_context()
    future._claim = [None]
    future._state = _PENDING
    future._exception = None
    future._callbacks = None
    future._waiting_on = None
    future._waker = None
    # WorkerPool.submit() written out, for the same reason
    pool = _pool._pool or get_pool()
    if pool._closed:
        future._run_if_pending()  # pool shut down (interpreter exit): run it here
        return future
    pool._queue.append(future)
    try:
        if not (pool._idle and pool._token):  # else a worker is on its way already
            pool.wake()
    except Exception:  # noqa: BLE001, S110 - a RecursionError at the stack's limit: see wake()
        pass
    return future


def wait(future: Future[T], /) -> T:  # noqa: PLR0912, PLR0915 - the hot path, written out
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
    if future._state == _PENDING and future._claim is not None:
        # A task nobody may have started: run it here. The hot path of every
        # fork+wait, so Future._run_here and _execute written out (keep the three
        # in step). If it was queued last, take it back from the pool's queue
        # first, so its memory is reused at once rather than when a worker
        # drains the queue (a third of a tight fork+wait loop's time otherwise).
        pool = _pool._pool
        if pool is not None:
            tasks = pool._queue
            if tasks and tasks[-1] is future:
                try:
                    last = tasks.pop()
                except IndexError:  # a worker emptied the queue meanwhile
                    last = future
                if last is not future:  # queued by another thread meanwhile
                    pool.put_back(last)
        try:
            future._claim.pop()
        except IndexError:  # claimed a moment ago by another thread
            pass
        else:  # claimed: whatever is raised from here on, the future ends done
            current = context.current
            func = future._func
            try:
                if current is not None:
                    current._waiting_on = future  # for cycle checks: this task waits on it
                future._state = _RUNNING
                outer_scripted = context.scripted
                try:
                    context.current = future
                    context.scripted = True
                    kwargs = future._kwargs
                    if kwargs:
                        value = future._context.run(func, *future._args, **kwargs)  # type: ignore[union-attr, arg-type]
                    else:
                        value = future._context.run(func, *future._args)  # type: ignore[union-attr, arg-type]
                    future._value = value
                finally:
                    context.current = current
                    context.scripted = outer_scripted
            except BaseException as exc:  # noqa: BLE001 - every failure belongs to wait()
                future._exception = exc
                future._traceback = exc.__traceback__
                future._guard = None
                try:  # noqa: SIM105 - suppress() would be two more calls at the stack limit
                    future._guard = UnretrievedGuard(exc, describe_callable(func))
                except BaseException:  # noqa: BLE001, S110
                    pass
            finally:
                future._func = future._context = None
                future._args = ()
                future._kwargs = _NO_KWARGS
                future._state = _DONE
                if current is not None:
                    current._waiting_on = None
                waker = future._waker
                if waker is not None:
                    waker.release()
            if future._callbacks is not None:
                run_all(future)
    if future._state != _DONE:
        future._wait_for_others(context)
    if future._exception is None:  # the common case, without a call
        return future._value  # type: ignore[no-any-return]
    return future._outcome()


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
    context = local.context
    run = context.run
    if run is not None:  # wait points of the controlled schedule, as wait() is
        run.complete(gate)
    else:
        gate._complete(context)


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
