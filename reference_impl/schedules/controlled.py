"""A controlled run: the tasks of one scripted call, whose turn it is, the carriers, the log.

Only the task whose turn it is runs; at each fork and wait (and when a task
ends) the run's policy picks the runnable task that runs next, and the turn
passes to the carrier of that task. Tasks run on *greenlet carriers*, stacks
of the run (greenlets of the calling thread, see ``carriers``): a task chosen
while the running task waits on it, not yet started, runs inline on the
waiter's carrier (the waiter could not run before it ends anyway), up to
``MAX_INLINE`` tasks high; a task chosen otherwise starts on an idle carrier,
or a new one. Which carrier runs a task never changes a choice.

If the run's own bookkeeping fails (a RecursionError at the stack's limit, an
interrupt), the run stops: the carrier that failed hands control back to the
caller's, which raises; when the call ends every carrier still suspended is
resumed and raises :class:`ScheduleStopped` at its switch point, tasks never
started end with that error, and no carrier is left suspended.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reference_impl._core import _DONE
from reference_impl._errors import DeadlockError
from reference_impl._future import Future, new_task
from reference_impl._thread_state import local
from reference_impl.schedules.carriers import Carriers, GreenletCarrier
from reference_impl.schedules.events import DEADLOCK, DONE, FORK, RUN, WAIT, describe_events
from reference_impl.schedules.outside import OutsideWaits
from reference_impl.schedules.policies import Policy, Task

#: tasks one carrier runs inline, one above another: the next waited task starts on a
#: carrier of its own instead (started shallow: see ``carriers.Carriers.spawner``), so that a chain
#: of nested waits of any depth stays within the interpreter's recursion limit, as
#: ``_core.MAX_NESTED`` keeps uncontrolled waits within it
MAX_INLINE = 32


class ScheduleStopped(RuntimeError):
    """The controlled run this task belonged to stopped; ``__cause__`` says why."""


class ControlledRun(OutsideWaits):
    """One top-level scripted call under a policy: its tasks, whose turn it is, the log.

    Only the carrier whose turn it is touches the run's state. Events are
    kept as ints (see ``events``): an f-string per step would be a large part
    of what a step costs.
    """

    def __init__(self, policy: Policy) -> None:
        super().__init__()
        self.policy = policy
        self._events: list[int] = []
        self._forked: list[Callable[..., Any]] = []  # the function of each fork, in order
        self._tasks: list[Task] = []
        self._by_future: dict[int, Task] = {}
        self._step = 0
        self._runnable = 0
        self._carriers = Carriers(self._carrier_life)  # the stacks of this run (the caller's too)
        self._unfinished_from = 1  # no task below this index is unfinished
        self._stopped: BaseException | None = None  # why the run stopped, if it did
        caller = self._add(None)
        caller.carrier = self._carriers.caller  # the calling thread's current greenlet
        self.current = caller  # the caller's turn first

    @property
    def log(self) -> list[str]:
        """``fork 0->1 <function f>``, ``run 1``, ``wait 0 on 1``, ``done 1``, ..."""
        return describe_events(self._events, self._forked)

    # -- the three switch points -------------------------------------------------

    def fork(self, func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        me = self.current
        self._raise_if_stopped()
        future: Future[Any] = new_task(func, args, kwargs)  # run by the schedule
        try:
            task = self._add(future)
            self._events += (me.id << 3 | FORK, task.id)
            self._forked.append(func)
            self._switch(me)
        except BaseException as error:
            self._stopped = self._stopped or error  # a store first: the call may fail
            self._stop(error)
            raise
        return future

    def wait(self, future: Future[Any]) -> Any:
        self.wait_until_done(future)
        return future._outcome()

    def wait_until_done(self, future: Future[Any]) -> None:
        """A wait point: return once ``future`` is done (its outcome is left in it)."""
        me = self.current
        task = self._by_future.get(id(future))
        if task is None:  # not forked in this run: a promise, a pool task
            if future._state != _DONE:
                self._wait_outside(me, future)
            return
        if task is me:
            raise DeadlockError(f"task {me.id} waits on its own future")
        self._raise_if_stopped()
        node: Task | None = task
        while node is not None:  # would this wait close a cycle of waits?
            if node is me:
                self._events += (me.id << 3 | WAIT, task.id, me.id << 3 | DEADLOCK)
                raise DeadlockError(f"deadlock: task {me.id} waits on itself through {task.id}")
            node = node.waiting_on
        try:
            self._events += (me.id << 3 | WAIT, task.id)
            if not task.done:
                self._block(me, task)
            self._switch(me)
        except BaseException as error:
            self._stopped = self._stopped or error  # a store first: the call may fail
            self._stop(error)
            raise

    def finish(self) -> None:
        """The caller is done: let every task still unfinished run to its end."""
        try:
            if self._stopped is None:
                self._run_the_rest()
        except BaseException as error:
            self._stopped = self._stopped or error
            raise
        finally:
            if self._stopped is not None:
                self._stop(self._stopped)  # again, shallow now, in case it failed deeper
            self._stop_carriers()

    def _run_the_rest(self) -> None:
        me, tasks = self.current, self._tasks
        index = self._unfinished_from
        while True:
            while index < len(tasks) and tasks[index].done:
                index += 1
            self._unfinished_from = index
            if index == len(tasks):
                return
            self._block(me, tasks[index])
            self._switch(me)

    def _block(self, me: Task, task: Task) -> None:
        """``me`` waits on ``task``: not runnable until it is done."""
        me.waiting_on = task
        if task.waiters is None:
            task.waiters = [me]
        else:
            task.waiters.append(me)
        me.runnable = False
        self._runnable -= 1
        self.policy.remove(me)

    def _stop_carriers(self) -> None:
        """End every carrier of the run (on the caller's carrier, once the call is over)."""
        self._carriers.stop()
        if self._stopped is not None:
            self._fail_unstarted()  # forked by a carrier that ran on after the stop

    # -- when the run's own bookkeeping fails --------------------------------------

    def _stop(self, error: BaseException) -> None:
        """Stop the run for good: fail every task not started (``finish`` ends the carriers).

        Called where the error is caught, perhaps still at the stack's limit;
        the callers store ``_stopped`` first (a store cannot fail), and finish()
        calls this again, shallower, if it failed here.
        """
        if self._stopped is None:
            self._stopped = error
        self._fail_unstarted()

    def _fail_unstarted(self) -> None:
        """Tasks not started (a carrier may have been told to, too late) end with the stop."""
        for task in self._tasks[1:]:
            if not task.done:
                assert task.future is not None
                task.future._fail_if_pending(self._stopped_error())

    def _stopped_error(self) -> ScheduleStopped:
        error = ScheduleStopped(f"the controlled run stopped: {self._stopped!r}")
        error.__cause__ = self._stopped
        return error

    def _raise_if_stopped(self) -> None:
        if self._stopped is not None:
            raise self._stopped_error()

    # -- the turn ----------------------------------------------------------------

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
        """The task to run next; ``current`` is the one at the switch point (None: it ended)."""
        if self._inbox:
            self._take_inbox()
        if not self._runnable:
            self._await_outside()
        self._step += 1
        return self.policy.choose(current, self._step)

    def _switch(self, me: Task) -> None:
        """A switch point of the running task ``me``; returns when ``me`` runs again."""
        chosen = self._choose(me)
        if chosen is me:
            return
        self._events.append(chosen.id << 3 | RUN)
        self.current = chosen
        here = me.carrier
        if chosen.carrier is None and me.waiting_on is chosen and me.height < MAX_INLINE:
            chosen.carrier, chosen.below = here, me  # run it here, above me
            chosen.height = me.height + 1
            if self._run(chosen) is me:
                return
        else:
            self._resume(chosen)
        if self._stopped is None:
            here.pass_turn()  # touch nothing shared after passing the turn
        self._raise_if_stopped()

    def _run(self, task: Task) -> Task | None:
        """Run ``task`` on this carrier, then choose who runs next.

        Returns the task this carrier goes on with: the one beneath on its
        stack, or a new one if ``task`` was at the bottom; None if the turn
        went to another carrier.
        """
        future = task.future
        assert future is not None
        future._run_if_pending()
        if self._stopped is not None:
            return None
        policy, events = self.policy, self._events
        task.done = True
        task.runnable = False
        policy.remove(task)
        events.append(task.id << 3 | DONE)
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
        events.append(chosen.id << 3 | RUN)
        self.current = chosen
        here = task.carrier
        if chosen.carrier is here:  # the task beneath: it goes on right here
            return chosen
        if task.below is None:  # nothing beneath: this carrier is free
            if chosen.carrier is None:
                chosen.carrier = here
                return chosen
            self._carriers.idle.append(here)  # before the turn passes: the next task may reuse it
        self._resume(chosen)
        return None

    def _resume(self, chosen: Task) -> None:
        """Give the turn to the carrier of ``chosen``, starting it on a carrier if new."""
        carrier = chosen.carrier
        if carrier is None:
            carrier = chosen.carrier = self._carriers.take()
            carrier.start = chosen
        carrier.run_next()

    def _carrier_life(self, carrier: GreenletCarrier) -> None:
        """A carrier's life: start the tasks it is given until the run is over."""
        local.state.run = self
        try:
            while True:
                carrier.pass_turn()
                task = carrier.start
                if task is None or self._stopped is not None:
                    return
                carrier.start = None
                while task is not None:
                    task = self._run(task)
        except BaseException as error:  # noqa: BLE001 - the caller gets it, as a stop
            self._stopped = self._stopped or error
            self._stop(error)  # shallow here; then the caller's carrier resumes, and raises


def active_run() -> ControlledRun | None:
    """The controlled run this thread's scripted code belongs to, if any."""
    run = local.state.run
    return run if isinstance(run, ControlledRun) else None
