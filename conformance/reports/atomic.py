"""Write a file so that readers see the old content or the new, never a part of either.

A run stopped mid-write (SIGTERM, a full disk) must not leave a truncated or
empty report where a CI job reads one: the text goes to a temporary file in
the same folder, which then replaces the target in one rename. Only a regular
file is ever replaced or removed: a rename over a symbolic link, a device node
or a FIFO would destroy something of the user's that only looks like a path.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from pathlib import Path

#: what a path may be, other than a regular file, and how an error names it
_KINDS = (
    (stat.S_ISLNK, "a symbolic link"),
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISCHR, "a device node"),
    (stat.S_ISBLK, "a device node"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
)


class NotReplaceable(OSError):
    """The path holds something other than a regular file: it is left as it is."""


def kind_of(path: Path) -> str | None:
    """What is at ``path`` if it is not a regular file (``a symbolic link``...), else None
    (a regular file, or nothing at all)."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:  # nothing there (or a parent is not a folder: writing will say so)
        return None
    return next((kind for test, kind in _KINDS if test(mode)), None)


def check_replaceable(path: Path) -> None:
    """Raise NotReplaceable unless ``path`` is a regular file or nothing."""
    kind = kind_of(path)
    if kind is not None:
        raise NotReplaceable(errno.EEXIST, f"it is {kind}, which is never replaced", str(path))


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` by a file holding ``text``, in one step (``os.replace``)."""
    check_replaceable(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temp, 0o666 & ~_umask())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        raise


def _umask() -> int:
    """The process's umask (mkstemp makes files private; a report is not)."""
    current = os.umask(0)
    os.umask(current)
    return current


def check_writable(path: Path) -> None:
    """Raise OSError unless a file can be written at ``path`` (creates nothing there)."""
    check_replaceable(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryFile(dir=path.parent):
        pass


def discard(path: Path) -> None:
    """Remove the regular file an earlier run left at ``path`` (a run that writes nothing
    leaves nothing); anything else there stays."""
    if kind_of(path) is None:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
