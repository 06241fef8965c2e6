"""The executor's channel: framed JSON over a pipe pair, each frame naming what it answers.

Not the executor's stdout (an example prints there) and not execnet: a frame
is a fixed magic, a length and ASCII JSON, so bytes an example writes into
the channel's file descriptors are seen as a broken frame at once (never read
as a length that blocks the reader). Every frame carries the channel's
*token*, a random string the harness hands the executor as the first frame
(not in its command line or environment, where an example could read it),
and the *sequence number* of the request it asks or answers: a well-formed
frame an example writes into the channel does not answer the request in
flight, and is refused as a broken channel instead of being taken as the
answer. Code running in the executor can still read the token from its
memory: this guards against accidents and blind forgery, not against code
that sets out to forge answers (docs/limits.rst).

The executor caps every string of an answer before framing it (an example's
70 MiB exception message arrives cut, not as a frame too long to be one),
and the harness decodes every string it receives so that a lone surrogate
(``os.fsdecode`` of a non-UTF-8 name) is shown escaped instead of breaking
whatever carries it on (xdist, JUnit). What an example did crosses the
channel as data, each with one encoder and one decoder here: a doctest result
(``result_data``, ``result_from``: each failure with its kind) and an
interruption (``interruption_data``, ``interruption_from``: a deadline with its
seconds), never as a text to be parsed back.
"""

from __future__ import annotations

import json
import os
import select
import struct
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from _pytest.outcomes import Failed, OutcomeException

from conformance.sphinx_doctest.capped import cap_text
from conformance.sphinx_doctest.model import Location
from conformance.sphinx_doctest.outcome import DeadlineExceeded, FailureKind
from conformance.sphinx_doctest.runners import WHERE_NOTE, DoctestResult, ExampleFailure

MAGIC = b"FWX2"
_HEADER = struct.Struct(">4sI")
#: a frame longer than this is not one of ours: what the harness holds of one answer
MAX_FRAME = 16 * 1024 * 1024
#: characters of one string of an answer (an exception's text, a doctest report)...
STRING_CAP = 256 * 1024
#: ... and of each, should an answer of many strings still not fit in MAX_FRAME
_SMALL_CAP = 4 * 1024
# bound now, before the adapter is imported: an example or an adapter that patches
# json, os.read/os.write or select (gevent's monkey.patch_all) does not reach the channel
_os_read, _os_write, _select, _fstat = os.read, os.write, select.select, os.fstat
_encode = json.JSONEncoder(ensure_ascii=True, allow_nan=True).encode
_decode = json.JSONDecoder().decode


class ChannelBroken(Exception):
    """The other end is gone, or what arrived is not a frame of this channel."""


@dataclass(frozen=True)
class Channel:
    """One end of the channel: where frames come in and go out, and the token of both."""

    incoming: int
    outgoing: int
    token: str

    def send(self, message: dict[str, Any], seq: int) -> None:
        send_frame(self.outgoing, {**message, "token": self.token, "seq": seq})

    def receive(self, deadline: float | None = None) -> dict[str, Any] | None:
        """The next message of this channel; None if ``deadline`` passed with no frame.

        Raises:
            ChannelBroken: end of file, bytes that are not a frame, or a frame without
                this channel's token.
        """
        message = receive_frame(self.incoming, deadline)
        if message is None:
            return None
        if message.get("token") != self.token or not isinstance(message.get("seq"), int):
            raise ChannelBroken("a frame that does not come from the other end of the channel")
        return message

    def identity(self) -> tuple[tuple[int, int] | None, tuple[int, int] | None]:
        """Which open files the descriptors are, incoming and outgoing (device and inode
        of each pipe; None for one that was closed)."""
        return (_identity(self.incoming), _identity(self.outgoing))

    @property
    def fds(self) -> tuple[int, int]:
        return (self.incoming, self.outgoing)


def _identity(fd: int) -> tuple[int, int] | None:
    try:
        about = _fstat(fd)
    except OSError:
        return None
    return (about.st_dev, about.st_ino)


def send_frame(fd: int, message: dict[str, Any]) -> None:
    data = _framed(message)
    view = memoryview(data)
    while view:
        try:
            written = _os_write(fd, view)
        except OSError as exc:  # the other end closed (EPIPE), or the descriptor is gone
            raise ChannelBroken(f"the channel cannot be written: {exc.strerror}") from exc
        view = view[written:]


def _framed(message: dict[str, Any]) -> bytes:
    """The frame of ``message``, its strings capped; at worst an error that fits."""
    for cap in (STRING_CAP, _SMALL_CAP):
        payload = _encode(capped(message, cap)).encode("ascii")
        if len(payload) <= MAX_FRAME:
            return _HEADER.pack(MAGIC, len(payload)) + payload
    error: dict[str, Any] = {k: message[k] for k in ("token", "seq") if k in message}
    error["error"] = f"an answer of more than {MAX_FRAME} bytes even with its strings cut"
    payload = _encode(error).encode("ascii")
    return _HEADER.pack(MAGIC, len(payload)) + payload


def receive_frame(fd: int, deadline: float | None = None) -> dict[str, Any] | None:
    """The next frame; None if ``deadline`` (time.monotonic()) passed with no frame begun.

    Raises:
        ChannelBroken: end of file, an unreadable descriptor, or bytes that are not a frame.
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
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
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
        try:
            ready, _, _ = _select([fd], [], [], wait)
            chunk = _os_read(fd, missing) if ready else None
        except (OSError, ValueError) as exc:  # closed or replaced under us
            raise ChannelBroken(f"the executor's channel cannot be read: {exc}") from exc
        if chunk is None:
            if chunks and not started:
                raise ChannelBroken("a frame header of the executor's channel stopped short")
            return None
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


def capped(value: Any, cap: int) -> Any:
    """Every string cut to ``cap`` characters, its head and its tail (capped.py)."""
    if isinstance(value, str):
        return cap_text(value, cap, "a string the executor sends")
    if isinstance(value, list | tuple):
        return [capped(item, cap) for item in value]
    if isinstance(value, dict):
        return {key: capped(item, cap) for key, item in value.items()}
    return value


# -- a doctest result as data -------------------------------------------------------


def result_data(result: DoctestResult | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {
        "tries": result.tries,
        "report": result.report,
        "failures": [
            {
                "source": f.source,
                "path": None if f.location.path is None else str(f.location.path),
                "location_line": f.location.line,
                "label": f.location.label,
                "line": f.line,
                "kind": f.kind,
                "detail": f.detail,
                "exception": f.exception,
            }
            for f in result.failures
        ],
    }


def result_from(data: dict[str, Any] | None) -> DoctestResult | None:
    """The result ``data`` describes (KeyError, TypeError or ValueError if it is not one)."""
    if data is None:
        return None
    failures = [
        ExampleFailure(
            str(f["source"]),
            Location(
                None if f["path"] is None else Path(f["path"]), f["location_line"], f["label"]
            ),
            f["line"],
            FailureKind(f["kind"]),
            str(f["detail"]),
            f["exception"],
        )
        for f in data["failures"]
    ]
    return DoctestResult(int(data["tries"]), failures, str(data["report"]))


# -- an example stopped from outside, as data ----------------------------------------


def interruption_data(stopped: OutcomeException, where: str) -> dict[str, Any]:
    """What stopped an example (``stopped``, raised into it) and ``where`` it was (the
    runner's note: its traceback at true lines)."""
    data: dict[str, Any] = {"message": str(stopped.msg), "where": where}
    if isinstance(stopped, DeadlineExceeded):
        data["deadline"] = {
            "seconds": stopped.seconds,
            "setting": stopped.setting,
            "detail": stopped.detail,
        }
    return data


def interruption_from(data: dict[str, Any]) -> OutcomeException:
    """The exception that stopped the example, as the harness raises it, with its note
    (KeyError, TypeError or ValueError if ``data`` is not one)."""
    deadline = data.get("deadline")
    stopped: OutcomeException
    if deadline is None:
        stopped = Failed(str(data["message"]), pytrace=False)
    else:
        seconds = float(deadline["seconds"])
        stopped = DeadlineExceeded(seconds, str(deadline["setting"]), str(deadline["detail"]))
    where = str(data["where"])
    if where.startswith(WHERE_NOTE):
        stopped.add_note(where)
    return stopped


__all__ = [
    "MAGIC",
    "MAX_FRAME",
    "STRING_CAP",
    "Channel",
    "ChannelBroken",
    "capped",
    "clean",
    "interruption_data",
    "interruption_from",
    "receive_frame",
    "result_data",
    "result_from",
    "send_frame",
]
