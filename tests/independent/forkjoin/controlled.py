"""A top-level scripted call run under a controlled schedule, one task at a time.

Each task of the call runs on a thread of its own (a *fiber*), but only the
fiber holding the baton runs; the caller's thread is the root fiber. The baton
moves only at a fork, at a wait on a future that is not done, and at a task's
end, to a fiber the schedule picks among those ready to run, so the order of
the tasks' steps depends on the schedule's name alone, never on the threads'
timing. Before the call returns or raises, every task it forked has ended.
"""

from __future__ import annotations

import contextvars
import random
import threading
from collections.abc import Callable
from typing import Any

from . import control_hooks
from .future import Future


class Policy:
    """Which of the ready fibers runs next: ``fifo``, ``lifo`` or ``random:SEED``."""

    def __init__(self, name: str) -> None:
        kind, _, seed = name.partition(":")
        if kind in ("fifo", "lifo") and not seed:
            self._random: random.Random | None = None
        elif kind == "random" and seed.isdigit():
            self._random = random.Random(int(seed))
        else:
            raise ValueError(
                f"unknown schedule {name!r}: the names are fifo, lifo and random:SEED "
                "(SEED a non-negative integer)"
            )
        self.kind = kind

    def pick(self, ready: int) -> int:
        """The index, among ``ready`` fibers in the order they became ready, to run."""
        if self._random is not None:
            return self._random.randrange(ready)
        return 0 if self.kind == "fifo" else ready - 1


class _Fiber:
    """A thread of a controlled call; it runs only while it holds the baton."""

    def __init__(self) -> None:
        self.go = threading.Lock()
        self.go.acquire()


class _Local(threading.local):
    fiber: _Fiber | None = None


_local = _Local()


class Controller:
    """The baton, the fibers ready to run, and the fibers still alive, of one call."""

    def __init__(self, policy: Policy) -> None:
        self._policy = policy
        self._lock = threading.Lock()
        self._ready: list[_Fiber] = []
        self._running: _Fiber | None = None
        self._alive = 0
        self._drainer: _Fiber | None = None
        self._fibers: set[_Fiber] = set()

    def owns_this_thread(self) -> bool:
        return _local.fiber in self._fibers

    # -- moving the baton -------------------------------------------------------------

    def _switch(self, current: _Fiber, *, still_ready: bool) -> None:
        """Give the baton to the fiber the policy picks; return once ``current`` has it."""
        with self._lock:
            if still_ready:
                self._ready.append(current)
            chosen = self._next()
        if chosen is current:
            return
        if chosen is not None:
            chosen.go.release()
        current.go.acquire()

    def _next(self) -> _Fiber | None:
        """Take the fiber that runs next, or None: nobody is ready (the caller holds the
        lock)."""
        chosen = self._ready.pop(self._policy.pick(len(self._ready))) if self._ready else None
        self._running = chosen
        return chosen

    def _make_ready(self, fiber: _Fiber) -> None:
        with self._lock:
            if self._running is None:  # nobody runs: the baton was waiting for this
                self._running = fiber
            else:
                self._ready.append(fiber)
                return
        fiber.go.release()

    # -- what fork and wait do under the schedule ------------------------------------

    def start(self, body: Callable[[], None], context: contextvars.Context) -> None:
        """A new fiber for ``body``; then the schedule picks who runs."""
        fiber = _Fiber()
        with self._lock:
            self._alive += 1
            self._fibers.add(fiber)
        thread = threading.Thread(target=self._fiber_main, args=(fiber, body, context), daemon=True)
        thread.start()
        current = _local.fiber
        assert current is not None
        self._make_ready(fiber)
        self._switch(current, still_ready=True)

    def _fiber_main(self, fiber: _Fiber, body: Callable[[], None], context: Any) -> None:
        fiber.go.acquire()
        _local.fiber = fiber
        try:
            context.run(body)
        finally:
            with self._lock:
                self._alive -= 1
                self._fibers.discard(fiber)
                drainer = self._drainer if self._alive == 0 else None
            if drainer is not None:
                self._make_ready(drainer)
            with self._lock:
                chosen = self._next()
            if chosen is not None:
                chosen.go.release()

    def switch_point(self) -> None:
        """Let the schedule pick who runs next, this fiber among the others."""
        current = _local.fiber
        assert current is not None
        self._switch(current, still_ready=True)

    def block_on(self, fut: Future[Any]) -> None:
        """Wait for ``fut`` while the other fibers run."""
        current = _local.fiber
        assert current is not None
        fut.add_done_callback(lambda _: self._make_ready(current))
        self._switch(current, still_ready=False)

    # -- the call ---------------------------------------------------------------------

    def run(self, call: Callable[[], Any]) -> Any:
        """Run ``call`` as the root fiber on this thread; its tasks end before it does."""
        root = _Fiber()
        previous = _local.fiber
        _local.fiber = root
        self._fibers.add(root)
        self._running = root
        token = control_hooks.active.set(self)
        try:
            try:
                return call()
            finally:
                self._drain(root)
        finally:
            control_hooks.active.reset(token)
            _local.fiber = previous

    def _drain(self, root: _Fiber) -> None:
        while True:
            with self._lock:
                if self._alive == 0:
                    return
                self._drainer = root
            self._switch(root, still_ready=False)
