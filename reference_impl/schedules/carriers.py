"""The greenlet carriers of a controlled run: stacks of the caller's thread, and the turn.

Only one task of a controlled run runs at a time, so its tasks need stacks of
their own (a task may stop at a fork or a wait and resume later, beneath or
above others) but no parallelism. Threads would give them stacks at the price
of two wake-ups through the OS and the GIL at every switch; greenlets
(stackful coroutines, the library gevent and SQLAlchemy build on) switch
within one thread, with no system call. That is the only reason for the
dependency: no hand-written coroutine scheme can suspend a task in the middle
of the user's own Python frames.

A *carrier* is such a greenlet, carrying one task or a stack of them. Each
carrier has its own ``ThreadState`` (``reference_impl._thread_state``), as a
thread has its own: whoever passes the turn installs the next carrier's state
before the switch, so the facts fork and wait read (scripted, current task,
trace scope, run) are always those of the carrier running.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

import greenlet

from reference_impl._thread_state import ThreadState, local

if TYPE_CHECKING:
    from reference_impl.schedules.policies import Task


class GreenletCarrier:
    """A stack of the run: ``run_next()`` names it to run next, ``pass_turn()`` switches."""

    __slots__ = ("carriers", "glet", "start", "thread_state")

    def __init__(
        self, carriers: Carriers, glet: greenlet.greenlet, thread_state: ThreadState
    ) -> None:
        self.carriers = carriers
        self.glet = glet
        self.thread_state = thread_state
        self.start: Task | None = None  # the task to start when an idle carrier runs

    def run_next(self) -> None:
        """This carrier runs when the task holding the turn next calls ``pass_turn()``."""
        self.carriers.next = self

    def pass_turn(self) -> None:
        """Switch to the carrier named to run next; return when this one is switched to again.

        With no carrier named (a run that stopped names nobody) it returns at
        once, as a woken thread would: the caller then sees that the run stopped.
        """
        carriers = self.carriers
        target, carriers.next = carriers.next, None
        if target is None or target is self:
            return
        local.state = target.thread_state
        glet = target.glet
        if not glet and not glet.dead:  # not started: start it shallow, from the spawner
            carriers.spawner.switch(target)
        else:
            glet.switch()


class Carriers:
    """The carriers of one run: made as needed, reused when idle, unwound at the end.

    Made on the caller's thread, whose current greenlet becomes the caller's
    carrier and the parent of every other: a carrier whose body ends (the run
    is over, or its bookkeeping failed) hands control back to the caller.
    """

    def __init__(self, life: Callable[[GreenletCarrier], None]) -> None:
        self._life = life  # a carrier's whole life (the run's)
        self.next: GreenletCarrier | None = None  # named to run at the next pass_turn()
        self.caller = GreenletCarrier(self, greenlet.getcurrent(), local.state)
        self.all: list[GreenletCarrier] = []
        self.idle: list[GreenletCarrier] = []  # their tasks all done, suspended until given one
        # A greenlet starts with the recursion depth of the frame that first switches to
        # it: carriers started from deep in a chain of waits would inherit that depth and
        # reach the recursion limit with a short stack of their own. The spawner, started
        # here on the caller's shallow stack, is the one that starts every carrier.
        self.spawner = greenlet.greenlet(self._spawn, self.caller.glet)
        self.spawner.switch()

    def take(self) -> GreenletCarrier:
        """An idle carrier, or a new one, to start a task on."""
        if self.idle:
            return self.idle.pop()
        parent = self.caller.glet
        carrier = GreenletCarrier(self, parent, ThreadState())  # its own greenlet, just below
        carrier.glet = greenlet.greenlet(functools.partial(self._body, carrier), parent)
        self.all.append(carrier)
        return carrier

    def _spawn(self) -> None:
        """Start each carrier it is given, at its own shallow depth; never returns."""
        target: GreenletCarrier = self.caller.glet.switch()  # primed: back to __init__
        while True:
            # a carrier that wants a new one started switches here, with it
            target = target.glet.switch()

    def _body(self, carrier: GreenletCarrier) -> None:
        try:
            self._life(carrier)
        finally:  # control returns to the caller's carrier, the parent
            local.state = self.caller.thread_state

    def stop(self) -> None:
        """Unwind every carrier still suspended (it sees the run over and ends).

        Called on the caller's carrier once every task is done, or the run
        stopped; each carrier's body then returns here, its parent. A suspended
        carrier has no task to start (the run's ``_carrier_life`` clears
        ``start`` as it takes one), so once resumed it ends.
        """
        for carrier in self.all:
            if carrier.glet:  # started and not dead: suspended in a pass_turn()
                local.state = carrier.thread_state
                carrier.glet.switch()
                local.state = self.caller.thread_state
        self.all.clear()
        self.idle.clear()
        self.next = None
        self.spawner.throw(greenlet.GreenletExit)  # it ends here, on its own thread
