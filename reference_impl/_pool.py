"""The bounded worker pool that runs scripted forks in parallel.

Workers are ordinary (non-daemon) threads. They are stopped by a hook that
``threading`` runs when the main thread finishes, *before* it joins non-daemon
threads; the same hook ``concurrent.futures`` relies on. Tasks still queued then
are failed instead of run, so interpreter exit never waits on work nobody started.
"""

from __future__ import annotations

import os
import queue
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from reference_impl._future import Future

ENV_NUM_THREADS = "FORKWAIT_NUM_THREADS"

_STOP = None  # queue sentinel: the worker that takes it exits


def default_num_threads() -> int:
    """``FORKWAIT_NUM_THREADS`` if set, else ``os.cpu_count()``."""
    raw = os.environ.get(ENV_NUM_THREADS)
    if raw is None or raw.strip() == "":
        return os.cpu_count() or 1
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"{ENV_NUM_THREADS} must be a positive integer, got {raw!r}") from None
    return _check_num_threads(value, ENV_NUM_THREADS)


def _check_num_threads(value: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{what} must be a positive integer, got {value!r}")
    return value


class WorkerPool:
    """A fixed number of threads taking futures from one FIFO queue."""

    def __init__(self, num_threads: int | None = None) -> None:
        self._size = (
            default_num_threads()
            if num_threads is None
            else _check_num_threads(num_threads, "num_threads")
        )
        self._queue: queue.SimpleQueue[Future[object] | None] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._workers = 0  # started and not yet told to stop
        self._lock = threading.Lock()
        self._closed = False

    @property
    def size(self) -> int:
        return self._size

    def submit(self, future: Future[object]) -> bool:
        """Queue ``future``; False when the pool is shut down (caller runs it)."""
        if self._closed:
            return False
        if self._workers < self._size:
            self._start_workers()
        self._queue.put(future)
        return True

    def resize(self, num_threads: int) -> None:
        """Grow at once, or shrink by asking surplus workers to exit."""
        _check_num_threads(num_threads, "num_threads")
        with self._lock:
            self._size = num_threads
            while self._workers > num_threads:
                self._workers -= 1
                self._queue.put(_STOP)

    def thread_count(self) -> int:
        """Worker threads alive right now."""
        with self._lock:
            self._threads = [thread for thread in self._threads if thread.is_alive()]
            return len(self._threads)

    def pending(self) -> int:
        """Approximate number of queue entries not yet taken by a worker."""
        return self._queue.qsize()

    def shutdown(self) -> None:
        """Fail queued tasks, stop every worker, and join them."""
        from reference_impl._future import Future  # noqa: PLC0415 - import cycle

        with self._lock:
            if self._closed:
                return
            self._closed = True
            threads, self._threads = self._threads, []
            self._workers = 0
        error = RuntimeError("the interpreter exited before this forked task started")
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            if isinstance(item, Future):
                item._fail_if_pending(error)
        for _ in threads:
            self._queue.put(_STOP)
        for thread in threads:
            thread.join()

    def _start_workers(self) -> None:
        with self._lock:
            while self._workers < self._size and not self._closed:
                self._workers += 1
                thread = threading.Thread(
                    target=self._work, name=f"forkwait-worker-{self._workers}", daemon=False
                )
                thread.start()
                self._threads.append(thread)

    def _work(self) -> None:
        get = self._queue.get
        while True:
            future = get()
            if future is _STOP:
                return
            future._run_if_pending()
            future = None  # hold no finished task while idle: it may own a failure


_pool: WorkerPool | None = None
_pool_lock = threading.Lock()


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
    """Set the worker count (like ``torch.set_num_interop_threads``, but any time)."""
    _check_num_threads(num_threads, "num_threads")
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
