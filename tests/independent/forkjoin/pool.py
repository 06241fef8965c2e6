"""A fork/join pool: worker threads with their own deques, stealing, and managed blocking.

Each worker runs its own deque newest-first (the task it forked last is the one
whose data is hottest) and, when that is empty, takes the oldest task of the
shared submission queue or of another worker's deque (the oldest is the biggest
piece of work left, so one steal keeps a thief busy longest). A worker that
blocks in a wait says so: the tasks it waits on that are still queued start at
once on a free or a new worker, and otherwise a free worker is woken or a
compensating one started, so that a wait never starves the tasks it waits on, at
any depth. A wait never runs a task itself, so every blocked wait holds a
thread; to keep their number down the pool runs at most ``parallelism`` tasks
that are not blocked, and so finishes what it started before it starts more.
"""

from __future__ import annotations

import contextvars
import itertools
import os
import random
import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager

#: compensating workers started to keep parallelism up, beyond ``parallelism``; past
#: this, a blocked worker only has the task it waits on started, if that is queued
MAX_SPARES = 64
#: seconds a spare worker stays idle, ready for the next wait's task, before it leaves
KEEP_ALIVE = 0.1


class Task:
    """One call to run on the pool, in the context it was forked in."""

    __slots__ = ("body", "context", "home", "ident")

    _ids = itertools.count(1)

    def __init__(self, body: Callable[[], None], context: contextvars.Context) -> None:
        self.body = body
        self.context = context
        self.ident = next(Task._ids)
        #: the queue holding it while it waits to start; None once taken
        self.home: TaskQueue | None = None

    def run(self) -> None:
        self.context.run(self.body)


class TaskQueue:
    """A deque of queued tasks with its own lock: the owner's end is the right."""

    def __init__(self) -> None:
        self._items: deque[Task] = deque()
        self._lock = threading.Lock()

    def __bool__(self) -> bool:
        return bool(self._items)

    def push(self, task: Task) -> None:
        with self._lock:
            task.home = self
            self._items.append(task)

    def pop_newest(self) -> Task | None:
        with self._lock:
            return self._taken(self._items.pop()) if self._items else None

    def take_oldest(self) -> Task | None:
        with self._lock:
            return self._taken(self._items.popleft()) if self._items else None

    def remove(self, task: Task) -> bool:
        """Take ``task`` out if it is still queued here."""
        with self._lock:
            if task.home is not self:
                return False
            self._items.remove(task)
            self._taken(task)
            return True

    @staticmethod
    def _taken(task: Task) -> Task:
        task.home = None
        return task


class Worker:
    """A pool thread and the deque of the tasks it forked."""

    def __init__(self, pool: ForkJoinPool, index: int, first: Task | None = None) -> None:
        self.pool = pool
        self.tasks = TaskQueue()
        self.current: Task | None = None
        #: released to wake this worker while it is parked idle
        self.wake = threading.Lock()
        self.wake.acquire()
        self._first = first
        self.thread = threading.Thread(target=self._loop, name=f"forkjoin-{index}", daemon=True)

    def _loop(self) -> None:
        _local.worker = self
        task, self._first = self._first, None
        while True:
            if task is None:
                task = self.pool.next_task(self)
                if task is None:
                    return
            self.current = task
            try:
                task.run()
            finally:
                self.current = None
                self.pool.task_finished()
            task = None


class _Local(threading.local):
    worker: Worker | None = None


_local = _Local()


def current_task() -> Task | None:
    """The task this thread is running, if it is a pool worker running one."""
    worker = _local.worker
    return worker.current if worker is not None else None


class ForkJoinPool:
    """Workers, the shared submission queue, and the count of running and blocked threads.

    At most ``parallelism`` threads run tasks at once, not counting threads blocked in
    a wait: a worker takes a new task only below that, so the pool works depth-first
    on what it started instead of starting ever more tasks that would each block a
    thread. The one exception is a task a blocked worker waits on: it starts at once,
    in the blocked worker's place.
    """

    def __init__(self, parallelism: int) -> None:
        if parallelism < 1:
            raise ValueError(f"parallelism must be at least 1, got {parallelism}")
        self.parallelism = parallelism
        self._cv = threading.Condition(threading.Lock())
        self._submissions = TaskQueue()
        #: tasks a blocked worker waits on, taken out of their queue to start first
        self._urgent: deque[Task] = deque()
        self._workers: list[Worker] = []
        self._indices = itertools.count()
        #: idle workers, the most recently parked last: a signal wakes that one (its
        #: cache is warm), and spares at the bottom stay unwoken and time out
        self._parked: list[Worker] = []
        #: workers running a task, blocked or not
        self._busy = 0
        self._blocked = 0
        #: tasks submitted and not yet finished: the pool is quiet when it is 0
        self._pending = 0
        self._random = random.Random(0)
        with self._cv:
            for _ in range(parallelism):
                self._start_worker()

    # -- submitting -------------------------------------------------------------------

    def submit(self, task: Task) -> None:
        """Queue ``task``: on this worker's own deque, or on the shared queue from outside."""
        worker = _local.worker
        queue = worker.tasks if worker is not None and worker.pool is self else self._submissions
        with self._cv:
            self._pending += 1
            queue.push(task)
            if self._parked and self._running() < self.parallelism:
                self._wake_one()

    # -- the workers' side ------------------------------------------------------------

    def next_task(self, worker: Worker) -> Task | None:
        """The next task for ``worker``, parked while it may take none; None: leave,
        which a worker does when it has been parked ``KEEP_ALIVE`` seconds, unwoken,
        while more threads than ``parallelism`` are free (spares end once the waits
        they stood in for end, and meanwhile take the next waits' tasks). A parked
        worker looks again at every ``KEEP_ALIVE``, since waits that end make spares
        of workers parked before."""
        while True:
            with self._cv:
                task = self._find_work(worker)
                if task is not None:
                    self._busy += 1
                    return task
                self._parked.append(worker)
            if worker.wake.acquire(timeout=KEEP_ALIVE):
                continue
            with self._cv:
                if worker in self._parked:  # nobody woke it: it timed out
                    self._parked.remove(worker)
                    if self._surplus() > 0 and not worker.tasks:
                        self._workers.remove(worker)
                        return None
                    continue
            worker.wake.acquire()  # woken as it timed out: take the wake-up

    def _wake_one(self) -> None:
        """Wake the most recently parked worker (the caller holds the lock)."""
        self._parked.pop().wake.release()

    def _find_work(self, worker: Worker) -> Task | None:
        """Urgent tasks; below ``parallelism`` running, the own deque newest-first, the
        submissions, then another worker's oldest (the caller holds the lock)."""
        if self._urgent:
            return self._urgent.popleft()
        if self._running() >= self.parallelism:
            return None
        task = worker.tasks.pop_newest() or self._submissions.take_oldest()
        if task is not None:
            return task
        victims = [other for other in self._workers if other is not worker]
        if not victims:
            return None
        start = self._random.randrange(len(victims))
        for offset in range(len(victims)):
            stolen = victims[(start + offset) % len(victims)].tasks.take_oldest()
            if stolen is not None:
                return stolen
        return None

    def task_finished(self) -> None:
        with self._cv:
            self._busy -= 1
            self._pending -= 1
            if self._pending == 0:
                self._cv.notify_all()

    def _running(self) -> int:
        """Threads running a task and not blocked in a wait (the caller holds the lock)."""
        return self._busy - self._blocked

    def _surplus(self) -> int:
        """Threads not blocked beyond ``parallelism`` (the caller holds the lock)."""
        return len(self._workers) - self._blocked - self.parallelism

    def _start_worker(self, first: Task | None = None) -> None:
        worker = Worker(self, next(self._indices), first)
        if first is not None:
            self._busy += 1
        self._workers.append(worker)
        worker.thread.start()

    # -- managed blocking -------------------------------------------------------------

    @contextmanager
    def blocking(self, awaited: list[Task]) -> Iterator[None]:
        """Around a wait on a pool thread. The tasks waited on that are still queued
        start at once, each on a free or a new worker; otherwise a free worker is woken,
        or while fewer than ``MAX_SPARES`` spares exist a compensating one started, to
        keep ``parallelism`` tasks running."""
        worker = _local.worker
        if worker is None or worker.pool is not self:
            yield
            return
        claimed = [task for task in awaited if (home := task.home) and home.remove(task)]
        with self._cv:
            self._blocked += 1
            for task in claimed:
                if self._parked:
                    self._urgent.append(task)
                    self._wake_one()
                else:
                    self._start_worker(task)
            if not claimed:
                if self._parked:
                    self._wake_one()
                elif len(self._workers) < self.parallelism + MAX_SPARES:
                    self._start_worker()
        try:
            yield
        finally:
            with self._cv:
                self._blocked -= 1

    # -- the end of the program -------------------------------------------------------

    def quiesce(self) -> None:
        """Block until every submitted task, and every task those fork, has finished."""
        with self._cv:
            while self._pending:
                self._cv.wait()

    def thread_count(self) -> int:
        with self._cv:
            return len(self._workers)


def default_parallelism() -> int:
    """At least eight workers: tasks that block outside ``wait`` (on events, barriers)
    hold their thread, and callers on several threads each need some."""
    return max(8, os.cpu_count() or 1)
