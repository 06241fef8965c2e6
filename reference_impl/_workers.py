"""The worker pool itself: its queue, its workers, and how they are woken.

Workers start as work needs them: a task queued while no worker is idle starts
one more, up to the pool's size, so a large size costs nothing until used.

Queuing a task costs a fork almost nothing: an append to a deque, and a
wake-up token only when a worker sleeps and none is on its way already. A
woken worker that takes a task while more are queued wakes the next one, so a
burst of forks wakes the workers it needs, one after the other. A ``wait`` that
runs a task itself then drops it from the queue if it is the last entry
(``forget``); any other task a wait ran stays queued until a worker takes it
out and, finding it claimed, drops it.

No task is lost:

* A worker killed by an exception that escapes a task's bookkeeping (which
  the Future's own bookkeeping prevents; an asynchronous exception can still do
  it) is replaced, and a task it had taken but not started is queued again.
* A worker that finds the queue empty lists itself as idle, then looks again
  before it sleeps: a task queued in between is never left with nobody awake.
  The token that wakes it is put in one step, so a wake-up is either given or
  not: none is half-given if a fork fails at the stack's limit.
"""

from __future__ import annotations

import os
import queue
import threading
from collections import deque
from typing import TYPE_CHECKING

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
    return check_num_threads(value, ENV_NUM_THREADS)


def check_num_threads(value: int, what: str) -> int:
    """``value``, if it is a pool size; else a ValueError naming ``what`` (where it came from)."""
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
            else check_num_threads(num_threads, "num_threads")
        )
        self._queue: deque[Future[object] | None] = deque()
        self._threads: list[threading.Thread] = []  # every worker that ever ran
        #: running workers not told to stop (running workers minus queued stops)
        self._active = 0
        #: workers being started, not yet running (each holds a _Ticket)
        self._starting = 0
        #: one entry per worker asleep for want of work (list ops are atomic)
        self._idle: list[None] = []
        #: wake-up tokens, taken by sleeping workers
        self._wakeups: queue.SimpleQueue[None] = queue.SimpleQueue()
        #: a token is out that no worker has taken yet: a worker is on its way already.
        #: Set before the token is put, cleared by the worker that takes one (before it
        #: looks at the queue): a fork that sees it set queued its task before the
        #: worker looks, so never strands it.
        self._token = False
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
        self._queue.append(future)
        try:
            if not (self._idle and self._token):  # else a worker is on its way already
                self.wake()
        except Exception:  # noqa: BLE001, S110 - a RecursionError at the stack's limit
            pass
        return True

    def wake(self) -> None:
        """After queuing: see that a worker will look at the queue. Never raises an Exception.

        No wake-up (a RecursionError at the stack's limit, no thread to start):
        the task stays queued for a running worker, a later fork's wake-up, its
        wait, or interpreter exit. The fork itself holds.
        """
        try:  # noqa: SIM105 - suppress() would be two more calls at the stack limit
            self._wake()
        except Exception:  # noqa: BLE001, S110
            pass

    def forget(self, task: object) -> None:
        """A wait ran ``task`` itself: drop it now if it is the queue's last entry.

        Its memory is then reused at once rather than when a worker drains the
        queue: a tight fork-and-wait loop would otherwise keep a queue of done
        tasks alive and pay for fresh memory at every fork.
        """
        tasks = self._queue
        if tasks and tasks[-1] is task:
            try:
                last = tasks.pop()
            except IndexError:  # a worker emptied the queue meanwhile
                return
            if last is not task:  # queued by another thread meanwhile: queue it again
                tasks.append(last)
                self._wake()  # a worker may have looked while it was out

    def _wake(self) -> None:
        """See that a worker will look at the queue: wake an idle one, or start one."""
        if self._idle:
            if not self._token:  # else one is on its way already
                self._token = True
                try:
                    self._wakeups.put(None)
                except BaseException:
                    self._token = False
                    raise
        elif self._active + self._starting < self._size and not self._starting:
            try:  # noqa: SIM105 - suppress() would be two more calls at the stack limit
                self._add_worker()
            except Exception:  # noqa: BLE001, S110 - no thread now (stack or thread limit)
                pass

    def resize(self, num_threads: int) -> None:
        """Grow lazily (as work needs workers), or shrink by asking surplus workers to exit."""
        check_num_threads(num_threads, "num_threads")
        with self._lock:
            self._size = num_threads
            surplus = 0
            while self._active > num_threads:
                self._queue.append(_STOP)  # first: if it fails, the count is still true
                self._active -= 1
                surplus += 1
        for _ in range(surplus):
            self._wakeups.put(None)

    def thread_count(self) -> int:
        """Worker threads alive right now."""
        with self._lock:
            self._threads = [thread for thread in self._threads if thread.is_alive()]
            return len(self._threads)

    def pending(self) -> int:
        """Queue entries not yet taken by a worker (tasks run inline by a wait included)."""
        return len(self._queue)

    def shutdown(self) -> None:
        """Let the workers run every queued task, stop them, and join them."""
        with self._lock:
            if self._closed:
                return
            self._closed = True  # forks run their task on the forking thread from now on
            threads = list(self._threads)
            stops = self._active
            for _ in range(stops):
                self._queue.append(_STOP)  # behind every task already queued
            self._active = 0
        for _ in range(stops):
            self._wakeups.put(None)
        for thread in threads:
            thread.join()
        # queued between the last check of _closed and the stops, or left by a dead worker
        while True:
            try:
                item = self._queue.popleft()
            except IndexError:
                break
            if item is not None:
                item._run_if_pending()

    def abandon(self) -> None:
        """In a child made by ``os.fork``: the workers are gone and the queue is the parent's."""
        self._lock = threading.Lock()
        self._closed = True
        self._queue = deque()
        self._threads = []
        self._idle = []
        self._wakeups = queue.SimpleQueue()
        self._token = False
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
        tasks, idle, wakeups = self._queue, self._idle, self._wakeups
        task: Future[object] | None = None
        asleep = False
        try:
            while True:
                while True:
                    try:
                        task = tasks.popleft()
                    except IndexError:
                        break
                    if task is _STOP:
                        if tasks:
                            self._wake()  # the token this worker took may have been theirs
                        return
                    if task._claim:  # its token is still there; else a wait took it: drop it
                        if tasks:
                            self._wake()  # this worker is taken: another for the rest
                        task._run_if_pending()
                    task = None  # hold no finished task while idle: it may own a failure
                asleep = True  # set before the entry goes in, cleared after it comes out
                idle.append(None)
                if tasks:  # queued after the last look, perhaps before this one was listed
                    idle.pop()
                    asleep = False
                    continue
                wakeups.get()  # asleep until a fork (or a stop) puts a token
                self._token = False
                idle.pop()
                asleep = False
        except BaseException:
            if asleep:
                idle.pop()
            self._token = False  # it may have taken a token: let forks wake another
            self._replace(task)
            raise

    def _replace(self, task: Future[object] | None) -> None:
        """A worker is dying of an exception: requeue its unstarted task, start another."""
        with self._lock:
            self._active -= 1
        if task is not None and task._claim:  # not claimed by anyone yet
            self._queue.append(task)
        self._add_worker(replacing=True)


class _Ticket:
    """A worker start's reservation; whoever sets ``taken`` first gives it back."""

    __slots__ = ("taken",)

    def __init__(self) -> None:
        self.taken = False
