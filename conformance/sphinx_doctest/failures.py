"""Failure texts a reader can act on: where (true file and line), what ran, what differed.

Sphinx prints doctest's report, which names ``testcode`` failures at a wrong
line and shows no source for setup code. Here every failing example is shown
with its true location, its source with line numbers, then doctest's
Expected/Got or the traceback at true lines. A file under pytest's rootdir is
named relative to it (in the header and the traceback), as pytest names test files.
"""

from __future__ import annotations

import os
from pathlib import Path

from conformance.sphinx_doctest.compiling import format_exception
from conformance.sphinx_doctest.model import Block, Location
from conformance.sphinx_doctest.outcome import DeadlineExceeded, FailureKind
from conformance.sphinx_doctest.runners import WHERE_NOTE, DoctestResult, ExampleFailure


def numbered_source(failure: ExampleFailure) -> list[str]:
    """The example's whole source, each line prefixed with its true line number: a failure
    is read against every line that ran (an example that launches a program ends with
    the lines that launch it and print what it said), so none is cut."""
    lines = failure.source.rstrip("\n").splitlines() or [""]
    start = failure.line
    width = len(str((start or 0) + len(lines)))
    return [
        f"  {'' if start is None else start + offset:>{width}} | {text}"
        for offset, text in enumerate(lines)
    ]


def shown(path: Path, root: Path | None) -> str:
    """``path`` relative to ``root`` (pytest's rootdir) when it lies below it, else whole."""
    for base in (root, root.resolve()) if root is not None else ():
        if path.is_relative_to(base):
            return str(path.relative_to(base))
    return str(path)


def relative_frames(traceback: str, root: Path | None) -> str:
    """A traceback's frames in files under ``root`` named relative to it, as in the header."""
    if root is None:
        return traceback
    for base in {str(root), str(root.resolve())}:
        traceback = traceback.replace(f'  File "{base}{os.sep}', '  File "')
    return traceback


def where(location: Location, line: int | None, root: Path | None) -> str:
    """``file, line N`` for a reader; the label (e.g. a docstring's) when either is unknown."""
    if location.path is None or line is None:
        return location.label
    return f"{shown(location.path, root)}, line {line}"


def describe_example(failure: ExampleFailure, what: str, root: Path | None = None) -> str:
    place = where(failure.location, failure.line, root)
    if failure.kind == FailureKind.EXCEPTION:
        headline = f"{what} at {place} raised {failure.exception}:"
    else:
        headline = f"{what} at {place} printed something else than expected:"
    detail = relative_frames(failure.detail.rstrip("\n"), root)
    return "\n".join([headline, *numbered_source(failure), "", detail])


def describe_result(result: DoctestResult, what: str, root: Path | None = None) -> str:
    """Every failing example of one run, separated by blank lines."""
    return "\n\n".join(describe_example(failure, what, root) for failure in result.failures)


def describe_interruption(block: Block, error: BaseException, root: Path | None = None) -> str:
    """A test stopped from outside (a deadline, pytest.exit): where it was at the time."""
    notes = [n for n in getattr(error, "__notes__", []) if n.startswith(WHERE_NOTE)]
    detail = notes[0].removeprefix(WHERE_NOTE) if notes else format_exception(error)
    kind = FailureKind.EXCEPTION
    failure = ExampleFailure(block.code, block.location, block.location.line, kind, detail)
    place = where(block.location, block.location.line, root)
    if isinstance(error, DeadlineExceeded):
        how = f"timed out after {error.seconds:g} s ({error.setting}); it was at:"
    else:
        how = f"was stopped by {type(error).__name__}:"
    what = f"{block.type} at {place} {how}"
    detail = relative_frames(failure.detail.rstrip("\n"), root)
    return "\n".join([what, *numbered_source(failure), "", detail])


__all__ = [
    "describe_example",
    "describe_interruption",
    "describe_result",
    "numbered_source",
    "relative_frames",
    "shown",
    "where",
]
