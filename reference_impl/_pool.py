"""The process-wide worker pool that runs scripted forks in parallel, and its lifecycle.

The pool itself (how it queues tasks and wakes its workers, the sizes it
accepts) is ``_workers.WorkerPool``; here is the one pool every caller in the
process shares (made on first use), its size, and what becomes of it when the
process ends or forks:

* Workers are ordinary (non-daemon) threads. At interpreter exit a hook that
  ``threading`` runs when the main thread finishes, *before* it joins non-daemon
  threads (the hook ``concurrent.futures`` relies on), closes the pool: tasks
  already queued still run, then the workers stop. A task forked after that
  runs on the thread that forks it.
* A child made by ``os.fork`` has none of its parent's threads: it gets a fresh,
  empty pool of the same size (the parent's queued tasks stay the parent's).
"""

from __future__ import annotations

import os
import threading

from reference_impl._workers import WorkerPool, check_num_threads

__all__ = ["current", "get_num_threads", "get_pool", "set_num_threads"]

_pool: WorkerPool | None = None
_pool_lock = threading.Lock()


def current() -> WorkerPool | None:
    """The process-wide pool if it was made already (a wait needs no pool of its own)."""
    return _pool


def get_pool() -> WorkerPool:
    """The process-wide pool, created on first use."""
    global _pool
    pool = _pool
    if pool is None:
        with _pool_lock:
            if _pool is None:
                _pool = WorkerPool()
                _register_shutdown(_pool)
            pool = _pool
    return pool


def set_num_threads(num_threads: int) -> None:
    """Set the pool size (like ``torch.set_num_interop_threads``, but any time).

    Workers start as work needs them, never more than this many.

    Raises:
        ValueError: not an integer from 1 to 32,768 (``_workers.MAX_NUM_THREADS``).
    """
    check_num_threads(num_threads, "num_threads")
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = WorkerPool(num_threads)
            _register_shutdown(_pool)
            return
    _pool.resize(num_threads)


def get_num_threads() -> int:
    """How many worker threads scripted forks may use."""
    return get_pool().size


def _register_shutdown(pool: WorkerPool) -> None:
    register = getattr(threading, "_register_atexit", None)
    if register is not None:
        try:
            register(pool.shutdown)
        except RuntimeError:  # already shutting down: no worker may start now
            pool.shutdown()
    else:  # pragma: no cover - every supported CPython has it
        import atexit  # noqa: PLC0415

        atexit.register(pool.shutdown)


def _after_fork_in_child() -> None:
    """Give a child made by ``os.fork`` a pool of its own, the same size, no threads yet."""
    global _pool, _pool_lock
    _pool_lock = threading.Lock()
    parent = _pool
    if parent is not None:
        size = parent.size
        parent.abandon()  # its shutdown hook, inherited, now does nothing
        _pool = WorkerPool(size)
        _register_shutdown(_pool)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
