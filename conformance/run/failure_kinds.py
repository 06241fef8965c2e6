"""What made an example's phase fail, and a timeout said as one.

Its own module because three parts of the run need it: isolation.py labels
each failure's kind as the report is made, spec_items.py words a timeout's
failure text, and reporter.py hands the kind on to JUnit.
"""

from __future__ import annotations

import re

import pytest

from conformance.executor.handle import ExecutorFault
from conformance.sphinx_doctest.evaluators import CleanupFailed, DoctestFailed, GroupSetupFailed

_TIMEOUT_PREFIX = "Timeout (>"
_STOPPED_BY = re.compile(r"^(\S+ at .*?) was stopped by Failed:$", re.MULTILINE)
_TIMEOUT_LINE = re.compile(
    r"^Failed: Timeout \(>([0-9.]+)s\)(?: from pytest-timeout\.)?:? ?(.*)$", re.MULTILINE
)
_TIMER_FRAMES = ("pytest_timeout.py", "/_pytest/")


def failure_kind(call: pytest.CallInfo[None]) -> str:
    """output, exception, setup, cleanup, timeout, hang, crash or error: what made this phase
    fail."""
    excinfo = call.excinfo
    if excinfo is None or excinfo.errisinstance(pytest.skip.Exception):
        return ""
    error = excinfo.value
    if isinstance(error, DoctestFailed):
        return error.result.failures[0].kind if error.result.failures else "output"
    if isinstance(error, ExecutorFault):
        return error.kind
    kinds = ((GroupSetupFailed, "setup"), (CleanupFailed, "cleanup"))
    kind = next((name for kind, name in kinds if isinstance(error, kind)), None)
    return kind or ("timeout" if is_timeout(error) else "error")


def is_timeout(error: BaseException) -> bool:
    """The executor's soft deadline (or a swallowed one, as the harness saw it)."""
    return str(error).startswith(_TIMEOUT_PREFIX)


def timeout_text(text: str) -> str:
    """A timeout said as one: "timed out after 30 s", without pytest-timeout's own frames.

    ``text`` is the failure as the doctest layer writes an interruption (the
    example's source, then the traceback at true lines); the frames of the
    example are kept: they show where it was stuck.
    """
    seconds = _TIMEOUT_LINE.search(text)
    after = f"{float(seconds.group(1)):g} s" if seconds else "the deadline"
    text = _STOPPED_BY.sub(rf"\1 timed out after {after} (--example-timeout); it was at:", text)
    lines = text.splitlines()
    kept: list[str] = []
    skip_code = False
    for line in lines:
        if line.startswith('  File "'):
            skip_code = any(frame in line for frame in _TIMER_FRAMES)
            if not skip_code:
                kept.append(line)
        elif skip_code and line.startswith("    "):
            continue
        else:
            skip_code = False
            kept.append(line)

    def said(match: re.Match[str]) -> str:
        rest = match.group(2).strip()
        return f"timed out after {float(match.group(1)):g} s" + (f": {rest}" if rest else "")

    return _TIMEOUT_LINE.sub(said, "\n".join(kept))


__all__ = ["failure_kind", "is_timeout", "timeout_text"]
