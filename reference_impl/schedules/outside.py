"""A controlled run's waits on futures that are none of its tasks.

A task of a run may wait on a future the run did not fork: a ``Future()`` that
another thread, or another task of the run, completes; a ``then`` or
``collect_all`` future; a task of the pool. Keeping the turn while blocked
would stall the run, and deadlock it when the completer needs a task of the run
to progress. So such a wait is a switch point like the others: the waiting task
stops being runnable, and a callback on the future makes it runnable again.

What the schedule controls, and what it cannot:

* a promise made from other futures (``then``, ``collect_all``, wait_all's
  gate) is waited source by source, each a wait point of the schedule, in
  list order;
* a future completed by a task of the run: its callback runs on the carrier
  whose turn it is, so the waiter becomes runnable at a point the schedule
  chose, and the log replays exactly;
* a future completed by a thread outside the run: that happens when it
  happens. Its callback leaves the waiter in an inbox, which the task whose
  turn it is empties at its next switch point or, when no task can run, waits for. Where
  the waiter resumes then depends on timing, so such a run need not replay
  exactly: no choice of the schedule can fix when another thread acts.
"""

from __future__ import annotations

import functools
import threading
from typing import TYPE_CHECKING, Any

from reference_impl._callbacks import Entry, add
from reference_impl._core import _DONE, PROMISE
from reference_impl._future import Future
from reference_impl._thread_state import local

if TYPE_CHECKING:
    from reference_impl.schedules.policies import Policy, Task


class OutsideWaits:
    """The part of a ControlledRun that waits on futures from outside it."""

    policy: Policy
    _runnable: int
    _stopped: BaseException | None

    def __init__(self) -> None:
        self._outside = 0  # tasks waiting on a future from outside the run
        self._inbox: list[Task] = []  # theirs, once done, until the running task looks
        self._inbox_ready = threading.Condition(threading.Lock())

    def wait_until_done(self, future: Future[Any]) -> None:
        raise NotImplementedError

    def _switch(self, me: Task) -> None:
        raise NotImplementedError

    def _stop(self, error: BaseException) -> None:
        raise NotImplementedError

    def _wait_outside(self, me: Task, future: Future[Any]) -> None:
        """``me`` waits on ``future``, not done, which is no task of this run."""
        if future._kind is PROMISE:
            for source in future._args:  # each a wait point, in order
                if future._state == _DONE:
                    return
                self.wait_until_done(source)
        elif future._run_if_pending(local.state):  # a task nobody has started: run it here
            return
        if future._state != _DONE:
            self._park(me, future)

    def _park(self, me: Task, future: Future[Any]) -> None:
        """Wait for ``future`` without the turn: ``me`` is runnable again once it is done."""
        try:
            me.runnable = False
            self._runnable -= 1
            self.policy.remove(me)
            self._outside += 1
            add(future, Entry(functools.partial(self._outside_done, me)))
            self._switch(me)
        except BaseException as error:
            self._stopped = self._stopped or error  # a store first: the call may fail
            self._stop(error)
            raise

    def _outside_done(self, task: Task, _future: Future[Any]) -> None:
        """The future ``task`` waits on is done: on whichever thread completed it."""
        here: object = local.state.run
        if here is self:  # a carrier of this run: the one whose turn it is
            self._admit(task)
        else:
            with self._inbox_ready:
                self._inbox.append(task)
                self._inbox_ready.notify()

    def _admit(self, task: Task) -> None:
        self._outside -= 1
        task.runnable = True
        self._runnable += 1
        self.policy.add(task)

    def _take_inbox(self) -> None:
        """The running task's part: tasks whose outside futures are done become runnable."""
        with self._inbox_ready:
            tasks, self._inbox = self._inbox, []
        for task in tasks:
            self._admit(task)

    def _await_outside(self) -> None:
        """No task can run: wait until an outside future some task waits on is done."""
        if not self._outside:  # cannot happen: a wait never closes a cycle
            raise RuntimeError("controlled schedule: no task can run")
        with self._inbox_ready:
            while not self._inbox:
                self._inbox_ready.wait()
        self._take_inbox()
