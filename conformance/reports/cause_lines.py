"""The cause of a failed example in one line, and the signature that groups equal causes.

A first run of a new engine fails dozens of examples for a handful of causes
(tasks that cannot be pickled, no keyword arguments, a nesting limit...). The
cause of one failure is the line a reader would look for in its block: the
exception it raised (the last line of its traceback naming that exception)
or the first output line that differs from the expected one. Two causes that
differ only in addresses, numbers or quoted names (``'_thread.lock'`` beside
``'_Local'``, ``argument 'b'`` beside ``argument 'x'``) have one *signature*:
the triage view (triage.py) groups by it.

These read the texts the run writes (doctest's Expected/Got, a traceback).
"""

from __future__ import annotations

import doctest
import re

from conformance.sphinx_doctest.outcome import FailureKind

#: the longest cause kept: one line of a terminal, give or take
LIMIT = 240
#: what separates a cause from where it happened (a timeout's line): not part of its signature
WHERE = "; at "
_ADDRESS = re.compile(r"\b0x[0-9a-fA-F]+\b")
_NUMBER = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?(?![\w.])")
_QUOTED = re.compile(r"'[^'\n]{0,80}'|\"[^\"\n]{0,80}\"")
_EXCEPTION_LINE = re.compile(r"^[A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning)\b.*")
_FRAME = re.compile(r'^\s*File "([^"]+)", line (\d+)')


def one_line(text: str, limit: int = LIMIT) -> str:
    """``text`` as one line of at most ``limit`` characters."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 3] + "..."


def exception_line(traceback: str, name: str | None = None) -> str:
    """The line of ``traceback`` that names the exception raised last: the last line that
    starts with ``name`` (or ``module.name``), else the last line that names an
    exception, else its last line. Notes and chained tracebacks may follow or precede it."""
    lines = [line for line in traceback.splitlines() if line.strip()]
    if name:
        short = name.rpartition(".")[2]
        for line in reversed(lines):
            head = line.partition(":")[0]
            if not line[:1].isspace() and (head == name or head.rpartition(".")[2] == short):
                return one_line(line)
    for line in reversed(lines):
        if _EXCEPTION_LINE.match(line):
            return one_line(line)
    return one_line(lines[-1]) if lines else ""


def _block(lines: list[str], start: int) -> list[str]:
    """The indented lines after ``start`` (doctest indents what it quotes by 4 spaces)."""
    block = []
    for line in lines[start + 1 :]:
        if line and not line.startswith("    "):
            break
        block.append(line[4:])
    while block and not block[-1].strip():
        block.pop()
    return block


def _same(expected: str, got: str) -> bool:
    checker = doctest.OutputChecker()
    return expected == got or checker.check_output(
        expected + "\n", got + "\n", doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    )


def first_difference(detail: str) -> str:
    """The first line where an example printed something else than expected, from
    doctest's ``Expected:``/``Got:`` text: ``output line 2: got 'False', expected 'True'``."""
    lines = detail.splitlines()
    heads = {line.strip(): i for i, line in enumerate(lines) if not line.startswith(" ")}
    expected = _block(lines, heads["Expected:"]) if "Expected:" in heads else None
    got = _block(lines, heads["Got:"]) if "Got:" in heads else None
    if expected is None and got is None:
        return exception_line(detail)
    if not expected:
        return one_line(f"printed {(got or [''])[0]!r} where nothing was expected")
    if not got:
        return one_line(f"printed nothing where {expected[0]!r} was expected")
    for number, (want, have) in enumerate(zip(expected, got, strict=False), start=1):
        if not _same(want, have):
            return one_line(f"output line {number}: got {have!r}, expected {want!r}")
    number = min(len(expected), len(got)) + 1
    if len(got) > len(expected):
        return one_line(f"output line {number}: got {got[number - 1]!r}, expected no more")
    return one_line(f"output line {number}: got no more, expected {expected[number - 1]!r}")


def timeout_cause(seconds: float | None, where: str = "") -> str:
    """``timed out after 30 s; at fork.rst, line 42: fw.wait(f)``: the deadline and the
    line of the example it was on (the innermost frame in a spec document of the
    traceback ``where``)."""
    cause = "timed out" if seconds is None else f"timed out after {seconds:g} s"
    lines = where.splitlines()
    for index in range(len(lines) - 1, -1, -1):
        frame = _FRAME.match(lines[index])
        if frame and frame.group(1).endswith((".rst", ".txt", ".md")):
            code = lines[index + 1].strip() if index + 1 < len(lines) else ""
            file = frame.group(1).rpartition("/")[2]
            return one_line(f"{cause}{WHERE}{file}, line {frame.group(2)}: {code}")
    return cause


def fault_cause(summary: str) -> str:
    """What a crash or hang was, without what the harness did next: ``the example crashed
    the interpreter (killed by SIGSEGV)``."""
    return one_line(summary.strip().splitlines()[0].partition("; ")[0]) if summary.strip() else ""


def signature(kind: str, cause: str) -> str:
    """What equal causes share: the kind and the cause without where it happened, with
    addresses, numbers and (but in output) quoted names made alike."""
    text = _ADDRESS.sub("0x…", cause.partition(WHERE)[0])
    if kind != FailureKind.OUTPUT:
        text = _QUOTED.sub("'…'", text)
    return f"{kind}: {_NUMBER.sub('N', text)}"


__all__ = [
    "LIMIT",
    "WHERE",
    "exception_line",
    "fault_cause",
    "first_difference",
    "one_line",
    "signature",
    "timeout_cause",
]
