"""Controlled schedules, an extension of the reference: scripted forks run one at a time.

Under a controlled schedule only the task whose *turn* it is runs; the turn
passes only at fork and wait points (and when a task ends), to the runnable
task the policy chooses. With the same policy and seed the same choices are
made, so the same interleaving - and the same event log - comes out every
time. That is what makes a race found by exploring schedules replayable.

Policies (``FORKWAIT_SCHEDULE`` or ``script(fn, schedule=...)``), defined in
``policies``:

``fifo``
    the running task keeps the turn until it waits; then the oldest runnable.
``lifo``
    the newest runnable task runs first (a fork switches to the child at once).
``random:SEED``
    a seeded uniform choice among runnable tasks at every point.
``pct:SEED:DEPTH``
    probabilistic concurrency testing (Burckhardt et al., ASPLOS 2010; as in
    Microsoft Coyote): random distinct priorities, the highest runnable runs, and
    at DEPTH-1 random points the running task drops to the lowest priority.

How a run passes the turn between its tasks is in ``controlled``: they run on
the calling thread, each on a greenlet of its own (a *greenlet carrier*,
``carriers``). A wait that
would close a cycle of waits raises :class:`DeadlockError` in the task that
waits, as on the pool. A call that raises still lets its tasks run to their
end, and every greenlet of the run has ended when the call returns.

Tasks must synchronise through fork and wait only: a task blocked on a lock or
an event keeps the turn (and the thread), and the run stalls until that wait
gives up. As every task of a run shares the caller's thread, thread identity
(``threading.get_ident()``, an ``RLock`` re-entered) cannot tell them apart.
Modules: ``explorer`` (picking schedules and running a call under one: what
``script`` and the conformance suite's explorer use), ``controlled`` (one run:
its tasks, whose turn it is, the log), ``outside`` (its waits on futures it did
not fork), ``carriers`` (its greenlets), ``events`` (its log), ``policies`` and
``idset`` (who runs next). Importing this package plugs it into ``script``
(``_interceptors.scheduler``).
"""

from reference_impl import _interceptors
from reference_impl.schedules.controlled import ScheduleStopped, active_run
from reference_impl.schedules.explorer import (
    ENV_SCHEDULE,
    SCHEDULER,
    default_schedules,
    run_scheduled,
    use_schedule,
)
from reference_impl.schedules.policies import parse_schedule

_interceptors.install_scheduler(SCHEDULER)

__all__ = [
    "ENV_SCHEDULE",
    "ScheduleStopped",
    "active_run",
    "default_schedules",
    "parse_schedule",
    "run_scheduled",
    "use_schedule",
]
