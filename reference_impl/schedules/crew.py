"""The carriers of a controlled run: greenlets of the caller's thread, and the baton.

Only one task of a controlled run runs at a time, so its tasks need stacks of
their own (a task may stop at a fork or a wait and resume later, beneath or
above others) but no parallelism. Threads would give them stacks at the price
of two wake-ups through the OS and the GIL at every switch, about 11 us;
greenlets (stackful coroutines, the library gevent and SQLAlchemy build on)
switch within one thread in well under a microsecond. That is the only reason
for the dependency: no hand-written coroutine scheme can suspend a task in
the middle of the user's own Python frames.

Each carrier has its own ``ThreadContext`` (``reference_impl._state``), as a thread has its
own: whoever passes the baton installs the next carrier's context before the
switch, so the facts fork and wait read (scripted, current task, trace scope,
run) are always those of the carrier running.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

import greenlet

from reference_impl._state import ThreadContext, local

if TYPE_CHECKING:
    from reference_impl.schedules.policies import Task


class Carrier:
    """A stack of the run: ``wake()`` names it to run next, ``wait()`` passes the baton."""

    __slots__ = ("context", "crew", "glet", "start")

    def __init__(self, crew: Crew, glet: greenlet.greenlet, context: ThreadContext) -> None:
        self.crew = crew
        self.glet = glet
        self.context = context
        self.start: Task | None = None  # the task to start when an idle carrier wakes

    def wake(self) -> None:
        """This carrier runs when the baton holder next calls ``wait()``."""
        self.crew.next = self

    def wait(self) -> None:
        """Switch to the carrier woken last; return when this one is switched to again.

        With no carrier woken (a run that stopped wakes nobody) it returns at once,
        as a woken thread would: the caller then sees that the run stopped.
        """
        crew = self.crew
        target, crew.next = crew.next, None
        if target is None or target is self:
            return
        local.context = target.context
        glet = target.glet
        if not glet and not glet.dead:  # not started: start it shallow, from the spawner
            crew.spawner.switch(target)
        else:
            glet.switch()


class Crew:
    """The carriers of one run: made as needed, reused when idle, unwound at the end.

    Made on the caller's thread, whose current greenlet becomes the caller's
    carrier and the parent of every other: a carrier whose body ends (the run
    is over, or its bookkeeping failed) hands control back to the caller.
    """

    def __init__(self, carry: Callable[[Carrier], None]) -> None:
        self._carry = carry  # a carrier's whole life (the run's)
        self.next: Carrier | None = None  # woken, to run at the next wait()
        self.caller = Carrier(self, greenlet.getcurrent(), local.context)
        self.all: list[Carrier] = []
        self.idle: list[Carrier] = []  # their tasks all done, suspended until given another
        # A greenlet starts with the recursion depth of the frame that first switches to
        # it: carriers started from deep in a chain of waits would inherit that depth and
        # reach the recursion limit with a short stack of their own. The spawner, started
        # here on the caller's shallow stack, is the one that starts every carrier.
        self.spawner = greenlet.greenlet(self._spawn, self.caller.glet)
        self.spawner.switch()

    def take(self) -> Carrier:
        """An idle carrier, or a new one, to start a task on."""
        if self.idle:
            return self.idle.pop()
        parent = self.caller.glet
        carrier = Carrier(self, parent, ThreadContext())  # its own greenlet, just below
        carrier.glet = greenlet.greenlet(functools.partial(self._body, carrier), parent)
        self.all.append(carrier)
        return carrier

    def _spawn(self) -> None:
        """Start each carrier it is given, at its own shallow depth; never returns."""
        target: Carrier = self.caller.glet.switch()  # primed: back to __init__
        while True:
            # a carrier that wants a new one started switches here, with it
            target = target.glet.switch()

    def _body(self, carrier: Carrier) -> None:
        try:
            self._carry(carrier)
        finally:  # control returns to the caller's carrier, the parent
            local.context = self.caller.context

    def stop(self) -> None:
        """Unwind every carrier still suspended (it sees the run over and ends).

        Called on the caller's carrier once every task is done, or the run
        stopped; each carrier's body then returns here, its parent. A suspended
        carrier has no task to start (``_carry`` clears ``start`` as it takes
        one), so once resumed it ends.
        """
        for carrier in self.all:
            if carrier.glet:  # started and not dead: suspended in a wait()
                local.context = carrier.context
                carrier.glet.switch()
                local.context = self.caller.context
        self.all.clear()
        self.idle.clear()
        self.next = None
        self.spawner.throw(greenlet.GreenletExit)  # it ends here, on its own thread
