"""The executor's process: how it starts, what outlives it (nothing), how its end is told.

It starts from an interpreter command and an environment the harness owns
(``-P``: no working folder on ``sys.path``, where a ``code.py`` would shadow
the standard library; none of the variables that change how Python runs
code, such as ``PYTHONOPTIMIZE``, which strips ``assert``). It leads a
session of its own (``start_new_session``): whatever an example or the
adapter's import starts is in its process group, which the harness kills
after a crash, a hang and at the end of the run. Should the harness itself be
killed outright (SIGKILL), the executor dies with it (``PR_SET_PDEATHSIG``),
and a small watcher forked before the adapter is imported kills the whole
group as soon as the harness is gone. When it ends on its own, its crash
report says how (which signal, and whether the harness could have sent it,
or which exit status: ``os._exit(0)`` too) and shows the stacks faulthandler dumped.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from conformance.sphinx_doctest.capped import dropped_note

_PR_SET_PDEATHSIG = 1

#: variables that change how the interpreter runs the examples or what it prints besides
#: them: stripped from the executor's environment (the user's PYTHONPATH, PYTHONHOME,
#: PYTHONHASHSEED, PYTHONWARNINGS, PYTHONIOENCODING, PYTHONUTF8 and the like stay)
STRIPPED_VARIABLES = (
    "PYTHONOPTIMIZE",  # strips assert: a failing example would pass
    "PYTHONINSPECT",  # an interactive prompt at the end instead of an exit
    "PYTHONSTARTUP",  # code run at an interactive start
    "PYTHONDEBUG",  # the parser's debug output
    "PYTHONVERBOSE",  # a line on stderr per import
    "PYTHONDEVMODE",  # development mode: other warnings, debug hooks
    "PYTHONFAULTHANDLER",  # the executor arms faulthandler itself, into its dump file
    "PYTHONTRACEMALLOC",  # slows every allocation
    "PYTHONPROFILEIMPORTTIME",  # a line on stderr per import
    "PYTHONMALLOC",  # debug allocators
    "PYTHONMALLOCSTATS",  # statistics on stderr
    "PYTHONASYNCIODEBUG",  # asyncio's debug mode
    "PYTHONSAFEPATH",  # set by -P already
)
#: the executor's output files, in its folder
STREAMS = ("stdout", "stderr")
#: the exit status of an executor whose channel an example closed or replaced...
CHANNEL_EXIT = 87
#: ... and the file it writes first (in its folder), which an example's os._exit(87) lacks
CHANNEL_NOTE = "channel-broken"
#: signals a process raises on itself by faulting (a crash), as opposed to being sent
_FAULTS = {"SIGSEGV", "SIGBUS", "SIGFPE", "SIGILL", "SIGABRT", "SIGSYS", "SIGTRAP"}
_DUMP_LINES = 40
#: frames of the executor itself: a thread's stack is cut where they begin
_HARNESS_FRAMES = ("conformance/sphinx_doctest/", "conformance/executor/", "/doctest.py")


def command(module: str, config: str) -> list[str]:
    """The executor's command line: this interpreter, ``-P``, the module and its config."""
    return [sys.executable, "-P", "-m", module, config]


def environment(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The harness's environment without :data:`STRIPPED_VARIABLES`."""
    source = os.environ if environ is None else environ
    return {key: value for key, value in source.items() if key not in STRIPPED_VARIABLES}


def spawn(
    module: str, folder: Path, config: dict[str, Any]
) -> tuple[subprocess.Popen[bytes], int, int]:
    """Start ``module`` as an executor, leading a session of its own, with two pipe ends
    passed to it and its output appended to files in ``folder``; the process and the
    harness's ends (where the answers come in, where the requests go out)."""
    requests_read, requests_write = os.pipe()
    answers_read, answers_write = os.pipe()
    config = {
        **config,
        "requests": requests_read,
        "answers": answers_write,
        "harness": os.getpid(),
        "dump": str(folder / "dump.txt"),
        "channel_note": str(folder / CHANNEL_NOTE),
    }
    (folder / CHANNEL_NOTE).unlink(missing_ok=True)  # an earlier executor's
    for stream in STREAMS:  # appended to: the harness may empty them under the writers
        (folder / stream).write_bytes(b"")
    with (folder / "stdout").open("ab") as out, (folder / "stderr").open("ab") as err:
        process = subprocess.Popen(  # noqa: S603 - this interpreter, our module
            command(module, json.dumps(config)),
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            pass_fds=(requests_read, answers_write),
            start_new_session=True,
            env=environment(),
        )
    os.close(requests_read)
    os.close(answers_write)
    return process, answers_read, requests_write


def die_with_parent(parent: int) -> None:
    """SIGKILL this process when its parent ends (Linux); at once if it already has."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


def watch_harness(harness: int, keep: tuple[int, ...] = ()) -> None:
    """Fork a watcher that kills this process group once ``harness`` has ended."""
    try:
        handle = os.pidfd_open(harness)
    except (OSError, AttributeError):
        return  # no pidfd: die_with_parent still ends the executor itself
    if os.fork() != 0:
        os.close(handle)
        return
    try:  # the watcher: holds nothing of the executor's, waits, then ends the group
        for fd in keep:
            with contextlib.suppress(OSError):
                os.close(fd)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        select.select([handle], [], [])
        os.killpg(0, signal.SIGKILL)
    finally:
        os._exit(0)


#: seconds a dead run's folder stays (a pid seen from another pid namespace looks dead)
STALE_AFTER = 600.0
FOLDER_PREFIX = "forkwait-executor-"


def make_folder() -> Path:
    """This harness's folder, after removing those of runs killed outright: this user's,
    named after a harness that is gone, untouched for :data:`STALE_AFTER` seconds."""
    base = Path(tempfile.gettempdir())
    for stale in base.glob(f"{FOLDER_PREFIX}*-*"):
        pid, _, _ = stale.name.removeprefix(FOLDER_PREFIX).partition("-")
        with contextlib.suppress(OSError):
            about = stale.stat()
            idle = time.time() - about.st_mtime > STALE_AFTER
            if about.st_uid == os.getuid() and idle and pid.isdigit() and not _alive(int(pid)):
                shutil.rmtree(stale, ignore_errors=True)
    return Path(tempfile.mkdtemp(prefix=f"{FOLDER_PREFIX}{os.getpid()}-"))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


# -- what it printed, and how it ended -------------------------------------------------


def size_of(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def read_new(path: Path, start: int, cap: int) -> tuple[str, int]:
    """What was written to ``path`` from byte ``start`` on, decoded, and where it ends:
    past ``cap`` bytes only its head and its tail are read, with the count of what was
    cut, so that the harness holds at most ``cap`` of it whatever an example printed."""
    try:
        with path.open("rb") as file:
            end = os.fstat(file.fileno()).st_size
            start = min(start, end)  # truncated since
            size, half = end - start, cap // 2
            file.seek(start)
            if size <= cap:
                return file.read(size).decode("utf-8", "replace"), end
            head = file.read(half)
            file.seek(end - half)
            tail = file.read(half)
    except OSError:  # gone with its folder: nothing more to read from it
        return "", 0
    note = dropped_note(size - 2 * half, cap, "captured output")
    return head.decode("utf-8", "replace") + note + tail.decode("utf-8", "replace"), end


def crash_cause(returncode: int, channel_closed: bool, culprit: str = "the example") -> str:
    """How the executor ended on its own, in one line: by which signal, or which exit
    status (``channel_closed``: it said it ended because an example broke its channel),
    blamed on ``culprit`` (what it was running)."""
    if channel_closed and returncode == CHANNEL_EXIT:
        return (
            "the example closed or replaced the executor's channel, so it could not answer "
            f"(it exits with status {CHANNEL_EXIT} then)"
        )
    if returncode >= 0:  # os._exit(0) too: an executor never ends by itself mid-request
        return (
            f"{culprit} ended the executor process with os._exit({returncode}) "
            "(or an exit at the C level)"
        )
    try:
        name = signal.Signals(-returncode).name
    except ValueError:
        name = f"signal {-returncode}"
    if name not in _FAULTS:
        return (
            f"the executor was killed by {name}, which the harness did not send: sent "
            "by the example itself or from outside"
        )
    return f"{culprit} crashed the interpreter (killed by {name})"


#: what the harness did after a crash, said after its cause
AFTER_A_CRASH = "its executor process ended and a fresh one runs the next example"
#: ... and after a hang, or a channel the example broke
AFTER_ENDING_IT = "its executor process was ended"


def hang_cause(timeout: float) -> str:
    return (
        f"hung past --example-timeout ({timeout:g} s) where Python could not interrupt it "
        "(in C code holding the GIL, a stopped process, or an implementation that swallowed "
        "the timeout)"
    )


def still_running(threads: list[str]) -> str:
    """A note naming threads earlier examples left running, for a crash message."""
    if not threads:
        return ""
    return (
        "\nthreads alive when this example started (left by earlier examples, or the "
        "implementation's own; a crash in one of them is blamed on this example): "
        + ", ".join(threads)
    )


def trimmed_dump(text: str) -> str:
    """faulthandler's stacks, each thread's cut above the executor's frames, the example's
    thread first (at most _DUMP_LINES lines)."""
    blocks: list[list[str]] = []
    for line in text.strip().splitlines():
        if line.startswith(("Thread ", "Current thread ")) or not blocks:
            blocks.append([])
        blocks[-1].append(line)
    trimmed: list[tuple[bool, list[str]]] = []
    for block in blocks:
        harness = next(
            (i for i, line in enumerate(block) if any(h in line for h in _HARNESS_FRAMES)), -1
        )
        trimmed.append((harness >= 0, block[:harness] if harness >= 0 else block))
    trimmed.sort(key=lambda entry: not entry[0])  # stable: the example's thread first
    lines = [
        line
        for _, block in trimmed
        for line in block
        if line.strip() and not line.startswith("Fatal Python error")  # its cause says it
    ]
    return "\n".join(lines[:_DUMP_LINES])


__all__ = [
    "AFTER_A_CRASH",
    "AFTER_ENDING_IT",
    "CHANNEL_EXIT",
    "CHANNEL_NOTE",
    "STREAMS",
    "STRIPPED_VARIABLES",
    "command",
    "crash_cause",
    "die_with_parent",
    "environment",
    "hang_cause",
    "kill_group",
    "make_folder",
    "read_new",
    "size_of",
    "spawn",
    "still_running",
    "trimmed_dump",
    "watch_harness",
]
