"""The Dask client scripted forks submit to, and how a task reaches a worker.

By default an in-process ``LocalCluster`` (two workers, in-process transport)
starts on first use. ``FORKWAIT_DASK_SCHEDULER=tcp://host:port`` connects to an
existing cluster instead.

In-process, a task travels as a *handle*: Dask serialises the graph it is
sent, but only an integer key into this process's registry, and the worker,
in the same process, looks the call up. Callables and arguments are therefore
shared, not copied, as the spec requires (DET-NO-COPY-1) and as examples that
synchronise tasks with ``threading`` objects need. To a remote cluster the
call itself is sent, through Dask's serialisation (cloudpickle).

At interpreter exit, before the client closes, every task submitted from this
process and not yet finished runs to its end (LIFECYCLE-EXIT-1), as
``concurrent.futures`` finishes submitted work. In-process that covers tasks
forked by tasks too; on a remote cluster only those this process submitted.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import logging
import os
import threading
import time
from collections.abc import Callable
from typing import Any

ENV_SCHEDULER = "FORKWAIT_DASK_SCHEDULER"
ENV_WORKERS = "FORKWAIT_DASK_WORKERS"
ENV_THREADS = "FORKWAIT_DASK_THREADS"

_lock = threading.Lock()
_client: Any = None
_in_process = False
_registry: dict[int, tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]] = {}
_keys = itertools.count()
_unfinished: set[Any] = set()  # dask futures submitted here and not yet done
_unfinished_lock = threading.Lock()
_prune_at = [64]


class _DropComputeFailed(logging.Filter):
    """A failed task's error reaches wait(); Dask's worker log need not repeat it."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "Compute Failed" not in record.getMessage()


def client() -> Any:
    """The process-wide ``distributed.Client``, created on first use."""
    global _client, _in_process
    with _lock:
        if _client is None:
            from distributed import Client, LocalCluster  # noqa: PLC0415 - optional extra

            logging.getLogger("distributed.worker").addFilter(_DropComputeFailed())
            address = os.environ.get(ENV_SCHEDULER)
            if address:
                _client = Client(address, set_as_default=False)
            else:
                cluster = LocalCluster(
                    n_workers=int(os.environ.get(ENV_WORKERS, "2")),
                    threads_per_worker=int(os.environ.get(ENV_THREADS, "2")),
                    processes=False,
                    dashboard_address=":0",  # a free port: never clashes
                )
                _client = Client(cluster, set_as_default=False)
                _in_process = True
            atexit.register(_close)
            _at_threading_exit(_finish_unwaited)
        return _client


def _finish_unwaited() -> None:
    """Wait until every task submitted from this process is done, new ones included.

    Registered with ``threading._register_atexit``, so that it runs before
    ``concurrent.futures`` stops its executors (Dask's workers run tasks on one):
    after that no task could start. Polls ``done()``, which needs neither a
    default client nor a callback thread, both gone at exit.
    """
    while True:
        with _unfinished_lock:
            _drop_finished()
            if not _unfinished:
                return
        time.sleep(0.005)  # tasks may fork more tasks meanwhile: look again


def _drop_finished() -> None:
    """Keep in ``_unfinished`` only the futures not done yet (under ``_unfinished_lock``)."""
    _unfinished.difference_update([f for f in _unfinished if f.done()])


def _at_threading_exit(hook: Callable[[], None]) -> None:
    """Run ``hook`` when the main thread ends, before executors shut down (as they register)."""
    register = getattr(threading, "_register_atexit", None)
    if register is None:  # pragma: no cover - every supported CPython has it
        atexit.register(hook)
        return
    with contextlib.suppress(RuntimeError):  # already shutting down: too late to wait
        register(hook)


def _close() -> None:
    global _client
    with _lock:
        if _client is not None:
            cluster = _client.cluster
            if cluster is not None:
                # Our own cluster, closed at exit: the results its workers drop
                # ("caused the cluster to lose already computed task(s)") are
                # wanted by nobody, and the warning would end every report; a
                # send still in flight between its in-process comms as they close
                # logs "Batched Comm Closed" with a traceback that blames nobody.
                logging.getLogger("distributed.scheduler").setLevel(logging.ERROR)
                logging.getLogger("distributed.batched").setLevel(logging.WARNING)
            _client.close()
            if cluster is not None:
                cluster.close()
            _client = None


def in_process() -> bool:
    """Do forked tasks run in this process, where they can share its objects?

    On a worker of the in-process cluster: True. On a worker of a cluster in
    other processes: False (this module there never made a cluster).
    """
    from distributed import get_worker  # noqa: PLC0415

    try:
        get_worker()
    except ValueError:
        client()  # the caller's process: make or reach the cluster
    return _in_process


def run_registered(key: int) -> Any:
    """Worker side of an in-process submission: look the call up and make it."""
    func, args, kwargs = _registry.pop(key)
    return func(*args, **kwargs)


def submit(task: Callable[..., Any], *args: Any) -> Any:
    """Submit ``task(*args)`` (``pure=False``: every fork is a new task); a dask Future."""
    from distributed import fire_and_forget, get_client, get_worker  # noqa: PLC0415

    try:
        get_worker()
        target = get_client()  # inside a task: that worker's client, as Dask documents
    except ValueError:
        target = client()
    if _in_process:
        key = next(_keys)
        _registry[key] = (task, args, {})
        future = target.submit(run_registered, key, pure=False)
    else:
        future = target.submit(task, *args, pure=False)
    fire_and_forget(future)  # an unwaited fork still runs (NEST-UNWAITED-RUNS-1)
    with _unfinished_lock:
        if len(_unfinished) >= _prune_at[0]:  # keep the set to the unfinished: amortised O(1)
            _drop_finished()
            _prune_at[0] = max(64, 2 * len(_unfinished))
        _unfinished.add(future)
    return future
