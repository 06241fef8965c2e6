"""The machinery under every Future: how its task runs, how it completes, how waiters wait.

A future is of one :class:`Kind`, fixed when it is made: a scripted task, a
plain task or a promise (``Kind`` says who completes each).

A *task* (made by ``fork``) holds its function, its arguments and a copy of the
forking caller's ``contextvars`` context, in which it runs wherever it runs.
A plain task runs at once, inside ``fork``. A scripted task is claimed by
whoever first pops the one token of its ``_claim`` list (a pop is one atomic
step, and far cheaper than a lock per task): a pool worker, or a ``wait`` that
finds it not started and runs it inline on its own stack
(help-while-waiting), so nested waits never exhaust the pool. Whoever it is,
it runs the task through the one method that defines running a task,
``Core._run_if_pending``.

A *promise* (``Future()``, ``then``, ``collect_all``) has no function; it is
completed by ``set_result``/``set_exception`` or by the callback behind
``then``/``collect_all``. A promise made from other futures lists them as its
*sources* (in ``_args``): waiting on it first helps them along, as waiting on a
task does.

A waiter that must block (the task runs elsewhere, the promise is not complete)
blocks on the future's ``_waker``, a lock made by the first such waiter and
released by whoever completes the future: the completer sets the state to done
*then* reads ``_waker``, the waiter publishes ``_waker`` *then* reads the state,
so one of them always sees the other. Releasing it is one call, where running
the callbacks (``_callbacks``) is several: at the stack's limit a blocked waiter
is still woken. Before blocking, a waiter that is itself a task walks the "X
waits on Y" edges (a task's current wait, a promise's unfinished sources):
reaching itself means a cycle, reported as :class:`DeadlockError`.
"""

from __future__ import annotations

import enum
import os
import threading
from collections.abc import Callable
from contextvars import Context
from types import TracebackType
from typing import Any, Generic, TypeVar

from reference_impl import _callbacks, _pool
from reference_impl._errors import DeadlockError, UnretrievedGuard, describe_callable
from reference_impl._thread_state import ThreadState, local

T_co = TypeVar("T_co", covariant=True)

_PENDING = 0  # a task nobody has claimed; a promise not completed
_RUNNING = 1  # a task running; a promise being completed
_DONE = 2
_STATE_NAMES = ("pending", "running", "done")


class Kind(enum.Enum):
    """What a future is, fixed when it is made: who completes it, and how."""

    #: Forked by scripted code: queued for the pool, or for a controlled run. Whoever
    #: first pops its claim token runs it, as scripted code: a worker, a wait that finds
    #: it not started, the run.
    SCRIPTED_TASK = "scripted task"
    #: Forked by plain Python: ``fork`` runs it at once, as plain Python, before it
    #: returns. Nobody else can see it, so it has no claim token.
    PLAIN_TASK = "plain task"
    #: ``Future()``, ``then``, ``collect_all``: no function. Completed by ``set_result``,
    #: ``set_exception`` or a callback; its ``_args`` are its sources, which a wait helps.
    PROMISE = "promise"


# The kinds by a module name each: the hot paths compare ``_kind`` with a global, which
# costs a fraction of reading an Enum's attribute.
SCRIPTED_TASK, PLAIN_TASK, PROMISE = Kind

_NO_KWARGS: dict[str, Any] = {}  # shared, never changed: a done task's kwargs
_new = object.__new__
_Lock = threading.Lock

#: Tasks one thread runs nested on its own stack (a wait running the task it waits on, a
#: plain fork run at once) before the next one starts on a thread of its own, whose stack is
#: empty. Each level takes about six Python frames, so 40 stay well inside CPython's default
#: recursion limit of 1,000 frames: a chain of nested forks is never cut short by the
#: stack its first caller happened to have (NEST-LEVELS-1), only by how many threads run.
MAX_NESTED = 40

#: Guards the waiting-on edges while a waiter checks for a cycle and blocks.
_wait_graph_lock = _Lock()
#: Makes "is it done? then it is mine to complete" one step for set_result and friends,
#: and "no waker yet? then I make it" one step for blocking waiters.
_settle_lock = _Lock()


def _new_locks() -> None:
    """In a child made by ``os.fork``: a lock may have been held by a thread that is gone."""
    global _wait_graph_lock, _settle_lock
    _wait_graph_lock, _settle_lock = _Lock(), _Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_new_locks)


class Core(Generic[T_co]):
    """A future's state and the machinery behind it; :class:`Future` adds the public API."""

    __slots__ = (
        "_args",
        "_callbacks",
        "_claim",
        "_context",
        "_exception",
        "_func",
        "_guard",
        "_kind",
        "_kwargs",
        "_state",
        "_traceback",
        "_value",
        "_waiting_on",
        "_waker",
    )

    _kind: Kind
    _args: tuple[Any, ...]  # a task's arguments; a promise's sources
    _callbacks: list[_callbacks.Entry] | None  # made by the first callback added
    _claim: list[None] | None  # a scripted task's claim token, popped by its runner
    _context: Context | None  # the contextvars context a task runs in, until it has run
    _exception: BaseException | None
    _func: Callable[..., Any] | None  # a task's function, until it has run
    _guard: UnretrievedGuard | None  # set with _exception
    _kwargs: dict[str, Any]
    _state: int
    _traceback: TracebackType | None  # set with _exception
    _value: Any  # set on success
    _waiting_on: Core[Any] | None  # what this task (or callback) is blocked on now
    _waker: threading.Lock | None  # made by the first waiter that must block

    # -- running a task: the one definition, for every path --------------------

    def _run_if_pending(self, thread: ThreadState | None = None) -> bool:
        """Run the task on this thread unless someone claimed it first; True if it ran here.

        Every task runs here: on a pool worker, in a ``wait`` that finds it not
        started (help-while-waiting), in a controlled run, and a plain task at
        once (nobody else can see it: it has nothing to claim, and it runs as
        plain Python). ``thread`` is this thread's state.

        The claim is the first step, so a call that cannot even start (a
        RecursionError at the stack's limit) leaves the task pending for
        someone else. Everything after it sits inside the ``try``: whatever is
        raised, even by this bookkeeping, the future ends done with a value or
        an exception, never "running" with nobody running it.
        """
        if thread is None:
            thread = local.state
        scripted_task = self._kind is SCRIPTED_TASK
        if scripted_task:
            try:
                self._claim.pop()  # type: ignore[union-attr]
            except IndexError:  # claimed a moment ago by another thread
                return False
        func = self._func
        caller = thread.current  # the task this thread was running waits on this one now
        try:
            if caller is not None:
                caller._waiting_on = self  # for cycle checks
            self._state = _RUNNING
            scripted = thread.scripted
            try:
                thread.current = self
                thread.scripted = scripted_task
                thread.depth += 1
                self._value = self._context.run(func, *self._args, **self._kwargs)  # type: ignore[union-attr, arg-type]
            finally:
                thread.current = caller
                thread.scripted = scripted
                thread.depth -= 1
        except BaseException as exc:  # noqa: BLE001 - every failure belongs to wait()
            self._exception = exc
            self._traceback = exc.__traceback__
            self._guard = None
            # Only the GC warning can be lost below; the outcome is already kept.
            try:  # noqa: SIM105 - suppress() would be two more calls at the stack limit
                self._guard = UnretrievedGuard(exc, describe_callable(func))
            except BaseException:  # noqa: BLE001, S110
                pass
        finally:
            # Drop references early: a done future keeps only its outcome. Stores
            # only, and one C call: nothing here can fail at the stack's limit.
            self._func, self._args, self._kwargs, self._context = None, (), _NO_KWARGS, None
            if caller is not None:
                caller._waiting_on = None
            self._state = _DONE
            waker = self._waker
            if waker is not None:
                waker.release()
        if self._callbacks is not None:
            _callbacks.run_all(self)
        return True

    def _fail_if_pending(self, exception: BaseException) -> None:
        """Complete with ``exception`` a scripted task that will never run (its run stopped)."""
        if self._state != _PENDING:
            return
        try:
            self._claim.pop()  # type: ignore[union-attr]
        except IndexError:
            return
        self._func, self._args, self._kwargs, self._context = None, (), _NO_KWARGS, None
        self._end(None, exception)

    # -- completing a promise ------------------------------------------------------

    def _settle(self, value: Any, exception: BaseException | None) -> bool:
        """Complete this promise; False if it is done already, or is a task's future."""
        with _settle_lock:
            if self._kind is not PROMISE or self._state != _PENDING:
                return False
            self._state = _RUNNING
        self._end(value, exception)
        return True

    def _end(self, value: Any, exception: BaseException | None) -> None:
        """Keep the outcome (a failure here is never warned of), wake waiters, run callbacks."""
        if exception is None:
            self._value = value
        else:
            self._exception, self._traceback, self._guard = exception, exception.__traceback__, None
        self._state = _DONE
        if self._waker is not None:  # made once, never replaced
            self._waker.release()
        if self._callbacks is not None:
            _callbacks.run_all(self)

    # -- waiting ---------------------------------------------------------------

    def _wait_until_done(self, thread: ThreadState | None = None) -> None:
        """Return once done, running it here if it is a scripted task nobody has started."""
        if self._state == _DONE:
            return
        if thread is None:
            thread = local.state
        if self._kind is SCRIPTED_TASK and self._state == _PENDING:
            if thread.depth >= MAX_NESTED:
                self.run_elsewhere()
            elif self._run_if_pending(thread):
                pool = _pool.current()
                if pool is not None:
                    pool.forget(self)
                return
        self._wait_for_others(thread)

    def run_elsewhere(self) -> threading.Thread | None:
        """Start a thread of its own that runs this task unless someone claims it first.

        For a waiter whose stack holds ``MAX_NESTED`` tasks already: it blocks
        instead, and the new thread starts on an empty stack. No thread to be
        had (the system's limit): None, and the task waits for the pool.
        """
        try:
            thread = threading.Thread(target=self._run_if_pending, name="forkwait-nested")
            thread.start()
        except RuntimeError:  # can't start new thread
            return None
        return thread

    def _help(self, thread: ThreadState) -> None:
        """Run what nobody has started of this future (a promise: of its sources); never block."""
        if self._state == _DONE:
            return
        kind = self._kind
        if kind is PROMISE:
            for source in self._args:
                if self._state == _DONE:
                    return  # e.g. wait_all's gate, at the first failure
                source._help(thread)
        elif kind is SCRIPTED_TASK:  # run it if nobody has started it
            if thread.depth < MAX_NESTED:
                self._run_if_pending(thread)
            else:
                self.run_elsewhere()

    def _wait_for_others(self, thread: ThreadState) -> None:
        """Someone else runs it, or it is a promise: help its sources, then block."""
        if self._kind is PROMISE:
            self._help(thread)
        with _settle_lock:
            waker = self._waker
            if waker is None:
                if self._state == _DONE:
                    return
                waker = _Lock()
                waker.acquire()  # released by the completer
                self._waker = waker
        if self._state == _DONE:  # completed before it could see the waker: no release
            return
        current = thread.current
        if current is None:  # not a task: nothing can wait on this thread
            waker.acquire()
            waker.release()  # for the next waiter
            return
        with _wait_graph_lock:
            if self._reaches(current):
                raise DeadlockError(
                    f"deadlock: task {_describe(current)} waits on a future that "
                    "(directly or through other tasks) waits on it"
                )
            current._waiting_on = self
        try:
            waker.acquire()
            waker.release()  # for the next waiter
        finally:
            current._waiting_on = None

    def _reaches(self, target: Core[Any]) -> bool:
        """Does what this future waits on (its wait, its sources, theirs...) include ``target``?"""
        stack: list[Core[Any]] = [self]
        seen: set[int] = set()
        while stack:
            node = stack.pop()
            if node is target:
                return True
            if node._state == _DONE or id(node) in seen:
                continue
            seen.add(id(node))
            if node._waiting_on is not None:
                stack.append(node._waiting_on)
            if node._kind is PROMISE:
                stack.extend(node._args)
        return False

    def done(self) -> bool:
        """True once it has a value or an exception."""
        return self._state == _DONE

    def _outcome(self) -> T_co:
        exception = self._exception
        if exception is None:
            return self._value  # type: ignore[no-any-return]
        if self._guard is not None:
            self._guard.retrieved = True
        raise exception.with_traceback(self._traceback)


def _describe(future: Core[Any]) -> str:
    return "a then() callback" if future._kind is PROMISE else describe_callable(future._func)
