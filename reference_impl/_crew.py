"""The threads of a controlled run, its crew of carriers, and the baton they pass."""

from __future__ import annotations

import contextlib
import functools
import os
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from reference_impl._policies import Task

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

    def wake_if_waiting(self) -> None:
        """Wake it, whether or not it sleeps now (when a run stops: it must not sleep on)."""
        with contextlib.suppress(RuntimeError, OSError):  # a lock released already
            self.wake()


class Crew:
    """The carriers of one run: started as needed, reused when idle, stopped at the end."""

    def __init__(self, carry: Callable[[Carrier], None]) -> None:
        self._carry = carry  # a carrier thread's whole life (the run's)
        self.all: list[Carrier] = []
        self.idle: list[Carrier] = []  # their tasks all done, asleep until given another

    def take(self) -> Carrier:
        """An idle carrier, or a new one, to start a task on."""
        if self.idle:
            return self.idle.pop()
        carrier = Carrier(eventfd=len(self.all) < EVENTFD_CARRIERS)
        carrier.thread = threading.Thread(
            target=self._carry,
            args=(carrier,),
            name=f"forkwait-scheduled-{len(self.all) + 1}",
            daemon=True,
        )
        self.all.append(carrier)
        carrier.thread.start()
        return carrier

    def wake_all(self) -> None:
        for carrier in self.all:
            carrier.wake_if_waiting()

    def stop(self, caller: Carrier, *, stopped: bool) -> None:
        """Stop every carrier and close every baton (``caller``'s too).

        Once every task is done every carrier is idle: it is told to exit. If
        the run ``stopped``, every carrier was woken and exits, unless a task
        is stuck in a wait of its own: such a thread is given ten seconds, and
        if it is still alive no baton is closed (it might still write one, and
        the fd could be reused by then).
        """
        if stopped:
            carriers = self.all
            caller.wake_if_waiting()
        else:
            carriers = self.idle
            for carrier in carriers:
                carrier.start = None
                carrier.wake()
        joined = True
        for carrier in carriers:
            assert carrier.thread is not None
            carrier.thread.join(10 if stopped else None)
            joined = joined and not carrier.thread.is_alive()
        if joined:
            for carrier in (*carriers, caller):
                carrier.close()
        self.idle.clear()
