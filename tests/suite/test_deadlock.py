"""A deadlocked example fails early as a deadlock, with its stacks; a waiting one never does.

Each run goes through ``forkwait-conformance`` on a small spec with a deadline
(``--example-timeout``) far longer than the detector's quiet window, so that a
deadlock told before it is the detector's, and every example that waits in a
way something could end (a timeout, a timer thread, a loop's timer, a child
process) runs past that window and must still pass.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path

import pytest

from conformance.executor.deadlock import QUIET_FOR, untimed_wait
from conformance.reports import drafts
from conformance.reports.json_report import RunReport, read_report
from tests.paths import REPO

#: the deadline: a deadlock must be told well before it
DEADLINE = 40.0
#: how long each waiting example waits: past the detector's quiet window
WAITS = QUIET_FOR + 1.5

HEADER = "Waits\n=====\n"

EXAMPLES = {
    # the main thread waits on a lock it holds
    "DEADLOCK-LOCK-1": "import threading\nlock = threading.Lock()\nlock.acquire()\nlock.acquire()",
    # the asyncio engine's: an idle loop in its thread, the caller on a future it never sets
    "DEADLOCK-LOOP-1": (
        "import asyncio, threading\nloop = asyncio.new_event_loop()\n"
        "threading.Thread(target=loop.run_forever, daemon=True).start()\n"
        "async def never():\n    await loop.create_future()\n"
        "asyncio.run_coroutine_threadsafe(never(), loop).result()"
    ),
    # nested waits past a pool of two threads (what the asyncio engine's nested forks do)
    "DEADLOCK-POOL-1": (
        "import concurrent.futures\npool = concurrent.futures.ThreadPoolExecutor(2)\n"
        "def outer(n):\n    return pool.submit(outer, n - 1).result() if n else 0\n"
        "print(pool.submit(outer, 3).result())"
    ),
    "WAIT-TIMED-1": f"import threading\nprint(threading.Event().wait({WAITS}))",
    "WAIT-SLEEP-1": f"import time\ntime.sleep({WAITS})\nprint('slept')",
    "WAIT-TIMER-1": (
        f"import threading\ndone = threading.Event()\nthreading.Timer({WAITS}, done.set).start()\n"
        "print(done.wait())"
    ),
    "WAIT-BARRIER-1": (
        f"import threading\nbarrier = threading.Barrier(2, timeout={WAITS})\n"
        "try:\n    barrier.wait()\nexcept threading.BrokenBarrierError:\n    print('broken')"
    ),
    "WAIT-LOOP-TIMER-1": (
        "import asyncio, threading\nloop = asyncio.new_event_loop()\n"
        "threading.Thread(target=loop.run_forever, daemon=True).start()\n"
        f"async def later():\n    await asyncio.sleep({WAITS})\n    return 'woke'\n"
        "print(asyncio.run_coroutine_threadsafe(later(), loop).result())"
    ),
    "WAIT-CHILD-1": (
        f"import subprocess, sys\nsubprocess.run([sys.executable, '-c', "
        f"'import time; time.sleep({WAITS})'], check=True)\nprint('child done')"
    ),
    "WAIT-CHILD-PIPE-1": (
        f"import subprocess, sys\nprint(subprocess.run([sys.executable, '-c', "
        f"'import time; time.sleep({WAITS}); print(7)'], capture_output=True, text=True)"
        ".stdout.strip())"
    ),
}
OUTPUTS = {
    "WAIT-TIMED-1": "False",
    "WAIT-SLEEP-1": "slept",
    "WAIT-TIMER-1": "True",
    "WAIT-BARRIER-1": "broken",
    "WAIT-LOOP-TIMER-1": "woke",
    "WAIT-CHILD-1": "child done",
    "WAIT-CHILD-PIPE-1": "7",
}


def write_spec(folder: Path, rules: Iterable[str] = EXAMPLES) -> Path:
    parts = [HEADER]
    for rule in rules:
        code = EXAMPLES[rule]
        parts.append(
            f".. requirement:: {rule}\n   :profile: core\n   :level: MUST\n\n   Waits.\n\n"
            ".. testcode::\n\n" + "\n".join(f"   {line}" for line in code.splitlines()) + "\n"
        )
        if rule in OUTPUTS:
            parts.append(f".. testoutput::\n\n   {OUTPUTS[rule]}\n")
    (folder / "waits.rst").write_text("\n".join(parts), encoding="utf-8")
    return folder


def run_suite(
    folder: Path, *args: str, deadline: float = DEADLINE
) -> tuple[subprocess.CompletedProcess[str], RunReport, float]:
    report = folder / "report.json"
    began = time.monotonic()
    result = subprocess.run(
        [
            sys.executable, "-m", "conformance.cli", "--spec-root", str(folder),
            "--example-timeout", f"{deadline:g}", "--report", str(report), *args,
        ],
        capture_output=True, text=True, timeout=600, check=False, cwd=REPO,
    )  # fmt: skip
    return result, read_report(report), time.monotonic() - began


@pytest.fixture(scope="module")
def run(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[subprocess.CompletedProcess[str], RunReport, float]:
    return run_suite(write_spec(tmp_path_factory.mktemp("waits")))


Run = tuple[subprocess.CompletedProcess[str], RunReport, float]


@pytest.mark.parametrize("rule", [r for r in EXAMPLES if r.startswith("DEADLOCK-")])
def test_a_deadlock_fails_early_as_a_deadlock_with_its_stacks(rule: str, run: Run) -> None:
    result, report, _ = run
    requirement = report.by_id()[rule]
    (record,) = requirement.results
    assert (record.outcome, record.kind) == ("failed", "deadlock"), result.stdout
    assert record.cause.startswith("deadlocked: every thread of its process ("), record.cause
    assert "threads at that moment:" in record.message
    assert "waits.rst" in record.message  # the stacks reach the example's own line
    assert requirement.duration < DEADLINE / 2, requirement.duration


@pytest.mark.parametrize("rule", [r for r in EXAMPLES if r.startswith("WAIT-")])
def test_a_wait_something_can_end_is_not_a_deadlock(rule: str, run: Run) -> None:
    result, report, _ = run
    assert report.by_id()[rule].outcome == "passed", result.stdout


def test_deadlocks_cost_seconds_and_are_drafted_as_skips(run: Run) -> None:
    result, report, wall = run
    deadlocks = [r for r in EXAMPLES if r.startswith("DEADLOCK-")]
    waits = len(EXAMPLES) - len(deadlocks)
    # each wait runs WAITS seconds; each deadlock its quiet window and a little
    assert wall < waits * WAITS + len(deadlocks) * DEADLINE / 2, result.stdout
    skipped = {draft.requirement.id for draft in drafts.drafts(report)[drafts.SKIPS]}
    assert skipped == set(deadlocks)


def test_without_detection_a_deadlock_waits_for_its_deadline(tmp_path: Path) -> None:
    deadline = QUIET_FOR + 3
    folder = write_spec(tmp_path, ["DEADLOCK-LOCK-1"])
    result, report, _ = run_suite(folder, "--no-deadlock-detection", deadline=deadline)
    (record,) = report.by_id()["DEADLOCK-LOCK-1"].results
    assert (record.outcome, record.kind) == ("failed", "timeout"), result.stdout
    assert report.by_id()["DEADLOCK-LOCK-1"].duration >= deadline


# what Linux says a thread of this machine's Python waits in (x86-64), as read in /proc
UNTIMED_LOCK = "202 0x558edf7bc300 0x189 0x0 0x0 0x0 0xffffffff 0x7ffdd3927b60 0x7f1673ca3f16"
TIMED_LOCK = "202 0x7f1668000ba0 0x89 0x0 0x7f1671bfc960 0x0 0xffffffff 0x7f1671bfc8b0 0x7f16"
SHARED_LOCK = "202 0x558edf7bc300 0x9 0x0 0x0 0x0 0xffffffff 0x7ffdd3927b60 0x7f1673ca3f16"
SLEEP = "230 0x1 0x1 0x7f16713fbc40 0x0 0x0 0x7f167434e6e8 0x7f16713fbc00 0x7f1673ced545"
EPOLL_TIMED = "232 0x3 0x7f1673a6c940 0x1 0x3e8 0x0 0x7f167434e6e8 0x7f16723fd9a0 0x7f1673d26f36"


@pytest.mark.parametrize(
    ("line", "untimed"),
    [
        (UNTIMED_LOCK, True),
        (TIMED_LOCK, False),  # Lock.acquire(timeout=...), Event.wait(timeout)
        (SHARED_LOCK, False),  # another process may wake it
        (SLEEP, False),
        (EPOLL_TIMED, False),  # a loop with a timer scheduled
        ("running", False),
        ("-1 0x7ffdd3927b60 0x7f1673ca3f16", False),  # blocked outside any syscall
    ],
)
def test_only_an_untimed_private_wait_counts_as_stuck(line: str, untimed: bool) -> None:

    assert (untimed_wait(0, line, "x86_64") is not None) == untimed
