"""No task lost, no state corrupted: the runtime under faults.

Stack exhaustion inside the runtime's own bookkeeping, callables whose error
handling fails, BaseExceptions, interpreter exit, ``os.fork`` and absurd pool
sizes. Interpreter exit and ``os.fork`` are tested in a subprocess.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable
from typing import Any, NoReturn

import pytest

import reference_impl as fw
from reference_impl._pool import get_pool
from reference_impl._workers import MAX_NUM_THREADS

# -- item 5: every future ends done; wait never invents a result ----------------------


def stack_depth() -> int:
    frame, depth = sys._getframe(), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1  # type: ignore[assignment]
    return depth


def wait_until(condition: Callable[[], bool], seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True


def test_at_the_recursion_limit_no_future_stays_running_and_wait_invents_nothing() -> None:
    futures: list[fw.Future[str]] = []

    def chain(n: int) -> str:
        if n == 0:
            return "leaf"
        future = fw.fork(chain, n - 1)
        futures.append(future)
        return fw.wait(future)

    scripted = fw.script(chain)
    base = stack_depth()
    old_limit = sys.getrecursionlimit()
    # every limit hits the stack's end at a different point of fork/wait/run
    for extra in range(8, 60):
        try:
            sys.setrecursionlimit(base + extra)
            with contextlib.suppress(RecursionError):
                scripted(200)
        finally:
            sys.setrecursionlimit(old_limit)
    assert wait_until(lambda: all(f.done() for f in futures)), [
        repr(f) for f in futures if not f.done()
    ][:3]
    for future in futures:
        try:
            value = fw.wait(future)
        except RecursionError:
            continue
        assert value == "leaf", f"wait invented {value!r} for {future!r}"
    # nor did the pool lose count of its workers: all of them can still run at once
    assert fw.script(all_workers_at_once)() == list(range(fw.get_num_threads() + 1))


def all_workers_at_once() -> list[int]:
    """As many tasks as the pool has workers, meeting the caller at a barrier."""
    size = fw.get_num_threads()
    barrier = threading.Barrier(size + 1, timeout=5)
    futures = [fw.fork(barrier.wait) for _ in range(size)]
    mine = barrier.wait()
    return sorted([mine, *(fw.wait(future) for future in futures)])


# -- item 6: errors while handling a task's error ----------------------------------------


class Nameless:
    """A callable whose every attribute lookup fails, as some proxies' do."""

    def __getattr__(self, name: str) -> Any:
        raise KeyError(name)

    def __call__(self) -> NoReturn:
        raise ValueError("the task failed")


def test_in_plain_python_a_failing_callables_broken_getattr_surfaces_nothing_at_fork() -> None:
    future = fw.fork(Nameless())  # must not raise KeyError here
    with pytest.raises(ValueError, match="the task failed"):
        fw.wait(future)


def overlapping_pair() -> list[int]:
    """Two tasks that finish only if both run at the same time (a worker takes one)."""
    barrier = threading.Barrier(2, timeout=5)
    first, second = fw.fork(barrier.wait), fw.fork(barrier.wait)
    return sorted([fw.wait(first), fw.wait(second)])


def test_under_script_a_failing_callables_broken_getattr_kills_no_worker() -> None:
    assert fw.script(overlapping_pair)() == [0, 1]  # the pool is up
    before = get_pool().thread_count()

    @fw.script
    def forget() -> list[fw.Future[Any]]:
        return [fw.fork(Nameless()) for _ in range(2 * fw.get_num_threads())]

    futures = forget()
    assert wait_until(lambda: all(f.done() for f in futures), 5), "queued tasks never ran"
    for future in futures:
        with pytest.raises(ValueError, match="the task failed"):
            fw.wait(future)
    assert get_pool().thread_count() >= before
    assert fw.script(overlapping_pair)() == [0, 1]


class Poison:
    """Not a task: a queue entry whose run raises, as a bug in the runtime would."""

    def __init__(self) -> None:
        self._claim = [None]  # its claim token: a worker takes it

    def _run_if_pending(self) -> NoReturn:
        self._claim.pop()  # claimed: a dying worker has nothing to queue again
        raise RuntimeError("a worker dies here")


def test_a_dead_worker_is_replaced(monkeypatch: pytest.MonkeyPatch) -> None:
    died: list[BaseException | None] = []
    # each dying worker reports through threading.excepthook, perhaps after its last
    # task is gone: counted here, so that no report lands in a later test
    monkeypatch.setattr(threading, "excepthook", lambda args: died.append(args.exc_value))
    assert fw.script(overlapping_pair)() == [0, 1]
    pool = get_pool()
    before = pool.thread_count()
    for _ in range(before):
        pool.submit(Poison())  # type: ignore[arg-type]
    assert wait_until(lambda: pool.pending() == 0, 5)
    assert wait_until(lambda: len(died) == before, 5), f"{len(died)} of {before} workers died"
    assert all(isinstance(error, RuntimeError) for error in died)
    assert fw.script(overlapping_pair)() == [0, 1]
    assert wait_until(lambda: pool.thread_count() >= min(before, 2), 5)


# -- BaseExceptions reach wait, in plain Python and scripted code ---------------------------


@pytest.mark.parametrize("mode", ["plain", "script"])
@pytest.mark.parametrize("error", [KeyboardInterrupt, SystemExit, GeneratorExit])
def test_a_task_raising_a_base_exception_delivers_it_at_wait(
    mode: str, error: type[BaseException]
) -> None:
    def raises() -> NoReturn:
        raise error("from the task")

    def fork_many() -> list[fw.Future[Any]]:
        return [fw.fork(raises) for _ in range(4)]

    futures = (fw.script(fork_many) if mode == "script" else fork_many)()
    assert wait_until(lambda: all(f.done() for f in futures), 5)
    for future in futures:
        with pytest.raises(error, match="from the task"):
            fw.wait(future)
    assert fw.script(overlapping_pair)() == [0, 1]  # the workers survived


# -- items 7 and 8: interpreter exit and os.fork, in a subprocess --------------------------


def run_python(code: str, timeout: float = 60, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **env},
        check=False,
    )


def test_unwaited_forks_run_before_the_interpreter_exits_and_exit_stays_clean() -> None:
    result = run_python(
        """
        import sys, time, reference_impl as fw

        def child(i):
            print("child", i, flush=True)

        def task(i):
            time.sleep(0.005)
            fw.fork(child, i)               # forked while the interpreter shuts down
            print("task", i, flush=True)

        @fw.script
        def fire_and_forget():
            for i in range(20):
                fw.fork(task, i)

        fire_and_forget()
        print("main done", flush=True)
        """,
        FORKWAIT_NUM_THREADS="1",
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert sorted(line for line in lines if line.startswith("task")) == sorted(
        f"task {i}" for i in range(20)
    ), result.stdout
    assert len([line for line in lines if line.startswith("child")]) == 20, result.stdout
    assert result.stderr == ""


def test_a_forked_child_process_gets_workers_of_its_own() -> None:
    result = run_python(
        """
        import os, sys, threading, reference_impl as fw

        def pair():
            barrier = threading.Barrier(2, timeout=5)
            first, second = fw.fork(barrier.wait), fw.fork(barrier.wait)
            return sorted([fw.wait(first), fw.wait(second)])

        pair = fw.script(pair)
        assert pair() == [0, 1]             # the parent's workers are running
        pid = os.fork()
        if pid == 0:
            try:
                ok = pair() == [0, 1] and fw.get_num_threads() == 2
            except BaseException as error:
                print("child:", repr(error), flush=True)
                ok = False
            os._exit(0 if ok else 1)
        _, status = os.waitpid(pid, 0)
        print("child exit", os.waitstatus_to_exitcode(status))
        """,
        FORKWAIT_NUM_THREADS="2",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("child exit 0"), result.stdout + result.stderr


# -- item 10: pool sizes --------------------------------------------------------------------


@pytest.mark.parametrize("absurd", [10**30, MAX_NUM_THREADS + 1])
def test_an_absurd_pool_size_is_a_clear_error(absurd: int) -> None:
    with pytest.raises(ValueError, match=f"at most {MAX_NUM_THREADS}"):
        fw.set_num_threads(absurd)


def test_an_absurd_pool_size_from_the_environment_is_a_clear_error() -> None:
    result = run_python(
        "import reference_impl as fw; fw.get_num_threads()", FORKWAIT_NUM_THREADS=str(10**30)
    )
    assert result.returncode != 0
    assert f"FORKWAIT_NUM_THREADS must be at most {MAX_NUM_THREADS}" in result.stderr


@pytest.mark.usefixtures("pool_size")
def test_workers_start_as_work_needs_them_not_all_at_once() -> None:
    fw.set_num_threads(1)
    assert wait_until(lambda: get_pool().thread_count() <= 1)
    fw.set_num_threads(64)
    assert fw.get_num_threads() == 64

    @fw.script
    def one_at_a_time(n: int) -> int:
        return sum(fw.wait(fw.fork(abs, -i)) for i in range(n))

    assert one_at_a_time(200) == sum(range(200))
    assert get_pool().thread_count() <= 4
    # work that needs more workers gets them, up to the size
    barrier = threading.Barrier(6, timeout=5)

    @fw.script
    def six_together() -> list[int]:
        futures = [fw.fork(barrier.wait) for _ in range(6)]
        return sorted(fw.wait(f) for f in futures)

    assert six_together() == list(range(6))
    assert 5 <= get_pool().thread_count() <= 64
