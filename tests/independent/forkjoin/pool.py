"""A fork/join pool: worker threads with their own deques, stealing, and managed blocking.

Each worker runs its own deque newest-first (the task it forked last is the one
whose data is hottest) and, when that is empty, takes the oldest task of the
shared submission queue or of another worker's deque (the oldest is the biggest
piece of work left, so one steal keeps a thief busy longest). A worker that
blocks in a wait says so; the pool then starts a compensating worker when fewer
than ``parallelism`` threads remain free to run tasks, so that a wait never
starves the tasks it waits on, at any depth. A wait never runs a task itself.
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

#: seconds a surplus worker stays idle before it leaves
KEEP_ALIVE = 0.5


class Task:
    """One call to run on the pool, in the context it was forked in."""

    __slots__ = ("body", "context", "ident")

    _ids = itertools.count(1)

    def __init__(self, body: Callable[[], None], context: contextvars.Context) -> None:
        self.body = body
        self.context = context
        self.ident = next(Task._ids)

    def run(self) -> None:
        self.context.run(self.body)


class Worker:
    """A pool thread and the deque of the tasks it forked."""

    def __init__(self, pool: ForkJoinPool, index: int) -> None:
        self.pool = pool
        self.tasks: deque[Task] = deque()
        self.lock = threading.Lock()
        self.current: Task | None = None
        self.thread = threading.Thread(target=self._loop, name=f"forkjoin-{index}", daemon=True)

    def push(self, task: Task) -> None:
        with self.lock:
            self.tasks.append(task)

    def pop_newest(self) -> Task | None:
        with self.lock:
            return self.tasks.pop() if self.tasks else None

    def steal_oldest(self) -> Task | None:
        with self.lock:
            return self.tasks.popleft() if self.tasks else None

    def _loop(self) -> None:
        _local.worker = self
        while True:
            task = self.pool.next_task(self)
            if task is None:
                return
            self.current = task
            try:
                task.run()
            finally:
                self.current = None
                self.pool.task_finished()


class _Local(threading.local):
    worker: Worker | None = None


_local = _Local()


def current_worker() -> Worker | None:
    """The pool worker running on this thread, if this thread is one."""
    return _local.worker


def current_task() -> Task | None:
    """The task this thread is running, if it is a pool worker running one."""
    worker = _local.worker
    return worker.current if worker is not None else None


class ForkJoinPool:
    """Workers, the shared submission queue, and the bookkeeping of blocked workers."""

    def __init__(self, parallelism: int) -> None:
        if parallelism < 1:
            raise ValueError(f"parallelism must be at least 1, got {parallelism}")
        self.parallelism = parallelism
        self._cv = threading.Condition(threading.Lock())
        self._submissions: deque[Task] = deque()
        self._workers: list[Worker] = []
        self._indices = itertools.count()
        self._idle = 0
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
        with self._cv:
            self._pending += 1
        if worker is not None and worker.pool is self:
            worker.push(task)
        else:
            with self._cv:
                self._submissions.append(task)
        with self._cv:
            if self._idle:
                self._cv.notify()

    # -- the workers' side ------------------------------------------------------------

    def next_task(self, worker: Worker) -> Task | None:
        """The next task for ``worker``, sleeping while there is none; None: leave."""
        task = worker.pop_newest()
        if task is not None:
            return task
        with self._cv:
            while True:
                task = self._find_work(worker)
                if task is not None:
                    return task
                if self._surplus() > 0 and not worker.tasks:
                    self._idle += 1
                    self._cv.wait(KEEP_ALIVE)
                    self._idle -= 1
                    task = self._find_work(worker)
                    if task is not None:
                        return task
                    if self._surplus() > 0 and not worker.tasks:
                        self._workers.remove(worker)
                        return None
                    continue
                self._idle += 1
                self._cv.wait()
                self._idle -= 1

    def _find_work(self, worker: Worker) -> Task | None:
        """Own deque newest-first, then the submissions, then steal another's oldest."""
        task = worker.pop_newest()
        if task is not None:
            return task
        if self._submissions:
            return self._submissions.popleft()
        victims = [other for other in self._workers if other is not worker]
        if not victims:
            return None
        start = self._random.randrange(len(victims))
        for offset in range(len(victims)):
            stolen = victims[(start + offset) % len(victims)].steal_oldest()
            if stolen is not None:
                return stolen
        return None

    def task_finished(self) -> None:
        with self._cv:
            self._pending -= 1
            if self._pending == 0:
                self._cv.notify_all()

    def _surplus(self) -> int:
        """Threads free to run tasks beyond ``parallelism`` (the caller holds the lock)."""
        return len(self._workers) - self._blocked - self.parallelism

    def _start_worker(self) -> None:
        worker = Worker(self, next(self._indices))
        self._workers.append(worker)
        worker.thread.start()

    # -- managed blocking -------------------------------------------------------------

    @contextmanager
    def blocking(self) -> Iterator[None]:
        """Around a wait on a pool thread: keep ``parallelism`` threads free to run tasks."""
        worker = _local.worker
        if worker is None or worker.pool is not self:
            yield
            return
        with self._cv:
            self._blocked += 1
            if self._surplus() < 0:
                self._start_worker()
            elif self._idle:
                self._cv.notify()
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
