"""Controlled schedules: scripted forks run one at a time, in an order a policy picks.

Under a controlled schedule every forked task still gets a thread of its own,
but only the task holding the *baton* runs; the baton moves only at fork and
wait points (and when a task ends), to the runnable task the policy chooses.
With the same policy and seed the same choices are made, so the same
interleaving - and the same event log - comes out every time. That is what
makes a race found by exploring schedules replayable.

Policies (``FORKWAIT_SCHEDULE`` or ``script(fn, schedule=...)``):

``fifo``
    the running task keeps the baton until it waits; then the oldest runnable.
``lifo``
    the newest runnable task runs first (a fork switches to the child at once).
``random:SEED``
    a seeded uniform choice among runnable tasks at every point.
``pct:SEED:DEPTH``
    probabilistic concurrency testing (Burckhardt et al., ASPLOS 2010; as in
    Microsoft Coyote): random distinct priorities, the highest runnable runs, and
    at DEPTH-1 random points the running task drops to the lowest priority.

Tasks must synchronise through fork and wait only: a task blocked on a lock or
an event holds the baton, and the run stalls until that wait gives up.
"""

from __future__ import annotations

import os
import random
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from reference_impl._future import DeadlockError, Future, describe_callable
from reference_impl._state import state

ENV_SCHEDULE = "FORKWAIT_SCHEDULE"
#: steps over which PCT spreads its priority change points
PCT_HORIZON = 64


class Policy:
    """Chooses which runnable task runs next."""

    name = "policy"

    def new_task(self, task: Task) -> None:
        """Called when a task is forked."""

    def choose(self, runnable: list[Task], current: Task | None, step: int) -> Task:
        raise NotImplementedError


class Fifo(Policy):
    name = "fifo"

    def choose(self, runnable: list[Task], current: Task | None, step: int) -> Task:
        if current is not None and current in runnable:
            return current
        return min(runnable, key=lambda t: t.id)


class Lifo(Policy):
    name = "lifo"

    def choose(self, runnable: list[Task], current: Task | None, step: int) -> Task:
        return max(runnable, key=lambda t: t.id)


class RandomPolicy(Policy):
    def __init__(self, seed: int) -> None:
        self.name = f"random:{seed}"
        self._rng = random.Random(seed)  # noqa: S311 - replayable, not secret

    def choose(self, runnable: list[Task], current: Task | None, step: int) -> Task:
        return self._rng.choice(sorted(runnable, key=lambda t: t.id))


class PCT(Policy):
    def __init__(self, seed: int, depth: int) -> None:
        if depth < 1:
            raise ValueError(f"pct depth must be at least 1, got {depth}")
        self.name = f"pct:{seed}:{depth}"
        self._rng = random.Random(seed)  # noqa: S311 - replayable, not secret
        self._priority: dict[int, float] = {}
        self._change_points = sorted(self._rng.sample(range(1, PCT_HORIZON), depth - 1))
        self._lowered = 0

    def new_task(self, task: Task) -> None:
        # initial priorities lie above every lowered one (those are negative)
        self._priority[task.id] = 1.0 + self._rng.random()

    def choose(self, runnable: list[Task], current: Task | None, step: int) -> Task:
        if current is not None and self._change_points and step == self._change_points[0]:
            self._change_points.pop(0)
            self._lowered += 1
            self._priority[current.id] = -self._lowered  # below every initial priority
        return max(runnable, key=lambda t: self._priority.get(t.id, 0.0))


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


def default_schedules(count: int) -> list[str]:
    """``count`` distinct schedules: fifo, lifo, then random and PCT seeds alternating."""
    schedules = ["fifo", "lifo"]
    seed = 1
    while len(schedules) < count:
        schedules.append(f"random:{seed}")
        if len(schedules) < count:
            schedules.append(f"pct:{seed}:{2 + seed % 2}")
        seed += 1
    return schedules[:count]


@dataclass(eq=False)
class Task:
    id: int
    future: Future[Any] | None  # None for the scripted caller itself (task 0)
    go: threading.Event = field(default_factory=threading.Event)
    waiting_on: Future[Any] | None = None
    done: bool = False
    #: raised in the task when it next gets the baton (a deadlock it is part of)
    interrupt: BaseException | None = None


class ControlledRun:
    """One top-level scripted call under a policy: its tasks, the baton, the log."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.log: list[str] = []
        self._lock = threading.Lock()
        self._tasks: list[Task] = []
        self._by_future: dict[int, Task] = {}
        self._step = 0
        self.current = self._add(None)  # the caller holds the baton

    # -- the three switch points -------------------------------------------------

    def fork(self, func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        future: Future[Any] = Future(func, args, kwargs, run_now=False)
        with self._lock:
            task = self._add(future)
            self.log.append(f"fork {self.current.id}->{task.id} {describe_callable(func)}")
        threading.Thread(target=self._run_task, args=(task,), daemon=True).start()
        self._switch()
        return future

    def wait(self, future: Future[Any]) -> Any:
        me = self.current
        task = self._by_future.get(id(future))
        if task is None:  # not forked in this run (e.g. made before it): ordinary wait
            return future._wait()
        if task is me:
            raise DeadlockError(f"task {me.id} waits on its own future")
        with self._lock:
            self.log.append(f"wait {me.id} on {task.id}")
            if not task.done:
                me.waiting_on = future
        self._switch()
        return future._outcome()

    def _finish(self, task: Task) -> None:
        with self._lock:
            task.done = True
            self.log.append(f"done {task.id}")
            for other in self._tasks:
                if other.waiting_on is task.future:
                    other.waiting_on = None
        self._switch(leaving=True)

    # -- the baton ---------------------------------------------------------------

    def _add(self, future: Future[Any] | None) -> Task:
        task = Task(len(self._tasks), future)
        self._tasks.append(task)
        if future is not None:
            self._by_future[id(future)] = task
        self.policy.new_task(task)
        return task

    def _switch(self, *, leaving: bool = False) -> None:
        """Pass the baton to the task the policy picks; block until it comes back."""
        me = self.current
        with self._lock:
            runnable = [t for t in self._tasks if not t.done and t.waiting_on is None]
            if not runnable:
                blocked = [t for t in self._tasks if not t.done]
                if not blocked:
                    return
                # a wait cycle: the lowest blocked task gets a DeadlockError to raise
                victim = blocked[0]
                victim.waiting_on = None
                victim.interrupt = DeadlockError(
                    f"deadlock: tasks {[t.id for t in blocked]} all wait on each other"
                )
                runnable = [victim]
            self._step += 1
            chosen = self.policy.choose(runnable, None if leaving else me, self._step)
            if chosen is me and not leaving:
                if me.interrupt is not None:
                    error, me.interrupt = me.interrupt, None
                    raise error
                return
            self.log.append(f"run {chosen.id}")
            self.current = chosen
            me.go.clear()
            chosen.go.set()
        if not leaving:
            me.go.wait()
            if me.interrupt is not None:
                error, me.interrupt = me.interrupt, None
                raise error

    def _run_task(self, task: Task) -> None:
        task.go.wait()
        _controlled.run = self
        future = task.future
        assert future is not None
        future._run_if_pending()
        self._finish(task)

    def finish(self) -> None:
        """The caller is done: let every task still unfinished run to its end."""
        me = self.current
        while True:
            with self._lock:
                pending = [t for t in self._tasks if t is not me and not t.done]
                if not pending:
                    return
                me.waiting_on = pending[0].future
            self._switch()


class _Controlled(threading.local):
    run: ControlledRun | None = None


_controlled = _Controlled()
_default_schedule: list[str | None] = [None]


def active_run() -> ControlledRun | None:
    return _controlled.run


def schedule_for(explicit: str | None) -> str | None:
    """The schedule a top-level scripted call uses: explicit, selected, or from the env."""
    return explicit or _default_schedule[0] or os.environ.get(ENV_SCHEDULE) or None


@contextmanager
def use_schedule(spec: str | None) -> Iterator[None]:
    """Run top-level scripted calls under ``spec`` (None: the thread pool) in this block."""
    if spec is not None:
        parse_schedule(spec)  # reject a bad spec now, not at the first call
    outer = _default_schedule[0]
    _default_schedule[0] = spec
    try:
        yield
    finally:
        _default_schedule[0] = outer


def run_scheduled(
    spec: str, func: Callable[..., Any], *args: Any, **kwargs: Any
) -> tuple[Any, list[str]]:
    """Call ``func`` as scripted code under schedule ``spec``; its result and event log.

    The log (``fork 0->1 <function f>``, ``run 1``, ``wait 0 on 1``, ``done 1``)
    is the same on every call with the same spec: that is what replay means.
    """
    return run_controlled(spec, lambda: func(*args, **kwargs))


def run_controlled(spec: str, call: Callable[[], Any]) -> tuple[Any, list[str]]:
    """Run ``call`` (already scripted) as the caller task of a controlled run."""
    run = ControlledRun(parse_schedule(spec))
    outer = _controlled.run
    _controlled.run = run
    outer_scripted = state.scripted
    state.scripted = True
    try:
        result = call()
        run.finish()
        return result, run.log
    finally:
        _controlled.run = outer
        state.scripted = outer_scripted
