"""Schedule policies, and the tasks they choose among, indexed so a choice scans nothing.

A controlled run tells its policy whenever a task becomes runnable (``add``) or
stops being runnable (``remove``); each policy keeps the index its choice
needs, so forks, waits and choices cost O(log N) in the number of tasks, not a
scan of all of them:

* fifo / lifo: a heap of task ids (lowest / highest first), stale entries
  dropped when they surface;
* random: the runnable ids, sorted (a list while few, a Fenwick tree when
  many), whose k-th member is the k-th runnable task in id order;
* pct: a heap by priority, re-pushed when a task's priority changes.

Each picks exactly the task the plain definition picks (over the runnable
tasks in id order) and draws the same random numbers, so a schedule's event
log does not depend on the index.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from reference_impl.schedules.idset import IdSet

if TYPE_CHECKING:
    from reference_impl._future import Future

#: steps over which PCT spreads its priority change points
PCT_HORIZON = 64


class Task:
    """One task of a controlled run (task 0 is the scripted caller itself)."""

    __slots__ = (
        "below",
        "carrier",
        "done",
        "future",
        "height",
        "id",
        "runnable",
        "waiters",
        "waiting_on",
    )

    def __init__(self, task_id: int, future: Future[Any] | None) -> None:
        self.id = task_id
        self.future = future  # None for the caller
        self.runnable = False  # not done and not waiting
        self.done = False
        self.waiting_on: Task | None = None
        self.waiters: list[Task] | None = None  # made on the first wait: most tasks have none
        #: the greenlet carrier that runs it, once started (``carriers.GreenletCarrier``)
        self.carrier: Any = None
        #: the task beneath it on its carrier's stack, whose wait runs it inline
        self.below: Task | None = None
        #: how many tasks lie beneath it on its carrier's stack
        self.height = 0


class Policy:
    """Chooses which runnable task runs next."""

    name = "policy"

    def new_task(self, task: Task) -> None:
        """Called when a task is created (the caller first, then each fork)."""

    def add(self, task: Task) -> None:
        """``task`` became runnable."""

    def remove(self, task: Task) -> None:
        """``task`` stopped being runnable (it waits, or it is done)."""

    def choose(self, current: Task | None, step: int) -> Task:
        """A runnable task; ``current`` is the task at the switch point (None: it ended)."""
        raise NotImplementedError


class _ById(Policy):
    """Keeps every task by id, so a heap can hold ids rather than tasks.

    The heaps below hold an entry per time a task became runnable; entries of
    tasks no longer runnable (or re-prioritised) are stale, dropped when they
    reach the top. Ids are ints: compared in C, and nothing for the garbage
    collector to traverse.
    """

    def __init__(self) -> None:
        self._tasks: list[Task] = []

    def new_task(self, task: Task) -> None:
        self._tasks.append(task)


class _IdHeap(_ById):
    def __init__(self) -> None:
        super().__init__()
        self._heap: list[int] = []  # ids (fifo) or negated ids (lifo)


class Fifo(_IdHeap):
    """The running task keeps the turn until it waits; then the oldest runnable."""

    name = "fifo"

    def add(self, task: Task) -> None:
        heapq.heappush(self._heap, task.id)

    def choose(self, current: Task | None, step: int) -> Task:
        if current is not None and current.runnable:
            return current
        heap, tasks = self._heap, self._tasks
        while True:
            task = tasks[heap[0]]
            if task.runnable:
                return task
            heapq.heappop(heap)


class Lifo(_IdHeap):
    """The newest runnable task runs first (a fork switches to the child at once)."""

    name = "lifo"

    def add(self, task: Task) -> None:
        heapq.heappush(self._heap, -task.id)

    def choose(self, current: Task | None, step: int) -> Task:
        heap, tasks = self._heap, self._tasks
        while True:
            task = tasks[-heap[0]]
            if task.runnable:
                return task
            heapq.heappop(heap)


class PCT(_ById):
    """Probabilistic concurrency testing (Burckhardt et al., ASPLOS 2010).

    Random distinct priorities; the highest runnable runs (the lowest id among
    equals); at DEPTH-1 random steps the running task drops below all others.
    """

    def __init__(self, seed: int, depth: int) -> None:
        if depth < 1:
            raise ValueError(f"pct depth must be at least 1, got {depth}")
        super().__init__()
        self._heap: list[tuple[float, int]] = []  # (-priority, id)
        self.name = f"pct:{seed}:{depth}"
        self._rng = random.Random(seed)  # noqa: S311 - replayable, not secret
        self._priority: list[float] = []  # by task id
        self._change_points = sorted(self._rng.sample(range(1, PCT_HORIZON), depth - 1))
        self._lowered = 0

    def new_task(self, task: Task) -> None:
        super().new_task(task)
        # initial priorities lie above every lowered one (those are negative)
        self._priority.append(1.0 + self._rng.random())

    def add(self, task: Task) -> None:
        heapq.heappush(self._heap, (-self._priority[task.id], task.id))

    def first(self) -> Task:
        heap, priority, tasks = self._heap, self._priority, self._tasks
        while True:
            key, task_id = heap[0]
            task = tasks[task_id]
            if task.runnable and -key == priority[task_id]:  # else stale: re-prioritised
                return task
            heapq.heappop(heap)

    def choose(self, current: Task | None, step: int) -> Task:
        if current is not None and self._change_points and step == self._change_points[0]:
            self._change_points.pop(0)
            self._lowered += 1
            self._priority[current.id] = -self._lowered  # below every initial priority
            if current.runnable:
                self.add(current)  # its old entry is stale now
        return self.first()


class RandomPolicy(_ById):
    """A seeded uniform choice among the runnable tasks, sorted by id, at every point."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.name = f"random:{seed}"
        self._rng = random.Random(seed)  # noqa: S311 - replayable, not secret
        self._bits: Callable[[int], int] = self._rng.getrandbits
        self._runnable = IdSet()

    def add(self, task: Task) -> None:
        self._runnable.add(task.id)

    def remove(self, task: Task) -> None:
        self._runnable.remove(task.id)

    def choose(self, current: Task | None, step: int) -> Task:
        # draws exactly as choice(sorted_runnable) does (CPython's _randbelow: the
        # fewest bits that hold n, redrawn until below n), written out: two calls
        # and a range object fewer at every step, and the draws hang on no
        # private method of random.Random
        runnable, bits = self._runnable, self._bits
        n = runnable.count
        k = n.bit_length()
        index = bits(k)
        while index >= n:
            index = bits(k)
        members = runnable._sorted
        return self._tasks[members[index] if members is not None else runnable.kth(index)]


def parse_schedule(spec: str) -> Policy:
    """``fifo``, ``lifo``, ``random:SEED`` or ``pct:SEED:DEPTH`` -> a fresh Policy."""
    kind, _, rest = spec.strip().partition(":")
    try:
        if kind == "fifo" and not rest:
            return Fifo()
        if kind == "lifo" and not rest:
            return Lifo()
        if kind == "random":
            return RandomPolicy(int(rest))
        if kind == "pct":
            seed, _, depth = rest.partition(":")
            return PCT(int(seed), int(depth or 2))
    except ValueError as exc:
        raise ValueError(f"bad schedule {spec!r}: {exc}") from None
    raise ValueError(f"bad schedule {spec!r}: use fifo, lifo, random:SEED or pct:SEED:DEPTH")
