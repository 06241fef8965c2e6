"""Tell a deadlocked executor from a slow one, from outside, by what its threads wait on.

A deadlocked example (nested waits that took every thread of a pool) would
otherwise cost its whole ``--example-timeout``, and a first run of an engine
that deadlocks meets dozens of them. The harness asks Linux, not the
executor, what each thread of the executor and of every process it started
is doing (``/proc/PID/task/TID/syscall``): an example is deadlocked when every
one of those threads sleeps in a wait that only another of them could end -
a process-private futex wait with no timeout (a ``Lock``, ``Condition``,
``Event``, ``Future.result()`` or ``Queue.get()`` without a timeout), or an
``epoll`` wait with no timeout on Unix sockets whose other ends only those
processes hold (an asyncio loop with nothing scheduled) - and that state,
with their CPU time, stays the same for :data:`QUIET_FOR` seconds.

Anything else is taken as progress, so that the detector never fires on an
example that would pass: a running thread, a wait with a timeout (``sleep``,
``Event.wait(timeout)``, a ``Timer``, a loop with a timer scheduled), a
shared futex (another process may wake it), a wait for a child process, a
pipe, a network socket, a signal or anything the detector does not know, a
socket whose peer a process outside the executor's holds, a POSIX timer, and
a machine where it cannot read those files (it is Linux-only, x86-64 and
arm64). A signal sent from outside (``alarm``, ``setitimer`` or another
process's ``kill``) is what it cannot see: an example that waits, with no
timeout, for only such a signal would be failed as deadlocked.
"""

from __future__ import annotations

import contextlib
import os
import platform
import socket
import struct
from collections.abc import Collection, Iterator
from dataclasses import dataclass

#: seconds every thread must stay in the same untimed wait, with no CPU spent, to count
QUIET_FOR = 3.0
#: seconds between two looks at the threads
SAMPLE_EVERY = 0.5

# syscall numbers per machine: futex, and the epoll waits (their timeout argument's
# index, and whether it is a pointer: NULL, or -1 as a number, means no timeout)
_FUTEX = {"x86_64": 202, "aarch64": 98}
_EPOLL_WAITS = {
    "x86_64": {232: (3, False), 281: (3, False), 441: (3, True)},
    "aarch64": {22: (3, False), 441: (3, True)},
}
_FUTEX_WAIT, _FUTEX_WAIT_BITSET, _FUTEX_PRIVATE = 0, 9, 128
_FUTEX_CMD = 0x7F
_NO_TIMEOUT = (0xFFFFFFFF, 0xFFFFFFFFFFFFFFFF)  # -1 as an int, as a long


@dataclass(frozen=True)
class Quiet:
    """One look at a set of processes whose every thread is in an untimed wait."""

    #: (pid, tid, the syscall line: number, arguments, stack and instruction pointers)
    waits: tuple[tuple[int, int, str], ...]
    #: CPU clock ticks all their threads have used
    cpu: int
    #: the Unix sockets (inodes) an epoll wait waits on: their peers must be held inside
    sockets: frozenset[int]

    def same_as(self, other: Quiet) -> bool:
        return self.waits == other.waits and self.cpu == other.cpu

    def describe(self) -> str:
        threads, processes = len(self.waits), len({pid for pid, _, _ in self.waits})
        where = "its process" if processes == 1 else f"its {processes} processes"
        return (
            f"deadlocked: every thread of {where} ({threads}) waited, with no timeout, for "
            f"what only another of them could do, and no CPU time was spent, for {QUIET_FOR:g} s"
        )


class DeadlockWatch:
    """Looks at an executor's threads while a request runs; says when they deadlocked."""

    def __init__(self, root: int, exclude: Collection[int] = ()) -> None:
        self.root = root
        self.exclude = frozenset(exclude)
        self.machine = platform.machine()
        self.enabled = self.machine in _FUTEX and os.path.isdir(f"/proc/{root}/task")
        self._next = 0.0
        self._since = 0.0
        self._last: Quiet | None = None

    def check(self, now: float) -> str | None:
        """What deadlocked, once the same quiet state lasted QUIET_FOR seconds; else None."""
        if not self.enabled or now < self._next:
            return None
        self._next = now + SAMPLE_EVERY
        seen = quiet_state(self.root, self.exclude, self.machine)
        if seen is None or self._last is None or not seen.same_as(self._last):
            self._last, self._since = seen, now
            return None
        if now - self._since < QUIET_FOR:
            return None
        if not peers_held_inside(seen.sockets, {pid for pid, _, _ in seen.waits}):
            self._since = now  # an outside process could write to one of them
            return None
        return seen.describe()


def processes(root: int, exclude: frozenset[int]) -> list[int] | None:
    """``root`` and its descendants, less ``exclude``; None if the kernel cannot say."""
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        if pid in exclude:
            continue
        found.append(pid)
        try:
            for tid in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{tid}/children", encoding="ascii") as file:
                    todo += [int(child) for child in file.read().split()]
        except FileNotFoundError:
            if pid == root:
                return None
        except OSError:
            return None
    return found


def quiet_state(root: int, exclude: frozenset[int], machine: str) -> Quiet | None:
    """Every thread's untimed wait and the CPU time used; None if one can make progress."""
    waits: list[tuple[int, int, str]] = []
    cpu = 0
    sockets: set[int] = set()
    pids = processes(root, exclude)
    if pids is None:
        return None
    try:
        for pid in pids:
            if _has_posix_timers(pid):
                return None
            for tid in os.listdir(f"/proc/{pid}/task"):
                state, ticks = _thread_stat(pid, tid)
                if state == "Z":
                    continue  # an ended thread: it neither wakes anyone nor waits
                with open(f"/proc/{pid}/task/{tid}/syscall", encoding="ascii") as file:
                    line = file.read().strip()
                watched = untimed_wait(pid, line, machine) if state == "S" else None
                if watched is None:
                    return None
                sockets |= watched
                cpu += ticks
                waits.append((pid, int(tid), line))
    except (OSError, ValueError, IndexError):
        return None  # a thread or process ended while read, or a file it may not read
    return Quiet(tuple(sorted(waits)), cpu, frozenset(sockets))


def _thread_stat(pid: int, tid: str) -> tuple[str, int]:
    """A thread's state letter and the clock ticks it has run (user and system)."""
    with open(f"/proc/{pid}/task/{tid}/stat", encoding="ascii", errors="replace") as file:
        fields = file.read().rpartition(")")[2].split()
    return fields[0], int(fields[11]) + int(fields[12])


def _has_posix_timers(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/timers", encoding="ascii") as file:
            return bool(file.read().strip())
    except FileNotFoundError:
        return False


def untimed_wait(pid: int, line: str, machine: str) -> frozenset[int] | None:
    """The Unix sockets a thread's untimed wait needs written to (empty for a futex);
    None unless the syscall ``line`` is a wait with no timeout this module understands."""
    fields = line.split()
    if len(fields) < 7 or fields[0] in ("running", "-1"):
        return None
    number, args = int(fields[0]), [int(a, 16) for a in fields[1:7]]
    if number == _FUTEX[machine]:
        command, private = args[1] & _FUTEX_CMD, args[1] & _FUTEX_PRIVATE
        waits = command in (_FUTEX_WAIT, _FUTEX_WAIT_BITSET)
        return frozenset() if waits and private and args[3] == 0 else None
    epoll = _EPOLL_WAITS[machine].get(number)
    if epoll is None:
        return None
    index, pointer = epoll
    if (args[index] != 0) if pointer else (args[index] not in _NO_TIMEOUT):
        return None
    watched = frozenset(_epoll_targets(pid, args[0]))
    return watched or None  # an epoll with nothing in it waits for its timeout only


def _epoll_targets(pid: int, epfd: int) -> Iterator[int]:
    """The inodes of what an epoll instance watches (its ``tfd`` lines' ``ino``)."""
    with open(f"/proc/{pid}/fdinfo/{epfd}", encoding="ascii") as file:
        for line in file:
            if line.startswith("tfd:"):
                ino = line.partition(" ino:")[2].split()
                yield int(ino[0], 16) if ino else -1


# -- who could write to a socket --------------------------------------------------------

_NETLINK_SOCK_DIAG, _SOCK_DIAG_BY_FAMILY = 4, 20
_NLM_F_REQUEST, _NLM_F_DUMP, _NLMSG_DONE, _NLMSG_ERROR = 1, 0x300, 3, 2
_UDIAG_SHOW_PEER, _UNIX_DIAG_PEER = 4, 2


def unix_peers() -> dict[int, int]:
    """Every Unix socket of this network namespace -> its peer's inode (0: none), from
    the kernel's socket diagnostics (what ``ss -x`` reads); empty if it will not say."""
    every = 0xFFFFFFFF  # every state; no cookie
    request = struct.pack(
        "=BBHIIIII", socket.AF_UNIX, 0, 0, every, 0, _UDIAG_SHOW_PEER, every, every
    )
    header = struct.pack(
        "=IHHII", 16 + len(request), _SOCK_DIAG_BY_FAMILY, _NLM_F_REQUEST | _NLM_F_DUMP, 1, 0
    )
    peers: dict[int, int] = {}
    try:
        with socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, _NETLINK_SOCK_DIAG) as link:
            link.settimeout(2.0)
            link.send(header + request)
            while True:
                data = link.recv(1 << 16)
                if not data or not _read_diag(data, peers):
                    return peers
    except (OSError, struct.error):
        return {}


def _read_diag(data: bytes, peers: dict[int, int]) -> bool:
    """Add one netlink reply's sockets to ``peers``; False at the dump's end."""
    offset = 0
    while offset + 16 <= len(data):
        length, kind = struct.unpack_from("=IH", data, offset)
        if kind == _NLMSG_ERROR:
            raise OSError("the kernel refused the socket diagnostics request")
        if kind == _NLMSG_DONE or length < 16:
            return False
        inode = struct.unpack_from("=I", data, offset + 20)[0]
        peers[inode] = 0
        attr = offset + 32
        while attr + 4 <= offset + length:
            size, attr_type = struct.unpack_from("=HH", data, attr)
            if attr_type == _UNIX_DIAG_PEER:
                peers[inode] = struct.unpack_from("=I", data, attr + 4)[0]
            attr += max(4, (size + 3) & ~3)
        offset += (length + 3) & ~3
    return True


def holders(inodes: Collection[int]) -> dict[int, set[int]]:
    """The processes (of those this user may look into) holding each socket inode."""
    wanted = {f"socket:[{inode}]": inode for inode in inodes}
    found: dict[int, set[int]] = {inode: set() for inode in inodes}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        with contextlib.suppress(OSError):
            for fd in os.listdir(f"/proc/{entry}/fd"):
                with contextlib.suppress(OSError):
                    target = os.readlink(f"/proc/{entry}/fd/{fd}")
                    if target in wanted:
                        found[wanted[target]].add(int(entry))
    return found


def peers_held_inside(sockets: Collection[int], inside: Collection[int]) -> bool:
    """Is every one of ``sockets`` a connected Unix socket whose peer only the processes
    ``inside`` hold? Then nothing outside them can wake a wait on it."""
    if not sockets:
        return True
    peers = unix_peers()
    wanted = [peers.get(inode, 0) for inode in sockets]
    if 0 in wanted:
        return False  # not a Unix socket, or one with no peer (a listening one)
    held = holders(wanted)
    return all(held[peer] and held[peer] <= set(inside) for peer in wanted)


__all__ = [
    "QUIET_FOR",
    "SAMPLE_EVERY",
    "DeadlockWatch",
    "Quiet",
    "quiet_state",
    "unix_peers",
    "untimed_wait",
]
