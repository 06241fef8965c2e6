"""A controlled run: the tasks of one scripted call, the baton, the carriers, the log.

Only the task holding the baton runs; at each fork and wait (and when a task
ends) the run's policy picks the runnable task that runs next, and the baton
moves to the thread of that task. Tasks run on *carriers*, threads of the run:
a task chosen while the running task waits on it, not yet started, runs
inline on the waiter's thread (the waiter could not run before it ends
anyway); a task chosen otherwise starts on an idle carrier, or a new one.
Which thread runs a task never changes a choice.
"""

from __future__ import annotations

import contextlib
import functools
import os
import threading
from collections.abc import Callable
from typing import Any

from reference_impl._future import DeadlockError, Future, describe_callable
from reference_impl._policies import Policy, Task
from reference_impl._state import local

#: Carriers of one run that get an eventfd baton; the rest use a lock (fds are finite).
EVENTFD_CARRIERS = 64


class Carrier:
    """A thread of a run: ``wait()`` sleeps until another thread calls ``wake()``.

    The baton is an eventfd where there is one (Linux): writing it releases the
    GIL around the system call, so the woken thread takes the GIL at once; a
    held lock, the portable fallback, wakes it while the waker still holds the
    GIL, and it must sleep again until the waker blocks. Half the cost of a
    switch, which is most of the cost of a step that changes threads.
    """

    __slots__ = ("fd", "start", "thread", "wait", "wake")

    def __init__(self, *, eventfd: bool) -> None:
        self.start: Task | None = None  # the task to start when an idle carrier wakes
        self.thread: threading.Thread | None = None
        self.fd = -1
        if eventfd and hasattr(os, "eventfd"):
            with contextlib.suppress(OSError):  # out of fds: a lock will do
                self.fd = os.eventfd(0)
        self.wait: Callable[[], object]
        self.wake: Callable[[], object]
        if self.fd >= 0:
            self.wait = functools.partial(os.eventfd_read, self.fd)
            self.wake = functools.partial(os.eventfd_write, self.fd, 1)
        else:
            lock = threading.Lock()
            lock.acquire()
            self.wait, self.wake = lock.acquire, lock.release

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


# Events are ints, ``id << 3 | kind``, a wait followed by the waited id and a fork
# by the child's: a run of 10,000 forks logs 50,000 events, and ints, unlike
# tuples, give the garbage collector nothing to traverse.
_FORK, _WAIT, _RUN, _DONE, _DEADLOCK = range(5)


def _describe_events(events: list[int], forked: list[Callable[..., Any]]) -> list[str]:
    lines: list[str] = []
    codes, funcs = iter(events), iter(forked)
    for code in codes:
        kind, who = code & 7, code >> 3
        if kind == _RUN:
            lines.append(f"run {who}")
        elif kind == _WAIT:
            lines.append(f"wait {who} on {next(codes)}")
        elif kind == _DONE:
            lines.append(f"done {who}")
        elif kind == _FORK:
            lines.append(f"fork {who}->{next(codes)} {describe_callable(next(funcs))}")
        else:
            lines.append(f"deadlock {who}")
    return lines


class ControlledRun:
    """One top-level scripted call under a policy: its tasks, the baton, the log.

    Only the thread holding the baton touches the run's state. The hot paths
    are written out rather than split into helpers, and events are kept as
    tuples, formatted only when the log is read: a call or an f-string per
    step is a large part of what a step costs.
    """

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self._events: list[int] = []
        self._forked: list[Callable[..., Any]] = []  # the function of each fork, in order
        self._tasks: list[Task] = []
        self._by_future: dict[int, Task] = {}
        self._step = 0
        self._runnable = 0
        self._carriers: list[Carrier] = []  # threads of this run (not the caller's)
        self._idle: list[Carrier] = []
        self._unfinished_from = 1  # no task below this index is unfinished
        caller = self._add(None)
        caller.carrier = Carrier(eventfd=True)  # the calling thread
        self.current = caller  # the caller holds the baton

    @property
    def log(self) -> list[str]:
        """``fork 0->1 <function f>``, ``run 1``, ``wait 0 on 1``, ``done 1``, ..."""
        return _describe_events(self._events, self._forked)

    # -- the three switch points -------------------------------------------------

    def fork(self, func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        me = self.current
        future: Future[Any] = Future(func, args, kwargs, False)  # run by the schedule
        tasks, policy = self._tasks, self.policy
        task = Task(len(tasks), future)  # as _add does
        tasks.append(task)
        self._by_future[id(future)] = task
        policy.new_task(task)
        task.runnable = True
        self._runnable += 1
        policy.add(task)
        self._events += (me.id << 3 | _FORK, task.id)
        self._forked.append(func)
        self._switch(me)
        return future

    def wait(self, future: Future[Any]) -> Any:
        self.complete(future)
        return future._outcome()

    def complete(self, future: Future[Any]) -> None:
        """A wait point: return once ``future`` is done (its outcome is left in it)."""
        me = self.current
        task = self._by_future.get(id(future))
        if task is None:  # not forked in this run (e.g. made before it): ordinary wait
            future._complete()
            return
        if task is me:
            raise DeadlockError(f"task {me.id} waits on its own future")
        self._events += (me.id << 3 | _WAIT, task.id)
        if not task.done:
            node: Task | None = task
            while node is not None:  # would this wait close a cycle of waits?
                if node is me:
                    self._events.append(me.id << 3 | _DEADLOCK)
                    raise DeadlockError(f"deadlock: task {me.id} waits on itself through {task.id}")
                node = node.waiting_on
            me.waiting_on = task
            if task.waiters is None:
                task.waiters = [me]
            else:
                task.waiters.append(me)
            me.runnable = False
            self._runnable -= 1
            self.policy.remove(me)
        self._switch(me)

    def finish(self) -> None:
        """The caller is done: let every task still unfinished run to its end."""
        me, tasks = self.current, self._tasks
        index = self._unfinished_from
        while True:
            while index < len(tasks) and tasks[index].done:
                index += 1
            self._unfinished_from = index
            if index == len(tasks):
                break
            target = tasks[index]
            me.waiting_on = target
            if target.waiters is None:
                target.waiters = [me]
            else:
                target.waiters.append(me)
            me.runnable = False
            self._runnable -= 1
            self.policy.remove(me)
            self._switch(me)
        for carrier in self._idle:  # every carrier is idle once every task is done
            carrier.start = None
            carrier.wake()
        for carrier in self._idle:
            assert carrier.thread is not None
            carrier.thread.join()
            carrier.close()
        self._idle.clear()
        me.carrier.close()

    # -- the baton ---------------------------------------------------------------

    def _add(self, future: Future[Any] | None) -> Task:
        tasks = self._tasks
        task = Task(len(tasks), future)
        tasks.append(task)
        if future is not None:
            self._by_future[id(future)] = task
        policy = self.policy
        policy.new_task(task)
        task.runnable = True
        self._runnable += 1
        policy.add(task)
        return task

    def _choose(self, current: Task | None) -> Task:
        if not self._runnable:  # cannot happen: a wait never closes a cycle
            raise RuntimeError("controlled schedule: no task can run")
        self._step += 1
        return self.policy.choose(current, self._step)

    def _switch(self, me: Task) -> None:
        """A switch point of the running task ``me``; returns when ``me`` runs again."""
        if not self._runnable:  # as _choose does
            raise RuntimeError("controlled schedule: no task can run")
        self._step += 1
        chosen = self.policy.choose(me, self._step)
        if chosen is me:
            return
        self._events.append(chosen.id << 3 | _RUN)
        self.current = chosen
        here = me.carrier
        if chosen.carrier is None and me.waiting_on is chosen:
            chosen.carrier, chosen.below = here, me  # run it here, above me
            if self._run(chosen) is me:
                return
        else:
            self._resume(chosen)
        here.wait()  # touch nothing shared after passing the baton

    def _run(self, task: Task) -> Task | None:
        """Run ``task`` on this thread, then choose who runs next.

        Returns the task this thread goes on with: the one beneath on its
        stack, or a new one if ``task`` was at the bottom; None if the baton
        went to another thread.
        """
        future = task.future
        assert future is not None
        future._run_if_pending()
        policy, events = self.policy, self._events
        task.done = True
        task.runnable = False
        policy.remove(task)
        events.append(task.id << 3 | _DONE)
        waiters = task.waiters
        self._runnable -= 1
        if waiters is not None:
            for waiter in waiters:
                waiter.waiting_on = None
                waiter.runnable = True
                policy.add(waiter)
            self._runnable += len(waiters)
            task.waiters = None
        chosen = self._choose(None)
        events.append(chosen.id << 3 | _RUN)
        self.current = chosen
        here = task.carrier
        if chosen.carrier is here:  # the task beneath: it goes on right here
            return chosen
        if task.below is None:  # nothing beneath: this carrier is free
            if chosen.carrier is None:
                chosen.carrier = here
                return chosen
            self._idle.append(here)  # before the baton moves: the next holder may reuse it
        self._resume(chosen)
        return None

    def _resume(self, chosen: Task) -> None:
        """Pass the baton to the thread of ``chosen``, starting it on a carrier if new."""
        carrier = chosen.carrier
        if carrier is None:
            carrier = self._idle.pop() if self._idle else self._new_carrier()
            chosen.carrier = carrier
            carrier.start = chosen
        carrier.wake()

    def _new_carrier(self) -> Carrier:
        carrier = Carrier(eventfd=len(self._carriers) < EVENTFD_CARRIERS)
        carrier.thread = threading.Thread(
            target=self._carry,
            args=(carrier,),
            name=f"forkwait-scheduled-{len(self._carriers) + 1}",
            daemon=True,
        )
        self._carriers.append(carrier)
        carrier.thread.start()
        return carrier

    def _carry(self, carrier: Carrier) -> None:
        """A carrier's thread: start the tasks it is given until the run is over."""
        local.context.run = self
        while True:
            carrier.wait()
            task = carrier.start
            if task is None:
                return
            carrier.start = None
            while task is not None:
                task = self._run(task)


def active_run() -> ControlledRun | None:
    """The controlled run this thread's scripted code belongs to, if any."""
    run: ControlledRun | None = local.context.run
    return run
