"""Controlled schedules: a scripted call whose tasks take turns, in an order a name fixes.

Under a schedule every task still has its own thread, but only the thread that
holds the baton runs; the others sleep on the schedule's condition. The baton
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
from dataclasses import dataclass, field
from typing import Any

Policy = Callable[[int], int]


@dataclass(eq=False)
class Participant:
    """One thread of a scheduled call: the top-level caller or a task."""

    schedule: Schedule
    blocked_on: Any = None
    draining: bool = False
    finished: bool = False
    number: int = field(default=0)


class Schedule:
    """The baton of one top-level scripted call and every task it forks."""

    def __init__(self, policy: Policy) -> None:
        self._choose = policy
        self._cond = threading.Condition()
        self._members: list[Participant] = []
        self._running: Participant | None = None

    def start(self) -> Participant:
        """The calling thread joins as the first participant, holding the baton."""
        with self._cond:
            main = self._add()
            self._running = main
            return main

    def add(self) -> Participant:
        """A fork by the running participant: a new, ready participant."""
        with self._cond:
            return self._add()

    def _add(self) -> Participant:
        member = Participant(self, number=len(self._members))
        self._members.append(member)
        return member

    def await_turn(self, member: Participant) -> None:
        """Block until ``member`` holds the baton (a task's thread, before its body)."""
        with self._cond:
            self._cond.wait_for(lambda: self._running is member)

    def switch(self, member: Participant) -> None:
        """Give the baton to whichever ready participant the policy picks (maybe back)."""
        with self._cond:
            self._pass_on()
            self._cond.wait_for(lambda: self._running is member)

    def block_on(self, member: Participant, future: Any) -> None:
        """``member`` waits on ``future``: it runs again once the future is done and the
        policy picks it."""
        with self._cond:
            member.blocked_on = future
        future.add_done_callback(self._poke)
        with self._cond:
            self._pass_on()
            self._cond.wait_for(lambda: self._running is member)
            member.blocked_on = None

    def finish(self, member: Participant) -> None:
        """A task ended: it leaves, and the baton moves on."""
        with self._cond:
            member.finished = True
            self._pass_on()

    def drain(self, main: Participant) -> None:
        """The top-level call returns only once every task it forked has ended."""
        with self._cond:
            main.draining = True
            while not all(m.finished for m in self._members if m is not main):
                self._pass_on()
                self._cond.wait_for(lambda: self._running is main)
            main.finished = True
            self._running = None

    def _ready(self, member: Participant) -> bool:
        if member.finished:
            return False
        if member.draining:
            return all(m.finished for m in self._members if m is not member)
        return member.blocked_on is None or bool(member.blocked_on.done())

    def _pass_on(self) -> None:
        ready = [m for m in self._members if self._ready(m)]
        self._running = ready[self._choose(len(ready))] if ready else None
        self._cond.notify_all()

    def _poke(self, future: object) -> None:
        """A future completed, maybe by a thread outside the schedule: if nobody holds
        the baton, the waiter it frees may take it."""
        with self._cond:
            if self._running is None:
                self._pass_on()


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
