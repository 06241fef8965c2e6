"""No process outlives the run: the executor's session, and a watcher of the harness.

The executor leads a session of its own (``start_new_session``): whatever an
example or the adapter's import starts is in its process group, which the
harness kills after a crash, a hang and at the end of the run. Should the
harness itself be killed outright (SIGKILL), the executor dies with it
(``PR_SET_PDEATHSIG``), and a small watcher forked before the adapter is
imported kills the whole group as soon as the harness is gone.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import select
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

_PR_SET_PDEATHSIG = 1


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


__all__ = ["die_with_parent", "kill_group", "make_folder", "watch_harness"]
