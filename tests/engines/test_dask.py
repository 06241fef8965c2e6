"""forkwait on Dask: unit checks in-process, and the suite against a real multi-process cluster.

The in-process run of the whole suite is ``make conformance-dask``; here the
suite also runs against ``dask scheduler`` + ``dask worker`` processes on
127.0.0.1, where values really cross process boundaries, and must pass with
exactly the declared remote deviations.
"""

from __future__ import annotations

import contextvars
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

distributed = pytest.importorskip("distributed", reason="the dask extra is not installed")

import dask_impl as fw  # noqa: E402
from conformance.adapters.dask import (  # noqa: E402
    REMOTE_SKIPS_FILE,
    REMOTE_XFAILS_FILE,
    SKIPS_FILE,
    XFAILS_FILE,
)
from conformance.catalog.expectations import load_entries  # noqa: E402
from conformance.reports.json_report import read_report  # noqa: E402
from reference_impl import DeadlockError  # noqa: E402
from tests.paths import REPO  # noqa: E402

BIN = Path(sys.executable).parent
pytestmark = pytest.mark.timeout(900)  # starts a cluster and runs the whole suite on it


def fib(n: int) -> int:
    if n < 2:
        return n
    left, right = fw.fork(fib, n - 1), fw.fork(fib, n - 2)
    return fw.wait(left) + fw.wait(right)


def test_nested_forks_run_as_tasks_without_starving_the_workers() -> None:
    # 4 worker threads in all; a waiting task secedes, so depth beyond 4 still finishes
    assert fw.script(fib)(10) == 55


def test_exceptions_keep_their_type_and_surface_at_wait() -> None:
    def fails(key: str) -> int:
        raise KeyError(key)

    future = fw.script(lambda: fw.fork(fails, "k"))()
    with pytest.raises(KeyError, match="k"):
        fw.wait(future)
    with pytest.raises(KeyError, match="k"):
        fw.wait(future)


class Unpicklable(Exception):
    """An exception Dask could not pickle: its argument is a lock."""


def test_an_unpicklable_exception_reaches_wait_itself_with_its_chain() -> None:
    raised: list[BaseException] = []

    def fails() -> int:
        try:
            raise KeyError("cause")
        except KeyError:
            error = Unpicklable(threading.Lock())
            raised.append(error)
            raise error  # noqa: B904 - the implicit chain is the point

    future = fw.script(lambda: fw.fork(fails))()
    with pytest.raises(Unpicklable) as caught:
        fw.wait(future)
    assert caught.value is raised[0]
    assert isinstance(caught.value.__context__, KeyError)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("error", [KeyboardInterrupt, SystemExit, GeneratorExit])
def test_a_task_raising_a_base_exception_reaches_wait_and_the_cluster_survives(
    error: type[BaseException],
) -> None:
    def raises() -> int:
        raise error("from the task")

    future = fw.script(lambda: fw.fork(raises))()
    outcome: list[BaseException] = []

    def waiter() -> None:
        try:
            fw.wait(future)
        except BaseException as caught:  # noqa: BLE001 - the point of the test
            outcome.append(caught)

    thread = threading.Thread(target=waiter, daemon=True)  # a hang must not hang the suite
    thread.start()
    thread.join(30)
    assert outcome, "wait hung"
    assert type(outcome[0]) is error
    assert str(outcome[0]) == "from the task"
    assert fw.wait(fw.script(lambda: fw.fork(abs, -3))()) == 3  # the cluster still works


def in_a_thread(call: Callable[[], Any], seconds: float = 30) -> Any:
    """``call()``'s outcome, or a test failure if it hangs (a daemon thread keeps the hang)."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(("value", call()))
        except BaseException as caught:  # noqa: BLE001 - reported to the test
            outcome.append(("error", caught))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert outcome, "hung"
    return outcome[0]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("length", [1, 2, 3])
def test_a_cycle_of_waits_raises_in_the_wait_that_closes_it(length: int) -> None:
    """Task i waits on task i+1, the last on the first: one DeadlockError, the rest fail with it."""
    futures: list[fw.Future[int]] = []
    published = threading.Event()

    @fw.ignore
    def future_of(index: int) -> fw.Future[int]:
        assert published.wait(timeout=10)
        return futures[index % length]

    def member(index: int) -> int:
        return fw.wait(future_of(index + 1)) + 1

    @fw.script
    def cycle() -> list[str]:
        for index in range(length):
            futures.append(fw.fork(member, index))
        published.set()
        outcomes = []
        for future in futures:
            try:
                fw.wait(future)
                outcomes.append("value")
            except DeadlockError as error:
                outcomes.append(type(error).__name__)
        return outcomes

    kind, outcomes = in_a_thread(cycle)
    assert kind == "value", outcomes
    assert outcomes == ["DeadlockError"] * length
    assert fw.wait(fw.script(lambda: fw.fork(abs, -3))()) == 3  # the cluster still works


@pytest.mark.timeout(120)
def test_tasks_waiting_on_one_future_at_once_all_get_its_one_value() -> None:
    release = threading.Event()

    @fw.ignore
    def slow() -> list[int]:
        assert release.wait(timeout=10)
        return [1]

    def waits(future: fw.Future[list[int]]) -> list[int]:
        return fw.wait(future)

    @fw.script
    def run() -> list[list[int]]:
        shared = fw.fork(slow)
        waiters = [fw.fork(waits, shared) for _ in range(3)]
        release.set()
        return [fw.wait(w) for w in waiters] + [fw.wait(shared)]

    kind, values = in_a_thread(run)
    assert kind == "value", values
    assert values == [[1]] * 4
    assert all(value is values[0] for value in values)


VAR: contextvars.ContextVar[str] = contextvars.ContextVar("VAR", default="unset")


def read_var(x: int) -> str:
    return VAR.get()


def set_and_read(value: str) -> str:
    VAR.set(value)
    return VAR.get()


def relay(x: int) -> list[str]:
    VAR.set(f"task {x}")
    inner = fw.fork(read_var, x)
    VAR.set("changed after the fork")
    return [fw.wait(inner), fw.wait(fw.fork(set_and_read, "inner's")), VAR.get()]


@pytest.mark.parametrize("mode", ["plain", "script"])
def test_tasks_run_in_a_copy_of_the_callers_context_taken_at_the_fork(mode: str) -> None:
    def body() -> list[Any]:
        VAR.set("caller")
        first = fw.fork(read_var, 1)
        second = fw.fork(relay, 2)
        VAR.set("changed after the forks")
        changed = fw.wait(fw.fork(set_and_read, "task's"))
        return [fw.wait(first), fw.wait(second), changed, VAR.get()]

    run = fw.script(body) if mode == "script" else body
    expected = [
        "caller",
        ["task 2", "inner's", "changed after the fork"],
        "task's",
        "changed after the forks",
    ]
    assert contextvars.copy_context().run(run) == expected


def test_bad_input_is_a_clear_error() -> None:
    with pytest.raises(TypeError, match="callable"):
        fw.fork(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Future"):
        fw.wait(3)  # type: ignore[arg-type]


EXITING_PROGRAM = """
import os, time
import dask_impl as fw

@fw.ignore
def report(text: str) -> None:
    time.sleep(0.3)
    os.write(1, text.encode() + b"\\n")

def leaf(x: int) -> None:
    report(f"leaf {x}")

def branch(x: int) -> None:
    fw.fork(leaf, x)  # forked by a task, never waited on either
    report(f"branch {x}")

@fw.script
def start() -> None:
    for x in range(3):
        fw.fork(branch, x)

start()
os.write(1, b"main finished\\n")
"""


def test_unwaited_tasks_and_their_subtasks_finish_before_the_interpreter_exits() -> None:
    result = subprocess.run(
        [sys.executable, "-c", EXITING_PROGRAM],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert result.returncode == 0, result.stderr[-2000:]
    lines = result.stdout.splitlines()
    assert lines[0] == "main finished"
    expected = [f"branch {x}" for x in range(3)] + [f"leaf {x}" for x in range(3)]
    assert sorted(lines[1:]) == sorted(expected)
    assert "Traceback" not in result.stderr, result.stderr[-2000:]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def remote_cluster() -> Iterator[str]:
    """A scheduler and two worker processes on loopback, stopped afterwards."""
    address = f"tcp://127.0.0.1:{free_port()}"
    port = address.rsplit(":", 1)[1]
    scheduler = subprocess.Popen(
        [str(BIN / "dask"), "scheduler", "--host", "127.0.0.1", "--port", port, "--no-dashboard"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    worker = subprocess.Popen(
        [
            str(BIN / "dask"),
            "worker",
            address,
            "--nworkers",
            "2",
            "--nthreads",
            "2",
            "--no-dashboard",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        client = distributed.Client(address, timeout=60)
        client.wait_for_workers(2, timeout=60)
        client.close()
        yield address
    finally:
        for process in (worker, scheduler):
            process.terminate()
        for process in (worker, scheduler):
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()


def test_the_suite_on_a_multi_process_cluster_fails_only_the_shared_memory_requirements(
    remote_cluster: str, tmp_path: Path
) -> None:
    report = tmp_path / "remote.json"
    started = time.monotonic()
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "conformance.cli",
            "--impl",
            "dask",
            "-q",
            "--example-timeout",
            "20",
            "--report",
            str(report),
        ],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
        env={**os.environ, "FORKWAIT_DASK_SCHEDULER": remote_cluster},
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    records = read_report(report).requirements
    xfailed = {r.id for r in records if r.outcome == "xfailed"}
    assert xfailed == set(load_entries(REMOTE_XFAILS_FILE)) | set(load_entries(XFAILS_FILE))
    claimed = [r for r in records if r.profile in ("core", "async")]
    # a requirement is skipped when all its examples are: entries that name examples skip
    # those alone (the depth probes), and the requirement's other examples still run
    skips = {
        req_id
        for path in (SKIPS_FILE, REMOTE_SKIPS_FILE)
        for req_id, entry in load_entries(path).items()
        if entry.examples is None
    }
    # Dask gives no explorer: the rules that check one are skipped, saying so
    # (tests/suite/test_no_explorer.py holds which rules those are)
    skips |= {
        r.id
        for r in claimed
        if r.results and all(x.message.endswith("gives no explorer") for x in r.results)
    }
    assert {r.id for r in claimed if r.outcome == "skipped"} == skips
    assert {r.outcome for r in claimed} <= {"passed", "partly-checked", "xfailed", "skipped"}
    assert time.monotonic() - started < 600
