"""Where a failure came from: the frames of its traceback, and whose code raised it.

Two failures that raise the same exception from the same line of an engine are
one bug, whatever their messages say (a quoted name, a number, a different
argument); two timeouts that hang at the same line of an engine are one
cause, wherever the example stood. So the triage view (triage.py) groups
them by the *origin*: the innermost frame of the code the spec called, the
standard library and the harness left out (a wait ends in ``threading.py``,
but the engine's line that waits is the one to look at).

A failure whose origin is in the adapter's own module, or a ``TypeError`` or
``AttributeError`` raised at the call itself about an ``fw`` name (a
signature that does not take the spec's call, a missing method), is an
*adapter error*: a bug of the glue, which the adapter's author fixes, never a
limit of the engine to declare.

These read the traceback texts the run writes (as cause_lines.py does).
"""

from __future__ import annotations

import re
import sysconfig
from dataclasses import dataclass
from pathlib import Path

#: the files a spec's examples are compiled as (their frames are the spec's own code)
SPEC_SUFFIXES = (".rst", ".txt", ".md")
_FRAME = re.compile(r'^\s*File "([^"]+)", line (\d+), in (.+)$')
_TRACEBACK = "Traceback (most recent call last):"
_LIBRARY = tuple(
    str(Path(p).resolve()) for p in {sysconfig.get_path("stdlib"), sysconfig.get_path("platstdlib")}
)
#: the harness's packages: their frames are never where a failure came from
_HARNESS = tuple(
    str(Path(__file__).resolve().parents[1] / part)
    for part in ("sphinx_doctest", "executor", "run", "reports", "programs")
)
#: ``fork() got an unexpected keyword argument``, ``Fw.wait() missing 1 required ...``
_BAD_CALL = re.compile(r"^TypeError: (?:[\w.]+\.)?(\w+)\(\) (?:got|missing|takes)\b")
_NO_ATTRIBUTE = re.compile(r"^AttributeError: .*has no attribute '(\w+)'")


@dataclass(frozen=True)
class Frame:
    """One frame of a traceback: its file, line and function."""

    file: str
    line: int
    function: str

    @property
    def in_spec(self) -> bool:
        return self.file.endswith(SPEC_SUFFIXES)

    @property
    def in_library(self) -> bool:
        """The standard library's, the harness's, or code with no file (``<frozen ...>``)."""
        return self.file.startswith("<") or self.file.startswith((*_LIBRARY, *_HARNESS))

    def where(self) -> str:
        """``_future.py, line 12, in wait``: short enough for a line of the triage view."""
        return f"{Path(self.file).name}, line {self.line}, in {self.function}"


@dataclass(frozen=True)
class Boundary:
    """What the adapter is: its module's files and the ``fw`` names the spec calls."""

    adapter_files: frozenset[str] = frozenset()
    api_names: frozenset[str] = frozenset()


def frames(traceback: str) -> list[Frame]:
    """The frames of the last traceback in ``traceback`` (a chained one's last part)."""
    text = traceback.rpartition(_TRACEBACK)[2] if _TRACEBACK in traceback else traceback
    found = []
    for line in text.splitlines():
        match = _FRAME.match(line)
        if match:
            found.append(Frame(match.group(1), int(match.group(2)), match.group(3).strip()))
    return found


def origin(traceback: str) -> Frame | None:
    """The innermost frame of the code the spec called, library and harness left out;
    else the innermost frame of the spec's own code (it raised there, or at a call);
    None for a traceback with neither."""
    found = [f for f in frames(traceback) if not f.in_library]
    return found[-1] if found else None


def adapter_error(traceback: str, exception: str, boundary: Boundary) -> bool:
    """Did the adapter's own code raise it: its origin is in the adapter's module, or it
    is a bad call of an ``fw`` name raised at the call (``exception``: the exception's
    line, ``TypeError: fork() got multiple values for argument 'fn'``)?"""
    where = origin(traceback)
    if where is None:
        return False
    if not where.in_spec:
        return str(Path(where.file).resolve()) in boundary.adapter_files
    named = _BAD_CALL.match(exception) or _NO_ATTRIBUTE.match(exception)
    return named is not None and named.group(1) in boundary.api_names


__all__ = ["SPEC_SUFFIXES", "Boundary", "Frame", "adapter_error", "frames", "origin"]
