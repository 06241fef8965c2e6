"""The controller's watch over its workers: a deadline no worker can disarm, no process left.

The deadlines of isolation.py live in the worker they guard, so a worker can
disarm them: an example that stops its own process (``SIGSTOP``), or an
implementation that cancels faulthandler's timer and blocks ``SIGALRM``,
would hang the run forever. So each worker also tells the controller, in a
small *beacon* file in the run's watchdog folder, which example it started,
when it must be over, and its process id; a thread of the controller kills
the worker (its whole process group) once that time is past, and xdist
replaces it. The example then fails as a hang.

Each worker leads a process group of its own, so that what an example
started (``subprocess.Popen(["sleep", "60"])``) is killed with the group
when the worker ends, crashes or is killed; a terminal's Ctrl-C then reaches
the controller only, which stops the workers itself. On Linux a worker also
dies with its controller (``PR_SET_PDEATHSIG``), should the controller be
killed outright.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: seconds between two looks of the controller at its workers' beacons
POLL_INTERVAL = 0.2
FOLDER_PREFIX = "forkwait-watchdog-"
#: seconds a dead run's folder stays (a pid seen from another pid namespace looks dead)
STALE_AFTER = 600.0
#: key of xdist's workerinput holding the folder
WORKERINPUT_KEY = "forkwait_watchdog_dir"
_PR_SET_PDEATHSIG = 1


@dataclass(frozen=True)
class Beacon:
    """What a worker runs now, as the controller reads it."""

    pid: int
    nodeid: str
    #: time.monotonic() after which the controller kills the worker (None: never)
    deadline: float | None
    #: seconds the example may take in all, for the message
    allowed: float
    #: threads alive when the example started, left by earlier examples
    threads: tuple[str, ...]


def make_folder() -> Path:
    """The run's folder, after removing those of earlier runs killed outright: this
    user's, named after a controller that is gone, untouched for :data:`STALE_AFTER`."""
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
        return True  # someone else's process: not ours to judge
    return True


# -- worker ------------------------------------------------------------------------


def record_setup_error(workerinput: Mapping[str, Any], error: BaseException) -> None:
    """A worker that cannot set up (its adapter fails to load there) leaves the
    traceback for the controller, which stops the run with it (rather than replace the
    worker again and again)."""
    folder = workerinput.get(WORKERINPUT_KEY)
    if folder:
        cause = error.__cause__
        text = str(error) + "\n"
        if cause is not None:  # the adapter's own traceback, without the suite's frames
            text += "\n" + "".join(traceback.format_exception(cause))
        with contextlib.suppress(OSError):
            Path(folder, f"{workerinput['workerid']}.setup-error").write_text(text, "utf-8")


class WorkerSide:
    """A worker's half: its own process group, and the beacon it keeps."""

    def __init__(self, folder: Path, worker: str) -> None:
        self.path = folder / f"{worker}.beacon"
        self.pid = os.getpid()
        with contextlib.suppress(OSError):
            os.setpgid(0, 0)  # fails if already a group leader: then it already is one
        if hasattr(signal, "SIGTTOU"):  # out of the terminal's foreground group, writing
            signal.signal(signal.SIGTTOU, signal.SIG_IGN)  # to it must not stop the worker
        _die_with_parent()
        (folder / f"{worker}.pid").write_text(str(self.pid), encoding="utf-8")
        #: threads of the harness itself, alive before any example ran
        self.harness_threads = {thread.ident for thread in threading.enumerate()}

    def started(self, nodeid: str, allowed: float) -> None:
        """Tell the controller this example started and may run ``allowed`` seconds."""
        left = [
            thread.name
            for thread in threading.enumerate()
            if thread.ident not in self.harness_threads and thread.is_alive()
        ]
        data = {
            "pid": self.pid,
            "nodeid": nodeid,
            "deadline": time.monotonic() + allowed if allowed else None,
            "allowed": allowed,
            "threads": left,
        }
        temp = self.path.with_suffix(".tmp")
        temp.write_text(json.dumps(data), encoding="utf-8")
        os.replace(temp, self.path)  # never half a beacon

    def finished(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()


def _die_with_parent() -> None:
    """On Linux, have the kernel kill this worker when its controller dies."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() == 1:  # the controller died before prctl took effect
            os._exit(1)


# -- controller --------------------------------------------------------------------


def read_beacon(path: Path) -> Beacon | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Beacon(
            int(data["pid"]),
            str(data["nodeid"]),
            None if data["deadline"] is None else float(data["deadline"]),
            float(data["allowed"]),
            tuple(str(name) for name in data["threads"]),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None  # gone, or not there yet


class ControllerSide:
    """The controller's half: enforce deadlines, and end each worker's process group."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        #: worker id -> the beacon of the example the controller killed it in
        self.killed: dict[str, Beacon] = {}
        #: worker id -> the beacon a crashed worker left (the example it crashed in)
        self.left: dict[str, Beacon] = {}
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._watch, name="forkwait-watchdog", daemon=True)
        self._thread.start()

    def last_beacon(self, worker: str) -> Beacon | None:
        """The beacon of the example a crashed worker was running, if it left one."""
        return self.left.pop(worker, None)

    def _watch(self) -> None:
        while not self._stop.wait(POLL_INTERVAL):
            for path in self.folder.glob("*.beacon"):
                beacon = read_beacon(path)
                if beacon is None:
                    continue
                if beacon.deadline is not None and time.monotonic() > beacon.deadline:
                    with self._lock:
                        if read_beacon(path) == beacon:  # not replaced meanwhile
                            self.killed[path.stem] = beacon
                            _kill_group(beacon.pid)
                            with contextlib.suppress(FileNotFoundError):
                                path.unlink()

    def setup_error(self, worker: str) -> str | None:
        """The traceback a worker left that could not set up, if it did."""
        try:
            return (self.folder / f"{worker}.setup-error").read_text(encoding="utf-8")
        except OSError:
            return None

    def worker_down(self, worker: str) -> None:
        """A worker crashed or was killed: end what its examples left running, and
        keep its last beacon (its replacement, of the same id, writes its own)."""
        path = self.folder / f"{worker}.beacon"
        with self._lock:
            beacon = read_beacon(path)
            if beacon is not None:
                self.left[worker] = beacon
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
        pid_file = self.folder / f"{worker}.pid"
        with contextlib.suppress(OSError, ValueError):
            _kill_group(int(pid_file.read_text(encoding="utf-8")))
            pid_file.unlink()  # done with: its pid may be another process's one day

    def stop(self) -> None:
        """End every worker's process group (the run is over, or interrupted)."""
        self._stop.set()
        for path in self.folder.glob("*.pid"):
            self.worker_down(path.stem)

    def hang_message(self, what: str, worker: str) -> str | None:
        """What to say of an example the controller killed its worker in, else None."""
        beacon = self.killed.pop(worker, None)
        if beacon is None:
            return None
        return (
            f"{what}: hung past its deadline ({beacon.allowed:g} s, --example-timeout and "
            "the watchdog's grace), and the process did not end itself (it was stopped, "
            "or its deadlines were disarmed: faulthandler's timer cancelled, SIGALRM "
            "blocked); the controller killed its worker"
        )


def still_running(beacon: Beacon | None) -> str:
    """A note naming threads earlier examples left running, for a crash message."""
    if beacon is None or not beacon.threads:
        return ""
    return (
        "\nthreads alive when this example started (left by earlier examples, or the "
        "implementation's own; a crash in one of them is blamed on this example): "
        + ", ".join(beacon.threads)
    )


def _kill_group(pid: int) -> None:
    """SIGKILL the process group ``pid`` leads: never the controller's own group."""
    if pid == os.getpid():
        return
    try:
        group = os.getpgid(pid)
    except ProcessLookupError:
        group = pid  # the leader is gone; its group may live on
    if group != pid or group == os.getpgid(0):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)  # not a group of its own: the process alone
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(group, signal.SIGKILL)
