"""A file the suite reads whole must be a regular file (or a link to one).

A FIFO blocks the reader until something writes to it (forever, if nothing
does), a pipe (``<(...)``) gives its text once although every xdist worker reads
the file again, a device may never end: each is refused up front, by name,
instead of hanging or reading half.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


class NotRegular(OSError):
    """The path exists and is not a regular file."""


def check_regular(path: Path) -> None:
    """Raise NotRegular if ``path`` exists and is not a regular file; a missing file is
    left for the reader to name (``stat`` follows links and, unlike ``open``, never
    blocks on a FIFO)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return
    if not stat.S_ISREG(mode):
        raise NotRegular(
            f"{path} is not a regular file (a pipe, FIFO, device or folder is read once "
            "or never ends): save it to a file"
        )


__all__ = ["NotRegular", "check_regular"]
