"""forkwait on Dask: scripted forks run as tasks on a ``dask.distributed`` cluster.

Plain Python forks run synchronously (as on the reference and torch); inside
``script``-ed code each fork is a Dask task, nested forks are submitted from
inside tasks with ``get_client()``, and a task that waits ``secede()``-s from
the worker's thread pool while it blocks, then ``rejoin()``-s, so waiting tasks
never starve the workers. Exceptions surface at ``wait`` with their type (in
the in-process cluster, the very object the task raised). A wait that would
close a cycle of waits raises ``DeadlockError`` instead of blocking (``_waits``).

A task runs in a copy of its forking caller's ``contextvars`` context, taken at
the fork, as on the reference: a plain fork runs on the spot in a copy, and a
scripted fork's copy travels with the task to the in-process cluster's worker
thread. A cluster in other processes cannot receive it (a ``Context``, like a
``ContextVar``, cannot be pickled): there each task runs in a copy of its worker
thread's context, so tasks at least never see each other's changes.
"""

from __future__ import annotations

import contextvars
import functools
import threading
from collections.abc import Callable
from typing import Any, Generic, ParamSpec, TypeVar

from dask_impl import _waits
from dask_impl._cluster import ENV_SCHEDULER, client, in_process, submit
from reference_impl import Module, ModuleList, ignore

__version__ = "0.1.0"

P = ParamSpec("P")
T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class _State(threading.local):
    scripted: bool = False


_state = _State()
_UNSET: Any = object()


class Future(Generic[T_co]):
    """A fork's result: computed already (plain Python) or by a Dask task."""

    def __init__(self) -> None:
        self._dask: Any = None
        self._value: Any = _UNSET
        self._error: BaseException | None = None
        self._raised: BaseException | None = None  # set by the task itself, in-process
        self._lock = threading.Lock()

    def done(self) -> bool:
        if self._value is not _UNSET or self._error is not None:
            return True
        return bool(self._dask is not None and self._dask.done())

    def wait(self) -> T_co:
        return wait(self)

    def _settle(self) -> None:
        """Fetch the task's outcome; the first fetched is kept, so waits share one object.

        No lock is held while blocking: a second waiter must reach
        ``_waits.recorded`` too, or a cycle through it would go unseen.
        """
        with self._lock:
            if self._value is not _UNSET or self._error is not None:
                return
            dask_future = self._dask
        value: Any = _UNSET
        error: BaseException | None = None
        with _waits.recorded(dask_future):  # a cycle: DeadlockError, this wait's own
            try:
                value = _blocking_result(dask_future)
            except _RaisedHere:
                error = self._raised
            except _Escaped as escaped:
                error = escaped.error
            except BaseException as exc:  # noqa: BLE001 - delivered by wait()
                error = exc
        with self._lock:
            if self._value is _UNSET and self._error is None:
                self._value, self._error = value, error
                self._dask = None

    def _outcome(self) -> T_co:
        self._settle()
        if self._error is not None:
            raise self._error
        return self._value  # type: ignore[no-any-return]


def _blocking_result(dask_future: Any) -> Any:
    """``future.result()``; from inside a task, seceded from the pool while blocked."""
    from distributed import get_worker, rejoin, secede  # noqa: PLC0415

    if dask_future.done():
        return dask_future.result()
    try:
        get_worker()
    except ValueError:
        return dask_future.result()
    secede()
    try:
        return dask_future.result()
    finally:
        rejoin()


class _RaisedHere(Exception):
    """The task failed; its exception, the very object, is in the Future's ``_raised``.

    In-process a task writes its exception straight into the Future it
    belongs to and sends Dask only this marker: Dask would pickle the
    exception, and one whose traceback or arguments cannot be pickled would
    reach ``wait`` as a bare ``Exception`` holding its repr.
    """


class _Escaped(Exception):
    """Carries a task's KeyboardInterrupt, SystemExit or GeneratorExit through Dask.

    Dask handles only ``Exception`` from a task: any other BaseException kills
    the worker's task handling (KeyboardInterrupt and SystemExit wedge the
    cluster), so ``wait`` would hang. Wrapped, it travels as an ordinary
    failure (pickled to a remote client) and ``wait`` raises the original.
    """

    def __init__(self, error: BaseException) -> None:
        super().__init__(error)
        self.error = error


def _run_task(
    func: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    context: contextvars.Context | None,
    owner: Future[Any] | None = None,
) -> Any:
    """A forked task on a worker: scripted code in its caller's context; every failure an Exception.

    ``context`` is None when the task went to another process: then a copy of
    this worker thread's own context, so that no task sees another's changes.
    ``owner``, in-process only, is the Future the task completes: a failure
    goes there, unpickled (see ``_RaisedHere``). Distributed keeps its own
    state in context variables too (which worker runs this task, its
    metrics): those keep the values this worker set.
    """
    here = contextvars.copy_context()  # the worker's, for this task
    if context is None:
        context = here
    own = [(var, here[var]) for var in _distributed_vars() if var in here]
    try:
        return context.run(_run_scripted, func, args, kwargs, own)
    except BaseException as error:
        if owner is None:
            if isinstance(error, Exception):
                raise
            raise _Escaped(error) from None
        owner._raised = error
    raise _RaisedHere  # outside the except: no __context__ for Dask to carry


@functools.cache
def _distributed_vars() -> tuple[contextvars.ContextVar[Any], ...]:
    """The context variables distributed sets for a task it runs (get_worker, metrics)."""
    import distributed.client  # noqa: PLC0415
    import distributed.metrics  # noqa: PLC0415
    import distributed.worker  # noqa: PLC0415

    found = (
        getattr(distributed.worker, "_worker_cvar", None),
        getattr(distributed.client, "_current_client", None),
        getattr(getattr(distributed.metrics, "context_meter", None), "_callbacks", None),
    )
    return tuple(var for var in found if isinstance(var, contextvars.ContextVar))


def _run_scripted(
    func: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    own: list[tuple[contextvars.ContextVar[Any], Any]] = [],  # noqa: B006 - never changed
) -> Any:
    """Call as scripted code (its forks become tasks): a scripted call, or a task on a worker."""
    for var, value in own:
        var.set(value)
    outer = _state.scripted
    _state.scripted = True
    try:
        return func(*args, **kwargs)
    finally:
        _state.scripted = outer


def fork(func: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
    """Start ``func(*args, **kwargs)``; a Dask task in scripted code, run now otherwise."""
    if not callable(func):
        raise TypeError(
            f"fork() expects a callable as its first argument, got {type(func).__name__}"
        )
    future: Future[T] = Future()
    if _state.scripted:
        if in_process():
            future._dask = submit(_run_task, func, args, kwargs, contextvars.copy_context(), future)
        else:
            future._dask = submit(_run_task, func, args, kwargs, None)
    else:
        try:
            future._value = contextvars.copy_context().run(func, *args, **kwargs)
        except BaseException as exc:  # noqa: BLE001 - kept for wait()
            future._error = exc
    return future


def wait(future: Future[T], /) -> T:
    """The task's value, the same object every time; or its exception, re-raised."""
    if not isinstance(future, Future):
        raise TypeError(f"wait() expects a Future returned by fork(), got {type(future).__name__}")
    return future._outcome()


def _settle_all(futures: list[Future[Any]]) -> list[Future[Any]]:
    for future in futures:
        future._settle()
    return futures


def collect_all(futures: list[Future[T]], /) -> Future[list[Future[T]]]:
    """A future of the same list, done once every future is."""
    return fork(_settle_all, _checked(futures))


def wait_all(futures: list[Future[T]], /) -> list[T]:
    """Every value in order, after all are done; the first failure re-raised."""
    return [future._outcome() for future in _settle_all(_checked(futures))]


def _checked(futures: list[Future[T]]) -> list[Future[T]]:
    items = list(futures)
    for index, item in enumerate(items):
        if not isinstance(item, Future):
            raise TypeError(f"expected a list of Futures; item {index} is {type(item).__name__}")
    return items


class ScriptModule(Module):
    """``script(module)``: ``forward`` and calls run as scripted code."""

    def __init__(self, module: Module) -> None:
        self.original = module
        self._forward = script(module.forward)

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        return self._forward(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in ("original", "_forward"):
            raise AttributeError(name)
        return getattr(self.original, name)


def script(obj: Any) -> Any:
    """Run ``obj``'s calls as scripted code: its forks become Dask tasks."""
    if isinstance(obj, Module):
        return ScriptModule(obj)
    if not callable(obj):
        raise TypeError(f"script() expects a function or a Module, got {type(obj).__name__}")

    @functools.wraps(obj)
    def scripted(*args: Any, **kwargs: Any) -> Any:
        return _run_scripted(obj, args, kwargs)

    return scripted


__all__ = [
    "ENV_SCHEDULER",
    "Future",
    "Module",
    "ModuleList",
    "ScriptModule",
    "client",
    "collect_all",
    "fork",
    "ignore",
    "script",
    "wait",
    "wait_all",
]
