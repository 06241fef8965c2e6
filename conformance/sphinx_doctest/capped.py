"""What an example prints is kept up to a cap: an output flood must not poison the worker.

doctest keeps an example's output in its runner's spoofed ``sys.stdout`` to
compare it, and a failure quotes it (in the expected/got difference and in
the report), so one example printing 800 MB would leave copies of it in the
worker for every later example. Past :data:`OUTPUT_CAP` characters an
example's output is counted, not kept; what it printed then ends with a note
saying how much was dropped, which fails the comparison like any other
difference. doctest empties the spoof after every example.
"""

from __future__ import annotations

import doctest

#: characters of one example's output that are kept (1 MiB of text)
OUTPUT_CAP = 1 << 20


class CappedOutput(doctest._SpoofOut):  # type: ignore[name-defined,misc]
    """doctest's spoofed stdout, keeping at most ``cap`` characters per example."""

    def __init__(self, cap: int = OUTPUT_CAP) -> None:
        super().__init__()
        self.cap = cap
        self.dropped = 0

    def write(self, text: str) -> int:
        room = self.cap - self.tell()
        if len(text) <= room:
            return int(super().write(text))
        if room > 0:
            super().write(text[:room])
        self.dropped += len(text) - max(room, 0)
        return len(text)

    def getvalue(self) -> str:
        value: str = super().getvalue()
        if self.dropped:
            value += (
                f"[... {self.dropped} more characters of output dropped: an example's "
                f"output is kept up to {self.cap} characters]\n"
            )
        return value

    def truncate(self, size: int | None = None) -> int:
        if not size:
            self.dropped = 0
        super().truncate(size)
        position: int = self.tell()
        return position


def cap_text(text: str, cap: int = OUTPUT_CAP, what: str = "captured output") -> str:
    """``text`` cut to about ``cap`` characters, its head and its tail, saying how much of
    the middle was dropped: where a flood ends (its last lines, an exception's type) is
    often what tells why."""
    if len(text) <= cap:
        return text
    half = cap // 2
    return text[:half] + dropped_note(len(text) - 2 * half, cap, what) + text[-half:]


def dropped_note(count: int, cap: int, what: str) -> str:
    """The line that stands where ``count`` characters of ``what`` were cut out."""
    return (
        f"\n[... {count} more characters dropped: {what} is kept up to {cap} characters, "
        "its head and its tail]\n"
    )


__all__ = ["OUTPUT_CAP", "CappedOutput", "cap_text", "dropped_note"]
