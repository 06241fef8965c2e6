"""The executor's channel: length-prefixed JSON frames over a pipe pair only the two ends own.

Not the executor's stdout (an example prints there) and not execnet: a frame
is a fixed magic, a length and ASCII JSON, so bytes an example writes into
the channel's file descriptor are seen as a broken frame at once (never read
as a length that blocks the reader). The harness decodes every string it
receives so that a lone surrogate (``os.fsdecode`` of a non-UTF-8 name) is
shown escaped instead of breaking whatever carries it on (xdist, JUnit).
"""

from __future__ import annotations

import json
import os
import select
import struct
import time
from typing import Any

MAGIC = b"FWX1"
_HEADER = struct.Struct(">4sI")
#: a frame longer than this is not one of ours (the executor caps what it sends)
MAX_FRAME = 64 * 1024 * 1024
# bound now, before the adapter is imported: an example or an adapter that patches
# json, os.read/os.write or select (gevent's monkey.patch_all) does not reach the channel
_os_read, _os_write, _select = os.read, os.write, select.select
_encode = json.JSONEncoder(ensure_ascii=True, allow_nan=True).encode
_decode = json.JSONDecoder().decode


class ChannelBroken(Exception):
    """The other end is gone, or what arrived is not a frame."""


def send(fd: int, message: dict[str, Any]) -> None:
    payload = _encode(message).encode("ascii")
    data = _HEADER.pack(MAGIC, len(payload)) + payload
    view = memoryview(data)
    while view:
        try:
            written = _os_write(fd, view)
        except BrokenPipeError as exc:
            raise ChannelBroken("the other end closed the channel") from exc
        view = view[written:]


def receive(fd: int, deadline: float | None = None) -> dict[str, Any] | None:
    """The next message; None if ``deadline`` (time.monotonic()) passed with no frame begun.

    Raises:
        ChannelBroken: end of file, or bytes that are not a frame.
    """
    header = _read(fd, _HEADER.size, deadline)
    if header is None:
        return None
    magic, length = _HEADER.unpack(header)
    if magic != MAGIC or length > MAX_FRAME:
        raise ChannelBroken(f"not a frame of the executor's channel: {header!r}")
    # the rest of a frame is written at once: a short wait, not the example's deadline
    payload = _read(fd, length, time.monotonic() + 10.0, started=True)
    if payload is None:
        raise ChannelBroken("a frame of the executor's channel stopped short")
    try:
        message = _decode(payload.decode("ascii"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise ChannelBroken(f"a frame of the executor's channel is not JSON: {exc}") from exc
    if not isinstance(message, dict):
        raise ChannelBroken("a frame of the executor's channel is not a message")
    cleaned: dict[str, Any] = clean(message)
    return cleaned


def _read(fd: int, size: int, deadline: float | None, started: bool = False) -> bytes | None:
    chunks: list[bytes] = []
    missing = size
    while missing:
        wait = None if deadline is None else max(0.0, deadline - time.monotonic())
        ready, _, _ = _select([fd], [], [], wait)
        if not ready:
            if chunks and not started:
                raise ChannelBroken("a frame header of the executor's channel stopped short")
            return None
        chunk = _os_read(fd, missing)
        if not chunk:
            raise ChannelBroken("the executor's channel was closed")
        chunks.append(chunk)
        missing -= len(chunk)
    return b"".join(chunks)


def clean(value: Any) -> Any:
    """Every string made encodable (a lone surrogate shown as ``\\udcff``)."""
    if isinstance(value, str):
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(value, list):
        return [clean(item) for item in value]
    if isinstance(value, dict):
        return {clean(key): clean(item) for key, item in value.items()}
    return value


__all__ = ["MAGIC", "ChannelBroken", "clean", "receive", "send"]
