"""Controlled schedules: a scripted call whose tasks take turns, in an order a name fixes.

Under a schedule every task still has its own thread, but only the thread that
holds the baton runs; the others sleep, each on a condition of its own. The baton
moves only at a fork, a wait and the end of a task, and the next holder is
chosen among the ready tasks (in the order they were forked) by the schedule's
policy, so a name gives the same interleaving on every run and in every process.

Names: ``fifo`` (the oldest ready task), ``lifo`` (the newest), ``random:SEED``.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import Any

Policy = Callable[[int], int]


@dataclass(eq=False)
class Participant:
    """One thread of a scheduled call: the top-level caller or a task."""

    schedule: Schedule
    #: this participant's own wake-up, on the schedule's lock: a move of the
    #: baton wakes its new holder alone
    turn: threading.Condition
    number: int
    blocked_on: Any = None


class Schedule:
    """The baton of one top-level scripted call and every task it forks.

    The ready participants are kept in the order they joined; a participant
    leaves that list while it waits on a future that is not done (the future's
    completion puts it back) and when its task ends.
    """

    def __init__(self, policy: Policy) -> None:
        self._choose = policy
        self._lock = threading.Lock()
        self._joined = 0
        self._ready: list[Participant] = []
        self._unfinished = 0
        self._running: Participant | None = None
        self._main: Participant | None = None

    def start(self) -> Participant:
        """The calling thread joins as the first participant, holding the baton."""
        with self._lock:
            main = self._main = self._join()
            self._running = main
            return main

    def add(self) -> Participant:
        """A fork by the running participant: a new, ready participant."""
        with self._lock:
            self._unfinished += 1
            return self._join()

    def _join(self) -> Participant:
        member = Participant(self, threading.Condition(self._lock), self._joined)
        self._joined += 1
        self._ready.append(member)
        return member

    def await_turn(self, member: Participant) -> None:
        """Block until ``member`` holds the baton (a task's thread, before its body)."""
        with self._lock:
            member.turn.wait_for(lambda: self._running is member)

    def switch(self, member: Participant) -> None:
        """Give the baton to whichever ready participant the policy picks (maybe back)."""
        with self._lock:
            self._pass_on()
            member.turn.wait_for(lambda: self._running is member)

    def block_on(self, member: Participant, future: Any) -> None:
        """``member`` waits on ``future``: it is ready again once the future is done, and
        runs when the policy picks it."""
        with self._lock:
            self._ready.remove(member)
            member.blocked_on = future

        def done(_: object) -> None:
            with self._lock:
                if member.blocked_on is future:
                    member.blocked_on = None
                    self._make_ready(member)

        future.add_done_callback(done)
        with self._lock:
            self._pass_on()
            member.turn.wait_for(lambda: self._running is member)

    def finish(self, member: Participant) -> None:
        """A task ended: it leaves, and the baton moves on."""
        with self._lock:
            self._ready.remove(member)
            self._unfinished -= 1
            main = self._main
            if self._unfinished == 0 and main is not None and main.blocked_on is self:
                main.blocked_on = None
                self._make_ready(main)
            self._pass_on()

    def drain(self, main: Participant) -> None:
        """The top-level call returns only once every task it forked has ended."""
        with self._lock:
            if self._unfinished > 0:
                self._ready.remove(main)
                main.blocked_on = self
                self._pass_on()
                main.turn.wait_for(lambda: self._running is main)
            self._running = None

    def _make_ready(self, member: Participant) -> None:
        """Back into the ready list, in joining order; takes the baton if nobody holds it
        (a future completed by a thread outside the schedule)."""
        index = len(self._ready)
        while index > 0 and self._ready[index - 1].number > member.number:
            index -= 1
        self._ready.insert(index, member)
        if self._running is None:
            self._pass_on()

    def _pass_on(self) -> None:
        ready = self._ready
        self._running = ready[self._choose(len(ready))] if ready else None
        if self._running is not None:
            self._running.turn.notify()


def parse(name: str) -> Callable[[], Policy]:
    """A factory of fresh policies for ``name`` (one per top-level call), or ValueError."""
    if name == "fifo":
        return lambda: lambda count: 0
    if name == "lifo":
        return lambda: lambda count: count - 1
    kind, _, seed = name.partition(":")
    if kind == "random" and seed.isdigit():

        def seeded() -> Policy:
            rng = random.Random(int(seed))  # an order, not a secret
            return rng.randrange

        return seeded
    raise ValueError(f"unknown schedule {name!r}: use fifo, lifo or random:SEED")


def schedule_names(count: int) -> list[str]:
    """``count`` distinct schedule names."""
    if count < 0:
        raise ValueError(f"a number of schedules cannot be negative: {count}")
    names = ["fifo", "lifo"] + [f"random:{seed}" for seed in range(1, count)]
    return names[:count]


_local = threading.local()


def _stack() -> list[Callable[[], Policy]]:
    stack: list[Callable[[], Policy]] | None = getattr(_local, "stack", None)
    if stack is None:
        stack = _local.stack = []
    return stack


@contextmanager
def _using(factory: Callable[[], Policy]) -> Iterator[None]:
    stack = _stack()
    stack.append(factory)
    try:
        yield
    finally:
        stack.pop()


def use_schedule(name: str) -> AbstractContextManager[None]:
    """A block inside which this thread's top-level scripted calls run under ``name``."""
    return _using(parse(name))


def chosen_policy() -> Callable[[], Policy] | None:
    """The innermost block's policy factory on this thread, if any."""
    stack = _stack()
    return stack[-1] if stack else None


def current_participant() -> Participant | None:
    member: Participant | None = getattr(_local, "member", None)
    return member


def set_participant(member: Participant | None) -> None:
    _local.member = member
