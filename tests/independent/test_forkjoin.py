"""What the fork/join runtime promises beyond the spec's examples: its architecture.

The conformance suite checks the spec's rules; these check the design choices
the rules leave open: a wait never runs a task on the waiting thread, queues
give the owner its newest task and a thief the oldest, spares leave once the
waits they stood in for end, cycles of waits raise, schedules replay.
"""

from __future__ import annotations

import contextvars
import threading
import time

import pytest

from tests.independent.forkjoin.deadlock import DeadlockError
from tests.independent.forkjoin.future import Future
from tests.independent.forkjoin.pool import Task, TaskQueue
from tests.independent.forkjoin.runtime import fork, the_pool, wait
from tests.independent.forkjoin.schedule import use
from tests.independent.forkjoin.scripted import script
from tests.independent.forkjoin.tensor import tensor
from tests.independent.forkjoin.tracing import trace


def test_a_wait_never_runs_the_task_on_the_waiting_thread() -> None:
    def ident() -> int:
        return threading.get_ident()

    def parent() -> tuple[int, int]:
        return threading.get_ident(), wait(fork(ident))

    waiter, runner = wait(fork(parent))
    assert waiter != runner
    assert wait(fork(ident)) != threading.get_ident()


def test_the_owner_takes_its_newest_task_and_a_thief_the_oldest() -> None:
    tasks = [Task(lambda: None, contextvars.copy_context()) for _ in range(4)]
    queue = TaskQueue()
    for task in tasks:
        queue.push(task)
    assert queue.pop_newest() is tasks[3]
    assert queue.take_oldest() is tasks[0]
    assert queue.remove(tasks[1])
    assert not queue.remove(tasks[1])
    assert tasks[1].home is None
    assert queue.pop_newest() is tasks[2]
    assert queue.pop_newest() is None


def test_a_deep_chain_runs_and_its_spares_leave() -> None:
    def chain(depth: int) -> int:
        return 0 if depth == 0 else wait(fork(chain, depth - 1)) + 1

    pool = the_pool()
    assert wait(fork(chain, 300)) == 300
    deadline = time.monotonic() + 10
    while pool.thread_count() > pool.parallelism and time.monotonic() < deadline:
        wait(fork(int))  # a task finishing lets an idle spare find nothing and leave
        time.sleep(0.01)
    assert pool.thread_count() <= pool.parallelism


@pytest.mark.parametrize("length", [1, 2, 3, 5])
def test_a_cycle_of_waits_of_any_length_raises(length: int) -> None:
    published: list[Future[int]] = []
    ready = threading.Event()

    def waits_on(index: int) -> int:
        ready.wait(5)
        return wait(published[index]) + 1

    futures = [fork(waits_on, (i + 1) % length) for i in range(length)]
    published.extend(futures)
    ready.set()
    for fut in futures:
        with pytest.raises(DeadlockError):
            wait(fut)


def _notes_under(name: str) -> list[str]:
    notes: list[str] = []

    def task(x: int) -> int:
        notes.append(f"start {x}")
        value = wait(fork(notes.append, f"sub {x}"))
        notes.append(f"end {x}")
        return 0 if value is None else 1

    @script
    def program(n: int) -> int:
        futures = [fork(task, i) for i in range(n)]
        return sum(wait(fut) for fut in futures)

    with use(name):
        assert program(4) == 0
    return notes


def test_a_schedule_replays_and_schedules_differ() -> None:
    assert _notes_under("random:3") == _notes_under("random:3")
    assert _notes_under("fifo") != _notes_under("lifo")
    with pytest.raises(ValueError, match="unknown schedule"):
        use("random:x")


def test_a_trace_reruns_forks_of_closures_on_new_inputs() -> None:
    def run(x: object) -> object:
        def scaled() -> object:
            return x * 3  # type: ignore[operator]

        return wait(fork(scaled)) - x  # type: ignore[operator]

    traced = trace(run, tensor([1, 2]))
    assert repr(traced(tensor([5, 7]))) == "tensor([10, 14])"
