"""What the conformance suite cannot see of threadper: its own mechanisms.

The suite checks threadper against the spec (``forkwait-conformance --impl
tests.independent.threadper:adapter``); these check the parts chosen for a
thread per task: the slot handed to the newest waiter, the keeper that holds
the interpreter open for daemon task threads, and the schedule names.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from tests.independent.threadper import schedules
from tests.independent.threadper.slots import _NewestFirstSemaphore

ROOT = Path(__file__).resolve().parents[2]


def _queued(semaphore: _NewestFirstSemaphore, count: int) -> None:
    deadline = time.monotonic() + 5
    while len(semaphore._waiters) < count:
        assert time.monotonic() < deadline, "a waiter never queued"
        time.sleep(0.001)


def test_a_freed_slot_goes_to_the_newest_waiter() -> None:
    semaphore = _NewestFirstSemaphore(1)
    semaphore.acquire()
    order: list[str] = []

    def take(name: str) -> None:
        semaphore.acquire()
        order.append(name)
        semaphore.release()

    older = threading.Thread(target=take, args=("older",))
    older.start()
    _queued(semaphore, 1)
    newer = threading.Thread(target=take, args=("newer",))
    newer.start()
    _queued(semaphore, 2)
    semaphore.release()
    older.join(5)
    newer.join(5)
    assert order == ["newer", "older"]


def test_the_interpreter_waits_for_a_plain_fork_never_waited() -> None:
    program = textwrap.dedent(
        """
        import os, time
        import tests.independent.threadper as fw

        def slow() -> None:
            time.sleep(0.3)
            os.write(1, b"task finished\\n")

        fw.fork(slow)
        os.write(1, b"main finished\\n")
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", program],
        capture_output=True,
        text=True,
        timeout=30,
        cwd=ROOT,
        check=False,
    )
    assert (done.stdout.splitlines(), done.returncode) == (
        ["main finished", "task finished"],
        0,
    ), done.stderr


def test_schedule_names_are_distinct_and_parse() -> None:
    names = schedules.schedule_names(64)
    assert len(set(names)) == 64
    for name in names:
        schedules.parse(name)


@pytest.mark.parametrize("name", ["", "random", "random:x", "pct:1:3", "FIFO"])
def test_an_unknown_schedule_is_refused_when_used(name: str) -> None:
    with pytest.raises(ValueError, match="unknown schedule"):
        schedules.use_schedule(name)
