"""Failure texts a reader can act on: where (true file and line), what ran, what differed.

Sphinx prints doctest's report, which names ``testcode`` failures at a wrong
line and shows no source for setup code. Here every failing example is shown
with its true location, its source with line numbers, then doctest's
Expected/Got or the traceback at true lines.
"""

from __future__ import annotations

from conformance.sphinx_doctest.compiling import format_exception
from conformance.sphinx_doctest.model import Block
from conformance.sphinx_doctest.runners import WHERE_NOTE, ExampleFailure, RunResult


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


def describe_example(failure: ExampleFailure, what: str) -> str:
    where = (
        f"{failure.location.path}, line {failure.line}"
        if failure.location.path is not None and failure.line is not None
        else failure.location.label
    )
    if failure.kind == "exception":
        headline = f"{what} at {where} raised {failure.exception}:"
    else:
        headline = f"{what} at {where} printed something else than expected:"
    return "\n".join([headline, *numbered_source(failure), "", failure.detail.rstrip("\n")])


def describe_result(result: RunResult, what: str) -> str:
    """Every failing example of one run, separated by blank lines."""
    return "\n\n".join(describe_example(failure, what) for failure in result.failures)


def describe_interruption(block: Block, error: BaseException) -> str:
    """A test stopped from outside (a deadline, pytest.exit): where it was at the time."""
    notes = [n for n in getattr(error, "__notes__", []) if n.startswith(WHERE_NOTE)]
    detail = notes[0].removeprefix(WHERE_NOTE) if notes else format_exception(error)
    failure = ExampleFailure(block.code, block.location, block.location.line, "exception", detail)
    what = f"{block.type} at {block.location} was stopped by {type(error).__name__}:"
    return "\n".join([what, *numbered_source(failure), "", failure.detail.rstrip("\n")])


__all__ = ["describe_example", "describe_interruption", "describe_result", "numbered_source"]
