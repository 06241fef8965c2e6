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
import signal
import sys

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


def kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


__all__ = ["die_with_parent", "kill_group", "watch_harness"]
