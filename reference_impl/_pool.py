"""The bounded worker pool that runs scripted forks in parallel.

Workers start as work needs them: a task queued while no worker is idle starts
one more, up to the pool's size, so a large size costs nothing until used.

No task is lost:

* Workers are ordinary (non-daemon) threads. At interpreter exit a hook that
  ``threading`` runs when the main thread finishes, *before* it joins non-daemon
  threads (the hook ``concurrent.futures`` relies on), closes the pool: tasks
  already queued still run, then the workers stop. A task forked after that
  runs on the thread that forks it.
* A worker killed by an exception that escapes a task's bookkeeping (which
  :meth:`Future._execute` prevents; an asynchronous exception can still do it)
  is replaced, and a task it had taken but not started is queued again.
* A child made by ``os.fork`` has none of its parent's threads: it gets a fresh,
  empty pool of the same size (the parent's queued tasks stay the parent's).
"""

from __future__ import annotations

import os
import queue
import threading
from typing import TYPE_CHECKING

from reference_impl._future import _PENDING

if TYPE_CHECKING:
    from reference_impl._future import Future

ENV_NUM_THREADS = "FORKWAIT_NUM_THREADS"

#: The largest pool size accepted. Every worker is an OS thread taking a task id
#: from the system-wide space that Linux sizes to 32,768 by default (pid_max), and
#: reserving its stack (8 MiB by default, so 256 GiB of address space here): a
#: larger pool could never all start. Workers start lazily, so any size up to
#: this costs only the threads the work needs.
MAX_NUM_THREADS = 32_768

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
    if value > MAX_NUM_THREADS:
        raise ValueError(
            f"{what} must be at most {MAX_NUM_THREADS} (one OS thread per worker), got {value}"
        )
    return value


class WorkerPool:
    """Up to ``size`` threads taking futures from one FIFO queue."""

    def __init__(self, num_threads: int | None = None) -> None:
        self._size = (
            default_num_threads()
            if num_threads is None
            else _check_num_threads(num_threads, "num_threads")
        )
        self._queue: queue.SimpleQueue[Future[object] | None] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []  # every worker that ever ran
        #: running workers not told to stop (running workers minus queued stops)
        self._active = 0
        #: workers being started, not yet running (each holds a _Ticket)
        self._starting = 0
        #: one entry per worker blocked waiting for a task (list ops are atomic)
        self._idle: list[None] = []
        self._lock = threading.Lock()
        self._closed = False
        self._serial = 0  # for thread names

    @property
    def size(self) -> int:
        return self._size

    def submit(self, future: Future[object]) -> bool:
        """Queue ``future``; False when the pool is closed (the caller runs it)."""
        if self._closed:
            return False
        self._queue.put(future)
        if self._active + self._starting < self._size and not self._idle:
            try:  # noqa: SIM105 - suppress() would be two more calls at the stack limit
                self._add_worker()
            except Exception:  # noqa: BLE001, S110
                # No thread now (stack or thread limit): the task stays queued for a
                # running worker, a later fork's new one, its wait, or interpreter exit.
                pass
        return True

    def resize(self, num_threads: int) -> None:
        """Grow lazily (as work needs workers), or shrink by asking surplus workers to exit."""
        _check_num_threads(num_threads, "num_threads")
        with self._lock:
            self._size = num_threads
            while self._active > num_threads:
                self._queue.put(_STOP)  # first: if it fails, the count is still true
                self._active -= 1

    def thread_count(self) -> int:
        """Worker threads alive right now."""
        with self._lock:
            self._threads = [thread for thread in self._threads if thread.is_alive()]
            return len(self._threads)

    def pending(self) -> int:
        """Approximate number of queue entries not yet taken by a worker."""
        return self._queue.qsize()

    def shutdown(self) -> None:
        """Let the workers run every queued task, stop them, and join them."""
        with self._lock:
            if self._closed:
                return
            self._closed = True  # forks run their task on the forking thread from now on
            threads = list(self._threads)
            for _ in range(self._active):
                self._queue.put(_STOP)  # behind every task already queued
            self._active = 0
        for thread in threads:
            thread.join()
        # queued between the last check of _closed and the stops, or left by a dead worker
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            if item is not None:
                item._run_if_pending()

    def abandon(self) -> None:
        """In a child made by ``os.fork``: the workers are gone and the queue is the parent's."""
        self._lock = threading.Lock()
        self._closed = True
        self._queue = queue.SimpleQueue()
        self._threads = []
        self._idle = []
        self._active = self._starting = 0

    def _add_worker(self, *, replacing: bool = False) -> None:
        """Start a worker unless one is idle (a replacement starts anyway) or the pool is full.

        Whatever fails here (a RecursionError when forking deep in a stack, no
        more threads), the counts stay true: the ticket says who gives the
        reservation back, this thread or the worker.
        """
        ticket = _Ticket()  # before any count changes: at the stack limit even this fails
        with self._lock:
            if self._closed or self._active + self._starting >= self._size:
                return
            if self._idle and not replacing:
                return
            self._starting += 1
            self._serial += 1
            name = f"forkwait-worker-{self._serial}"
        try:
            threading.Thread(target=self._work, args=(ticket,), name=name, daemon=False).start()
        except BaseException:
            with self._lock:
                if not ticket.taken:  # the worker never ran; if it does, it exits at once
                    ticket.taken = True
                    self._starting -= 1
            raise

    def _enlist(self, ticket: _Ticket) -> bool:
        """A new worker's first step: count itself in, unless its start was given up."""
        with self._lock:
            if ticket.taken:
                return False
            ticket.taken = True
            self._starting -= 1
            if self._closed:
                return False
            self._active += 1
            self._threads.append(threading.current_thread())
            return True

    def _work(self, ticket: _Ticket) -> None:
        if not self._enlist(ticket):
            return
        get, idle = self._queue.get, self._idle
        task: Future[object] | None = None
        waiting = False
        try:
            while True:
                waiting = True  # set before the token goes in, cleared before it comes out
                idle.append(None)
                task = get()
                waiting = False
                idle.pop()
                if task is _STOP:
                    return
                if task._state == _PENDING:  # else a wait ran it already: nothing to do
                    if not idle and self._active + self._starting < self._size:
                        self._add_worker()  # this worker is taken: one for the next task
                    task._run_if_pending()
                task = None  # hold no finished task while idle: it may own a failure
        except BaseException:
            if waiting:
                idle.pop()
            self._replace(task)
            raise

    def _replace(self, task: Future[object] | None) -> None:
        """A worker is dying of an exception: requeue its unstarted task, start another."""
        with self._lock:
            self._active -= 1
        if task is not None and task._state == _PENDING:
            self._queue.put(task)
        self._add_worker(replacing=True)


class _Ticket:
    """A worker start's reservation; whoever sets ``taken`` first gives it back."""

    __slots__ = ("taken",)

    def __init__(self) -> None:
        self.taken = False


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
    """Set the pool size (like ``torch.set_num_interop_threads``, but any time).

    Workers start as work needs them, never more than this many.

    Raises:
        ValueError: not an integer from 1 to 32,768 (``_pool.MAX_NUM_THREADS``).
    """
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
