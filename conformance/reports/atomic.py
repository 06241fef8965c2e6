"""Write a file so that readers see the old content or the new, never a part of either.

A run stopped mid-write (SIGTERM, a full disk) must not leave a truncated or
empty report where a CI job reads one: the text goes to a temporary file in
the same folder, which then replaces the target in one rename.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` by a file holding ``text``, in one step (``os.replace``)."""
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
    if path.is_dir():
        raise IsADirectoryError(21, "is a folder", str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryFile(dir=path.parent):
        pass


def discard(path: Path) -> None:
    """Remove what an earlier run left at ``path``: a run that writes nothing leaves nothing."""
    with contextlib.suppress(FileNotFoundError, IsADirectoryError):
        path.unlink()
