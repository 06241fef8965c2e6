"""The pool under nesting, cycles, sizing, memory pressure and interpreter exit."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import textwrap
import threading
import time
import tracemalloc
from typing import Any

import pytest

import reference_impl as fw
from reference_impl._pool import get_pool

peak_threads = 0


def fib(n: int) -> int:
    global peak_threads
    peak_threads = max(peak_threads, threading.active_count())
    if n < 2:
        return n
    left, right = fw.fork(fib, n - 1), fw.fork(fib, n - 2)
    return fw.wait(left) + fw.wait(right)


def test_nested_fib_20_completes_with_a_bounded_pool_and_thread_count() -> None:
    global peak_threads
    baseline = threading.active_count()
    peak_threads = 0
    assert fw.script(fib)(20) == 6765
    pool = get_pool()
    assert pool.size == (os.cpu_count() or 1) or "FORKWAIT_NUM_THREADS" in os.environ
    # the main thread, whatever already ran, plus at most the pool's workers
    assert peak_threads <= baseline + pool.size
    assert pool.thread_count() <= pool.size


@pytest.mark.usefixtures("pool_size")
def test_nested_forks_never_deadlock_even_on_a_single_worker() -> None:
    fw.set_num_threads(1)
    wait_for_thread_count(1)
    assert fw.script(fib)(15) == 610
    assert get_pool().thread_count() <= 1


def wait_for_thread_count(expected: int) -> None:
    deadline = time.monotonic() + 10
    while get_pool().thread_count() > expected and time.monotonic() < deadline:
        time.sleep(0.01)
    assert get_pool().thread_count() == expected


@pytest.mark.usefixtures("pool_size")
def test_resizing_the_pool_grows_and_shrinks_it() -> None:
    fw.set_num_threads(3)
    barrier = threading.Barrier(4, timeout=10)

    @fw.script
    def four_together() -> list[int]:
        futures = [fw.fork(barrier.wait) for _ in range(3)]
        mine = barrier.wait()  # the caller is the fourth: three workers must run at once
        return sorted([mine, *(fw.wait(f) for f in futures)])

    assert four_together() == [0, 1, 2, 3]
    assert get_pool().thread_count() == 3
    fw.set_num_threads(1)
    wait_for_thread_count(1)
    assert fw.get_num_threads() == 1


@pytest.mark.parametrize("bad", [0, -1, 1.5, True])
def test_pool_size_must_be_a_positive_integer(bad: Any) -> None:
    with pytest.raises(ValueError, match="positive integer"):
        fw.set_num_threads(bad)


def run_python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **env},
        check=False,
    )


def test_pool_size_comes_from_the_environment() -> None:
    result = run_python(
        "import reference_impl as fw; print(fw.get_num_threads())", FORKWAIT_NUM_THREADS="5"
    )
    assert result.stdout.strip() == "5", result.stderr


def test_a_bad_environment_pool_size_is_a_clear_error() -> None:
    result = run_python(
        "import reference_impl as fw; fw.get_num_threads()", FORKWAIT_NUM_THREADS="many"
    )
    assert result.returncode != 0
    assert "FORKWAIT_NUM_THREADS must be a positive integer, got 'many'" in result.stderr


def test_interpreter_exit_runs_queued_tasks_on_non_daemon_workers_then_stops_them() -> None:
    result = run_python(
        """
        import atexit, time, threading, reference_impl as fw
        @fw.script
        def main():
            return [fw.fork(time.sleep, 0.01) for _ in range(20)]  # one worker: a queue
        futures = main()
        workers = [t for t in threading.enumerate() if t.name.startswith("forkwait-")]
        print(all(not t.daemon for t in workers), len(workers))
        atexit.register(lambda: print(sum(f.done() for f in futures)))
        """,
        FORKWAIT_NUM_THREADS="1",
    )
    assert result.returncode == 0, result.stderr
    # atexit handlers run after threading's exit hooks, the pool's among them
    assert result.stdout.split() == ["True", "1", "20"]


def test_a_task_waiting_on_its_own_future_is_a_deadlock_error() -> None:
    holder: list[fw.Future[object]] = []
    ready = threading.Event()

    def wait_on_self() -> Any:
        assert ready.wait(timeout=10)
        return fw.wait(holder[0])

    @fw.script
    def body() -> Any:
        future = fw.fork(wait_on_self)
        holder.append(future)
        ready.set()
        return future

    with pytest.raises(fw.DeadlockError, match="wait_on_self"):
        fw.wait(body())


def test_a_cycle_between_two_tasks_is_a_deadlock_error() -> None:
    futures: dict[str, fw.Future[object]] = {}
    ready = threading.Event()

    def first() -> Any:
        assert ready.wait(timeout=10)
        return fw.wait(futures["second"])

    def second() -> Any:
        assert ready.wait(timeout=10)
        return fw.wait(futures["first"])

    @fw.script
    def body() -> Any:
        futures["first"] = fw.fork(first)
        futures["second"] = fw.fork(second)
        ready.set()
        return futures["first"], futures["second"]

    outcomes = []
    for future in body():
        try:
            fw.wait(future)
            outcomes.append("ok")
        except fw.DeadlockError:
            outcomes.append("deadlock")
    # whichever closes the cycle fails; the other then gets its error as a result
    assert "deadlock" in outcomes


def test_a_cycle_through_an_inline_run_task_is_detected() -> None:
    futures: dict[str, fw.Future[object]] = {}

    def outer() -> Any:
        futures["inner"] = fw.fork(inner)
        return fw.wait(futures["inner"])  # runs inner inline if not started

    def inner() -> Any:
        deadline = time.monotonic() + 10
        while "outer" not in futures and time.monotonic() < deadline:
            time.sleep(0.001)
        return fw.wait(futures["outer"])

    @fw.script
    def body() -> Any:
        futures["outer"] = fw.fork(outer)
        return futures["outer"]

    with pytest.raises(fw.DeadlockError):
        fw.wait(body())


def test_a_hundred_thousand_forks_return_memory_to_baseline() -> None:
    def one(i: int) -> int:
        return i

    @fw.script
    def burst(n: int) -> int:
        total = 0
        for i in range(n):
            total += fw.wait(fw.fork(one, i))
        return total

    burst(1000)  # warm up lazily created state (pool, queue, caches)
    gc.collect()
    tracemalloc.start()
    try:
        baseline = tracemalloc.get_traced_memory()[0]
        assert burst(100_000) == sum(range(100_000))
        deadline = time.monotonic() + 10
        while get_pool().pending() and time.monotonic() < deadline:
            time.sleep(0.01)
        gc.collect()
        retained = tracemalloc.get_traced_memory()[0] - baseline
    finally:
        tracemalloc.stop()
    assert retained < 256 * 1024, f"{retained} bytes retained after 100,000 forks"


@pytest.mark.usefixtures("pool_size")
def test_a_three_task_cycle_on_the_pool_is_a_deadlock_error() -> None:
    """Each task waits on the next one's future, handed over through a promise."""

    def wait_on_promised(promise: fw.Future[fw.Future[Any]]) -> Any:
        return fw.wait(fw.wait(promise))

    @fw.script
    def body() -> list[Any]:
        promises: list[fw.Future[fw.Future[Any]]] = [fw.Future() for _ in range(3)]
        futures = [fw.fork(wait_on_promised, promises[(i + 1) % 3]) for i in range(3)]
        for promise, future in zip(promises, futures, strict=True):
            promise.set_result(future)
        outcomes: list[Any] = []
        for future in futures:
            try:
                outcomes.append(fw.wait(future))
            except fw.DeadlockError:
                outcomes.append("deadlock")
        return outcomes

    for size in (1, 2, 4):
        fw.set_num_threads(size)
        assert body() == ["deadlock"] * 3
